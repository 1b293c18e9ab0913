import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../helpers/databases.js'
import { cli } from '../helpers/cli.js'
import { START, useHarness } from '../helpers/harness.js'
import { freePort } from '../../src/tools/free-port.js'

const run = promisify(execFile)

describeEachDatabase('club-platform command line', (dialect) => {
  const harness = useHarness(dialect)
  const env = () => harness.current.database.env
  const admin = (...args: string[]) => cli(env(), args, harness.current.clock)

  it('migrates (idempotently) and reports it', async () => {
    const result = await admin('migrate', '--json')
    expect(result.code).toBe(0)
    expect(result.json()).toEqual({ applied: [] })
    expect((await admin('migrate')).stdout).toContain('up to date')
  })

  it('creates and lists clubs, refusing bad and duplicate input', async () => {
    const created = await admin('clubs', 'create', '--slug', 'tc-cli', '--name', 'TC CLI', '--timezone', 'Europe/Vienna', '--json')
    expect(created.code).toBe(0)
    expect(created.json()).toMatchObject({ slug: 'tc-cli', name: 'TC CLI', timezone: 'Europe/Vienna' })
    const again = await admin('clubs', 'create', '--slug', 'tc-cli', '--name', 'X', '--timezone', 'UTC')
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already exists')
    const badSlug = await admin('clubs', 'create', '--slug', 'TC CLI!', '--name', 'X', '--timezone', 'UTC')
    expect(badSlug.code).toBe(1)
    expect(badSlug.stderr).toContain('not a valid slug')
    const badZone = await admin('clubs', 'create', '--slug', 'ok', '--name', 'X', '--timezone', 'Mars/Olympus')
    expect(badZone.code).toBe(1)
    expect(badZone.stderr).toContain('IANA time zone')
    const missing = await admin('clubs', 'create', '--slug', 'ok')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--name')
    const list = await admin('clubs', 'list', '--json')
    expect(list.json<{ slug: string }[]>().map((club) => club.slug)).toContain('tc-cli')
    expect((await admin('clubs', 'list')).stdout).toMatch(/slug\s+name\s+timezone\s+id\n.*tc-cli/)
  })

  it('creates a key that works once, lists it without the secret, and revokes it', async () => {
    await admin('clubs', 'create', '--slug', 'keys-club', '--name', 'Keys', '--timezone', 'Europe/Berlin')
    const created = await admin('keys', 'create', '--club', 'keys-club', '--scopes', 'read:groups,read:news', '--name', 'website', '--json')
    expect(created.code).toBe(0)
    const { id, key, scopes } = created.json<{ id: string, key: string, scopes: string[] }>()
    expect(key).toMatch(/^cpk_[0-9A-Za-z]{38}$/)
    expect(scopes).toEqual(['read:groups', 'read:news'])

    const use = (url: string) => harness.current.request({ url, key })
    expect((await use('/api/v1/groups')).status).toBe(200)
    expect((await use('/api/v1/events')).status).toBe(403)

    const listed = await admin('keys', 'list', '--club', 'keys-club', '--json')
    expect(listed.stdout).not.toContain(key)
    expect(listed.json<{ id: string, prefix: string }[]>()).toEqual([expect.objectContaining({ id, prefix: key.slice(0, 10) })])
    const table = await admin('keys', 'list', '--club', 'keys-club')
    expect(table.stdout).not.toContain(key)
    expect(table.stdout).toContain('active')

    const revoked = await admin('keys', 'revoke', id, '--json')
    expect(revoked.code).toBe(0)
    expect(revoked.json()).toMatchObject({ id, already_revoked: false, revoked_at: new Date(START).toISOString() })
    harness.current.clock.advance(1_000)
    try {
      expect((await use('/api/v1/groups')).status).toBe(401)
    } finally {
      harness.current.clock.set(START)
    }
    const twice = await admin('keys', 'revoke', id)
    expect(twice.code).toBe(0)
    expect(twice.stdout).toContain('already revoked')
    expect((await admin('keys', 'list', '--club', 'keys-club')).stdout).toContain('revoked')
  })

  it('makes a private calendar feed whose address works once printed, lists it without the address, and revokes it', async () => {
    await admin('clubs', 'create', '--slug', 'feeds-club', '--name', 'Feeds', '--timezone', 'Europe/Berlin')
    const created = await admin('feeds', 'create', '--club', 'feeds-club', '--name', 'Office', '--show-names', '--json')
    expect(created.code, created.stderr).toBe(0)
    const { id, url, show_names: showNames } = created.json<{ id: string, url: string, show_names: boolean }>()
    expect([showNames, url]).toEqual([true, expect.stringMatching(/\/calendar\/cpf_[A-Za-z0-9_-]{43}\.ics$/)])
    const path = new URL(url).pathname
    expect((await harness.current.request({ url: path })).status).toBe(200)
    const listed = await admin('feeds', 'list', '--club', 'feeds-club')
    expect(listed.stdout).not.toContain(path)
    expect(listed.stdout).toMatch(/Office[\s\S]*active[\s\S]*Public events feed: .*\/calendar\/feeds-club\/events\.ics/)
    const revoked = await admin('feeds', 'revoke', id, '--club', 'feeds-club', '--json')
    expect([revoked.code, revoked.json<{ status: string }>().status]).toEqual([0, 'revoked'])
    expect((await harness.current.request({ url: path })).status).toBe(404)
    const elsewhere = await admin('feeds', 'revoke', id, '--club', 'keys-club')
    expect([elsewhere.code, elsewhere.stderr]).toEqual([1, expect.stringContaining(`keys-club has no calendar feed with the id ${id}`)])
  })

  it('refuses bad key input with a clear message', async () => {
    await admin('clubs', 'create', '--slug', 'bad-keys', '--name', 'Bad keys', '--timezone', 'UTC')
    const cases: [string[], RegExp][] = [
      [['--club', 'bad-keys', '--scopes', 'read:everything', '--name', 'x'], /unknown scope "read:everything"/],
      [['--club', 'bad-keys', '--scopes', '', '--name', 'x'], /at least one scope/],
      [['--club', 'nope', '--scopes', 'read:groups', '--name', 'x'], /no club with the slug "nope"/],
      [['--club', 'bad-keys', '--scopes', 'read:groups', '--name', ' '], /--name: give 1 to 200 characters/],
      [['--club', 'bad-keys', '--scopes', 'read:groups', '--name', 'x', '--expires-at', '2026-01-01'], /not an RFC 3339/],
      [['--club', 'bad-keys', '--scopes', 'read:groups', '--name', 'x', '--expires-at', '2020-01-01T00:00:00Z'], /not in the future/],
    ]
    for (const [args, message] of cases) {
      const result = await admin('keys', 'create', ...args)
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toMatch(message)
    }
    expect((await admin('keys', 'revoke', 'not-a-uuid')).stderr).toContain('is not a key id')
    const unknown = await admin('keys', 'revoke', '00000000-0000-4000-8000-000000000000')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no API key with the id')
  })

  it('creates a key with an expiry that stops working then', async () => {
    await admin('clubs', 'create', '--slug', 'expiry', '--name', 'Expiry', '--timezone', 'UTC')
    const expiresAt = new Date(START + 3_600_000).toISOString()
    const { key } = (await admin('keys', 'create', '--club', 'expiry', '--scopes', 'read:groups', '--name', 'x',
      '--expires-at', expiresAt, '--json')).json<{ key: string }>()
    expect((await harness.current.request({ url: '/api/v1/groups', key })).status).toBe(200)
    harness.current.clock.set(START + 3_600_000)
    try {
      expect((await harness.current.request({ url: '/api/v1/groups', key })).status).toBe(401)
    } finally {
      harness.current.clock.set(START)
    }
  })

  it('loads and refreshes the demo club, printing a key with every scope', async () => {
    const first = await admin('demo', '--json')
    expect(first.code).toBe(0)
    const demo = first.json<{ club_slug: string, api_key: string }>()
    expect(demo.club_slug).toBe('demo')
    const groups = await harness.current.request({ url: '/api/v1/groups', key: demo.api_key })
    expect(groups.status).toBe(200)
    const total = groups.json<{ meta: { total: number } }>().meta.total
    expect(total).toBeGreaterThan(3)
    for (const url of ['/api/v1/events', '/api/v1/news', '/api/v1/competition-results']) {
      const response = await harness.current.request({ url, key: demo.api_key })
      expect(response.status).toBe(200)
      expect(response.json<{ meta: { total: number } }>().meta.total).toBeGreaterThan(0)
    }
    expect(first.json<{ revoked_keys: number }>().revoked_keys).toBe(0)
    const second = (await admin('demo', '--json')).json<{ api_key: string, revoked_keys: number }>()
    const again = await harness.current.request({ url: '/api/v1/groups', key: second.api_key })
    expect(again.json<{ meta: { total: number } }>().meta.total).toBe(total)
    // One demo key works at a time: the run says so, and the previous key is refused within a second.
    expect(second.revoked_keys).toBe(1)
    const third = await admin('demo')
    expect(third.stdout).toContain('The demo key printed by the previous run is revoked.')
    harness.current.clock.advance(1_000)
    try {
      expect((await harness.current.request({ url: '/api/v1/groups', key: demo.api_key })).status).toBe(401)
      expect((await harness.current.request({ url: '/api/v1/groups', key: second.api_key })).status).toBe(401)
      const current = /\n {2}(cpk_\w+)\n/.exec(third.stdout)?.[1] ?? ''
      expect((await harness.current.request({ url: '/api/v1/groups', key: current })).status).toBe(200)
    } finally {
      harness.current.clock.set(START)
    }
    const keys = (await admin('keys', 'list', '--club', 'demo', '--json')).json<{ revoked_at: string | null }[]>()
    expect(keys.filter((key) => key.revoked_at === null)).toHaveLength(1)
  })

  it('runs the README\'s own commands after the demo, in order', async () => {
    expect((await admin('demo')).code).toBe(0)
    const readme = await fs.readFile('README.md', 'utf8')
    const section = readme.slice(readme.indexOf('## Giving a club developer access'), readme.indexOf('## Settings'))
    const lines = [...section.matchAll(/^npx club-platform (.+)$/gm)].map((match) => (match[1] ?? '').replace(/\s+#.*$/, ''))
    expect(lines.length).toBeGreaterThan(8)
    const ids: Record<string, string> = { '<mail-id>': '00000000-0000-4000-8000-000000000000',
      '<admin-id>': '00000000-0000-4000-8000-000000000001', '<booking-id>': '00000000-0000-4000-8000-000000000002' }
    for (const line of lines) {
      const args = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '')
        .map((arg) => ids[arg] ?? arg)
      const result = await admin(...args, '--json')
      if (args[0] === 'mail' && args[1] === 'retry') {
        // Nothing has failed here: a clean refusal, not a crash.
        expect(result.code, line).toBe(1)
        expect(result.stderr).toContain('no failed or waiting mail')
        continue
      }
      if (args[0] === 'admins' && args[1] === 'remove') {
        // Nobody has accepted the invitation here: a clean refusal.
        expect(result.code, line).toBe(1)
        expect(result.stderr).toContain('No such member of this club.')
        continue
      }
      if (args[0] === 'bookings' && (args[1] === 'cancel' || args[1] === 'move')) {
        // No booking has this id here: a clean refusal.
        expect(result.code, line).toBe(1)
        expect(result.stderr).toContain('no booking 00000000-0000-4000-8000-000000000002 at tc-riverside')
        continue
      }
      if (args[0] === 'bookings' && args[1] === 'create' && result.code !== 0) {
        // Run after the README's date: a clean refusal of a time in the past.
        expect(result.stderr, line).toContain('start_time is in the past')
        continue
      }
      expect(result.code, `${line}\n${result.stderr}`).toBe(0)
      if (args[0] === 'keys' && args[1] === 'create') ids['<key-id>'] = result.json<{ id: string }>().id
      if (args[0] === 'courts' && args[1] === 'create') ids['<court-id>'] = result.json<{ id: string }>().id
    }
  })

  it('names the option the user typed when it refuses one', async () => {
    await admin('clubs', 'create', '--slug', 'flags', '--name', 'Flags', '--timezone', 'Europe/Berlin')
    const court = (await admin('courts', 'create', '--club', 'flags', '--name', 'Court 1', '--json')).json<{ id: string }>().id
    const hold = (...extra: string[]) => ['courts', 'hold', '--club', 'flags', '--court', court, '--kind', 'block', ...extra]
    const weekly = ['--weekly', 'tue', '--start', '10:00', '--end', '11:00']
    const cases: [string[], string][] = [
      [hold('--weekly', 'tuesday', '--start', '10:00', '--end', '11:00'), '--weekly: "tuesday" is not a weekday'],
      [hold('--weekly', 'tue', '--start', '7pm', '--end', '11:00'), '--start: "7pm" is not a local time'],
      [hold('--weekly', 'tue', '--start', '10:00', '--end', '25:00'), '--end: "25:00" is not a local time'],
      [hold(...weekly, '--valid-from', '2026-02-30'), '--valid-from: "2026-02-30" is not a date'],
      [hold(...weekly, '--valid-until', 'tomorrow'), '--valid-until: "tomorrow" is not a date'],
      [hold('--weekly', 'tue', '--start', '11:00', '--end', '10:00'), '--start before --end'],
      [hold('--from', 'yesterday', '--to', '2026-06-16T21:00:00+02:00'), '--from: "yesterday" is not an RFC 3339 date-time'],
      [hold('--from', '2026-06-16T21:00:00+02:00', '--to', '2026-06-16T20:00:00+02:00'), '--from before --to'],
      [hold('--from', '2026-06-16T20:00:00+02:00'), 'a one-off hold needs --from before --to'],
      [['courts', 'hold', '--club', 'flags', '--court', 'court-1', '--kind', 'block', ...weekly], '--court: "court-1" is not a court id'],
      [['courts', 'create', '--club', 'flags', '--name', '  '], '--name: give 1 to 200 characters'],
      [['courts', 'create', '--club', 'flags', '--name', 'X', '--horizon-days', '999'], '--horizon-days: must be <= 366'],
      [['courts', 'create', '--club', 'flags', '--name', 'X', '--max-slots', '0'], '--max-slots: must be >= 1'],
      [['courts', 'create', '--club', 'flags', '--name', 'X', '--slot-minutes', 'half an hour'], '--slot-minutes: "half an hour" is not'],
      [['keys', 'create', '--club', 'flags', '--scopes', 'read:groups', '--name', 'x', '--expires-at', 'soon'], '--expires-at: "soon"'],
      [['keys', 'create', '--club', 'flags', '--scopes', 'read:groups', '--name', 'x', '--capacity', 'lots'], '--capacity: "lots"'],
    ]
    for (const [args, expected] of cases) {
      const result = await admin(...args)
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(result.stderr, args.join(' ')).toContain(expected)
      // Never the import format's internals.
      expect(result.stderr, args.join(' ')).not.toMatch(/\b(court|hold|courts\[0\]|court_holds\[0\])\.|anyOf|constant|_at\b|_time\b/)
    }
  })

  it('lists courts in the import format\'s snake_case, as created', async () => {
    await admin('clubs', 'create', '--slug', 'listing', '--name', 'Listing', '--timezone', 'Europe/Berlin')
    const created = (await admin('courts', 'create', '--club', 'listing', '--name', 'Court A', '--slot-minutes', '30',
      '--hours', 'mon-sun=09:00-21:00', '--json')).json<Record<string, unknown>>()
    expect(Object.keys(created).every((key) => /^[a-z]+(_[a-z]+)*$/.test(key))).toBe(true)
    expect((await admin('courts', 'list', '--club', 'listing', '--json')).json()).toEqual([created])
  })

  it('creates courts and holds that the public listing shows, and refuses bad ones', async () => {
    await admin('clubs', 'create', '--slug', 'courts-cli', '--name', 'Courts', '--timezone', 'Europe/Berlin')
    const created = await admin('courts', 'create', '--club', 'courts-cli', '--name', 'Centre Court', '--slot-minutes', '30',
      '--hours', 'mon-fri=17:00-21:00,sat-sun=09:00-13:00', '--max-slots', '4', '--json')
    expect(created.code, created.stderr).toBe(0)
    const court = created.json<{ id: string }>()
    const hold = await admin('courts', 'hold', '--club', 'courts-cli', '--court', court.id, '--kind', 'reservation',
      '--weekly', 'tue', '--start', '17:00', '--end', '18:00', '--reason', 'training', '--json')
    expect(hold.code, hold.stderr).toBe(0)
    const block = await admin('courts', 'hold', '--club', 'courts-cli', '--court', court.id, '--kind', 'block',
      '--from', '2026-06-16T20:00:00+02:00', '--to', '2026-06-16T21:00:00+02:00')
    expect(block.code, block.stderr).toBe(0)
    const slots = (await harness.current.request({ url: '/api/v1/public/courts-cli/courts?date=2026-06-16' }))
      .json<{ courts: { start_time: string, status: string }[] }>().courts
    expect(slots).toHaveLength(8)
    expect(slots.map((slot) => slot.status)).toEqual(['reserved', 'reserved', 'available', 'available', 'available', 'available',
      'blocked', 'blocked'])
    expect((await admin('courts', 'list', '--club', 'courts-cli')).stdout).toContain('Centre Court')

    const badHours = await admin('courts', 'create', '--club', 'courts-cli', '--name', 'X', '--hours', 'weekdays=8-22')
    expect(badHours.code).toBe(1)
    expect(badHours.stderr).toContain('--hours')
    const backwards = await admin('courts', 'create', '--club', 'courts-cli', '--name', 'X', '--hours', 'mon=22:00-08:00')
    expect(backwards.stderr).toContain('--hours: mon: close is not after open')
    const both = await admin('courts', 'hold', '--club', 'courts-cli', '--court', court.id, '--kind', 'block',
      '--from', '2026-06-16T20:00:00+02:00', '--to', '2026-06-16T21:00:00+02:00', '--weekly', 'mon', '--start', '10:00', '--end', '11:00')
    expect(both.code).toBe(1)
    expect(both.stderr).toContain('either')
    const foreign = await admin('courts', 'hold', '--club', 'keys-club', '--court', court.id, '--kind', 'block',
      '--from', '2026-06-16T20:00:00+02:00', '--to', '2026-06-16T21:00:00+02:00')
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toContain('no court')
    const holdId = hold.json<{ id: string }>().id
    expect((await admin('courts', 'unhold', holdId, '--club', 'courts-cli')).code).toBe(0)
    expect((await admin('courts', 'unhold', holdId, '--club', 'courts-cli')).code).toBe(1)
  })

  it('leaves the limiter alone: no saved state written, no wait for an unreachable Redis', async () => {
    const env = harness.current.database.env
    expect((await cli(env, ['clubs', 'list'], harness.current.clock)).code).toBe(0)
    const { existsSync } = await import('node:fs')
    expect(existsSync(path.join(env.DATA_DIR ?? '', 'rate-limits.json'))).toBe(false)
    const unreachable = await cli({ ...env, REDIS_URL: 'redis://127.0.0.1:1' }, ['clubs', 'list', '--json'], harness.current.clock)
    expect(unreachable.code, unreachable.stderr).toBe(0)
  })

  it('backs up a SQLite database while it is in use, and points PostgreSQL users to pg_dump', async () => {
    const env = harness.current.database.env
    const target = path.join(os.tmpdir(), `club-platform-backup-${String(process.pid)}-${dialect}.sqlite`)
    await fs.rm(target, { force: true })
    const result = await cli(env, ['backup', target], harness.current.clock)
    if (dialect === 'postgres') {
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('pg_dump')
      return
    }
    expect(result.code, result.stderr).toBe(0)
    const copy = await cli({ DATA_DIR: path.dirname(target), DATABASE_URL: `sqlite:${target}` }, ['clubs', 'list', '--json'])
    expect(copy.json<{ slug: string }[]>().map((club) => club.slug)).toContain('tc-cli')
    expect((await cli(env, ['backup', target], harness.current.clock)).stderr).toContain('exists already')
    await fs.rm(target, { force: true })
  })

  it('prints help for every command and refuses unknown ones', async () => {
    for (const args of [['--help'], ['clubs', 'create', '--help'], ['keys', 'create', '--help'], ['keys', 'revoke', '--help'],
      ['import', '--help'], ['demo', '--help'], ['migrate', '--help'], ['courts', 'create', '--help'], ['courts', 'hold', '--help'],
      ['mail', 'list', '--help'], ['mail', 'retry', '--help']]) {
      const result = await admin(...args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.stdout).toMatch(/Usage: club-platform/)
    }
    const unknown = await admin('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command')
  })

  it('offers --json on every command that reports something (openapi and import-schema print JSON anyway)', async () => {
    const commands = async (path: string[]): Promise<string[][]> => {
      const help = (await admin(...path, '--help')).stdout
      const names = [...(help.split('Commands:\n')[1] ?? '').matchAll(/^ {2}([a-z-]+)/gm)].map((match) => match[1] ?? '')
        .filter((name) => name !== 'help')
      if (names.length === 0) return [path]
      return (await Promise.all(names.map((name) => commands([...path, name])))).flat()
    }
    const all = await commands([])
    expect(all.map((path) => path.join(' '))).toEqual(expect.arrayContaining(['backup', 'courts unhold', 'keys limits', 'mail retry']))
    for (const path of all) {
      const help = (await admin(...path, '--help')).stdout
      if (path[0] === 'openapi' || path[0] === 'import-schema') expect(help, path.join(' ')).not.toContain('--json')
      else expect(help, path.join(' ')).toContain('--json')
    }
  })
})

describe('club-platform as a real process', () => {
  it('runs from bin/ with DATA_DIR and prints JSON', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-bin-'))
    try {
      const { stdout } = await run(process.execPath, ['bin/club-platform.js', 'demo', '--json'],
        { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } })
      const demo = JSON.parse(stdout) as { club_slug: string, api_key: string }
      expect(demo.club_slug).toBe('demo')
      expect(demo.api_key).toMatch(/^cpk_/)
      await fs.access(path.join(dataDir, 'club-platform.sqlite'))
      const failed = await run(process.execPath, ['bin/club-platform.js', 'keys', 'list', '--club', 'missing'],
        { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } }).catch((error: unknown) => error)
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('no club with the slug "missing"') as unknown })
      const badConfig = await run(process.execPath, ['bin/club-platform.js', 'clubs', 'list'],
        { env: { ...process.env, DATABASE_URL: 'mysql://x' } }).catch((error: unknown) => error)
      expect(badConfig).toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL') as unknown })
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('serves the demo: the printed curl line returns the demo club\'s groups, the printed dashboard link signs the demo owner '
    + 'in, and SIGTERM stops it cleanly', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-demo-'))
    const port = String(await freePort())
    const server = spawn(process.execPath, ['dist/server.js', '--demo'],
      { env: { ...process.env, DATA_DIR: dataDir, PORT: port, DATABASE_URL: '', LOG_LEVEL: 'warn', PUBLIC_URL: '' } })
    try {
      let output = ''
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve))
      // Up to 30 s: on a loaded machine (CI runs two test files at once beside the browsers) the start takes seconds.
      for (let i = 0; i < 600 && !/#token=\S+\n/.test(output); i++) await new Promise((resolve) => setTimeout(resolve, 50))
      const curl = /curl -H "Authorization: Bearer (cpk_\w+)" (http:\/\/\S+)/.exec(output)
      expect(curl, output).not.toBeNull()
      const response = await fetch(curl?.[2] ?? '', { headers: { authorization: `Bearer ${curl?.[1] ?? ''}` } })
      expect(response.status).toBe(200)
      const body = await response.json() as { data: { name: string }[] }
      expect(body.data.map((group) => group.name)).toContain('Bambini Tennis')

      const link = new RegExp(`(http://localhost:${port}/dashboard/sign-in)#token=(cpl_\\S+)`).exec(output)
      expect(link, output).not.toBeNull()
      expect(output).toContain('sign in as owner@tc-riverside.example')
      expect((await fetch(link?.[1] ?? '')).headers.get('content-type')).toMatch(/^text\/html/)
      const signedIn = await fetch(`http://localhost:${port}/api/admin/v1/sign-in`, { method: 'POST',
        headers: { 'content-type': 'application/json', 'origin': `http://localhost:${port}` }, body: JSON.stringify({ token: link?.[2] }) })
      expect(signedIn.status).toBe(201)
      expect((await signedIn.json() as { clubs: { slug: string, role: string }[] }).clubs).toEqual([expect.objectContaining({ slug: 'demo',
        role: 'owner' })])
      // Without SMTP the mail is a file in the data directory, with the same link.
      // A mail is written as `….eml.tmp` and renamed when complete: only the renamed file is the mail.
      const mails = async () => (await fs.readdir(path.join(dataDir, 'mail')).catch(() => [])).filter((name) => name.endsWith('.eml'))
      await expect.poll(async () => (await mails()).length, { timeout: 5_000 }).toBe(1)
      const [file = ''] = await mails()
      expect((await fs.readFile(path.join(dataDir, 'mail', file), 'utf8')).replace(/=\r\n/g, '')).toContain(link?.[2] ?? '?')
      server.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      server.kill('SIGKILL')
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

describeEachDatabase('club-platform keys and rate limits', (dialect) => {
  const harness = useHarness(dialect, undefined, { env: { RATE_LIMIT_CAPACITY: '60', RATE_LIMIT_PER_MINUTE: '60', DAILY_QUOTA: '10000' } })
  const admin = (...args: string[]) => cli(harness.current.database.env, args, harness.current.clock)

  it('gives a key its own limits at creation and changes them later, back to the default too', async () => {
    await admin('clubs', 'create', '--slug', 'plans', '--name', 'Plans', '--timezone', 'UTC')
    const created = await admin('keys', 'create', '--club', 'plans', '--scopes', 'read:groups', '--name', 'premium', '--capacity', '300',
      '--per-minute', '300', '--daily-quota', '100000', '--json')
    expect(created.code, created.stderr).toBe(0)
    const { id, key, limits } = created.json<{ id: string, key: string, limits: Record<string, number> }>()
    expect(limits).toEqual({ capacity: 300, per_minute: 300, daily_quota: 100000 })
    const first = await harness.current.request({ url: '/api/v1/groups', key })
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '300', 'x-ratelimit-day-limit': '100000' })
    const changed = await admin('keys', 'limits', id, '--capacity', 'default', '--daily-quota', '500', '--json')
    expect(changed.code, changed.stderr).toBe(0)
    expect(changed.json<{ limits: unknown }>().limits).toEqual({ per_minute: 300, daily_quota: 500 })
    harness.current.clock.advance(1_000)
    try {
      const after = await harness.current.request({ url: '/api/v1/groups', key })
      expect(after.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-day-limit': '500' })
    } finally {
      harness.current.clock.set(START)
    }
    expect((await admin('keys', 'list', '--club', 'plans')).stdout).toContain('300/min, 500/day')
    expect((await admin('keys', 'limits', id, '--capacity', '0')).stderr).toContain('positive whole number')
    expect((await admin('keys', 'limits', id)).stderr).toContain('at least one')
  })
})
