import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { environment, readConfig } from '../../src/config.js'
import { describeEachDatabase, describePostgres } from '../helpers/databases.js'
import { startHarness, useHarness } from '../helpers/harness.js'
import { exitOf, listening } from '../helpers/server-process.js'

const run = promisify(execFile)

describeEachDatabase('probes and metrics', (dialect) => {
  let key = ''
  const harness = useHarness(dialect, async (h) => {
    key = (await h.createKey((await h.createClub('ops')).id, ['read:groups'], null)).key
  }, { env: { RATE_LIMIT_CAPACITY: '2' } })

  it('answers /healthz and /readyz from loopback', async () => {
    const { app } = harness.current
    const health = await app.inject({ url: '/healthz' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toEqual({ status: 'ok' })
    const ready = await app.inject({ url: '/readyz' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'ready', database: dialect, limiter: 'memory' })
  })

  it('hides the probes and metrics from addresses outside OPS_ALLOW', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics']) {
      const response = await harness.current.app.inject({ url, remoteAddress: '203.0.113.9' })
      expect(response.statusCode).toBe(404)
      expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/not-found')
    }
  })

  it('exports request counts and latency by route and status, 429s by limit, outbox and failed mail gauges', async () => {
    const h = harness.current
    for (let i = 0; i < 3; i++) await h.request({ url: '/api/v1/groups', key })
    const response = await h.app.inject({ url: '/metrics' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/plain/)
    const text = response.body
    expect(text).toMatch(/http_requests_total\{route="\/api\/v1\/groups",method="GET",status="200"\} 2/)
    expect(text).toMatch(/http_requests_total\{route="\/api\/v1\/groups",method="GET",status="429"\} 1/)
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/api\/v1\/groups",method="GET",status="200"\} 2/)
    expect(text).toMatch(/rate_limit_refusals_total\{limit="burst"\} 1/)
    expect(text).toMatch(/^mail_outbox_pending 0$/m)
    expect(text).toMatch(/^mail_outbox_oldest_pending_age_seconds 0$/m)
    expect(text).toMatch(/^mail_failed 0$/m)
    // The first list was read, the second served from the response cache (the third was refused before either).
    expect(text).toMatch(/^response_cache_lookups_total\{outcome="miss"\} 1$/m)
    expect(text).toMatch(/^response_cache_lookups_total\{outcome="hit"\} 1$/m)
    expect(text).toMatch(/^response_cache_bytes [1-9]\d*$/m)
    if (dialect === 'postgres') expect(text).toMatch(/db_pool_connections\{state="total"\} \d+/)
    expect(text).toContain('process_resident_memory_bytes')
  })
})

describePostgres('database pool gauge', () => {
  const harness = useHarness('postgres')
  const gauge = (text: string, state: string) =>
    Number(new RegExp(`^db_pool_connections\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN)
  const scrape = async () => (await harness.current.app.inject({ url: '/metrics' })).body
  /** Yields to the event loop (no timers) until the pool reaches a state. */
  const until = async (reached: () => boolean) => {
    for (let turns = 0; !reached(); turns++) {
      if (turns > 100_000) throw new Error('the pool never reached the state')
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  it('reports no request waiting for a connection on an idle server, whatever the scrape itself reads', async () => {
    for (let i = 0; i < 5; i++) {
      const text = await scrape()
      expect(gauge(text, 'waiting'), text).toBe(0)
      expect(gauge(text, 'total')).toBeGreaterThanOrEqual(gauge(text, 'idle'))
    }
  })

  it('counts the requests waiting while every connection is in use', async () => {
    const { context } = harness.current
    const pool = () => context.poolStats() ?? { total: 0, idle: 0, waiting: 0 }
    let release: () => void = () => undefined
    const gate = new Promise<undefined>((resolve) => {
      release = () => {
        resolve(undefined)
      }
    })
    const held = Array.from({ length: 10 }, () => context.db.connection().execute(() => gate))
    let text = ''
    try {
      await until(() => pool().total === 10 && pool().idle === 0)
      const queued = [1, 2].map(() => context.db.selectFrom('clubs').select('id').execute())
      await until(() => pool().waiting === 2)
      const answer = harness.current.app.inject({ url: '/metrics' })
      // The scrape's own reading of the outbox queues behind the two, after the gauge was read.
      await until(() => pool().waiting === 3)
      release()
      await Promise.all([...held, ...queued])
      text = (await answer).body
    } finally {
      release()
    }
    expect(gauge(text, 'waiting')).toBe(2)
    expect(gauge(text, 'total')).toBe(10)
    expect(gauge(text, 'idle')).toBe(0)
    expect(gauge(await scrape(), 'waiting')).toBe(0)
  })
})

describe('readiness without Redis', () => {
  it('reports not ready (503) while the configured Redis is unreachable', async () => {
    const h = await startHarness('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' } })
    try {
      const response = await h.app.inject({ url: '/readyz' })
      expect(response.statusCode).toBe(503)
      expect(response.json<{ detail: string }>().detail).toContain('rate limiter (Redis) unreachable')
    } finally {
      await h.close()
    }
  })
})

describe('configuration', () => {
  it('reads a .env file under the environment, which wins', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-env-'))
    fs.writeFileSync(path.join(dir, '.env'), 'PORT=4100\nLOG_LEVEL=debug\n# a comment\nDAILY_QUOTA=500\n')
    const env = environment({ LOG_LEVEL: 'warn' }, dir)
    const config = readConfig(env)
    expect(config).toMatchObject({ port: 4100, logLevel: 'warn', rateLimit: { dailyQuota: 500 } })
    expect(() => environment({ ENV_FILE: path.join(dir, 'missing.env') }, dir)).toThrow(/ENV_FILE/)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://root:secret@db/club' }, 'DATABASE_URL'],
    [{ WORKERS: 'many' }, 'WORKERS'],
    [{ OPS_ALLOW: 'everyone' }, 'OPS_ALLOW'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://[relay' }, 'REDIS_URL'],
    [{ SMTP_URL: 'smtp://user:secret@[relay:587' }, 'SMTP_URL'],
    // The response cache lives in the heap: one that cannot hold it twice over is refused, not run into the ground.
    [{ RESPONSE_CACHE_MB: '64', NODE_OPTIONS: '--max-old-space-size=128' }, 'RESPONSE_CACHE_MB'],
  ])('stops the server with one line naming the variable: %o', async (env, variable) => {
    const failed = await run(process.execPath, ['dist/server.js'], { env: { ...process.env, ...env, DATA_DIR: os.tmpdir() } })
      .catch((error: unknown) => error as { code: number, stderr: string })
    expect(failed).toMatchObject({ code: 1 })
    const stderr = (failed as { stderr: string }).stderr.trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toMatch(new RegExp(`^club-platform: ${variable}=`))
    expect(stderr).not.toContain('secret')
  })

  it('runs the server as npm start does wherever operations.md starts it: the same Node.js flags and the same glibc setting', async () => {
    const start = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? ''
    const [, assignment = '', flags = ''] = /^(\S+=\S+) node (.+) dist\/server\.js$/.exec(start) ?? []
    expect(assignment).toBe('GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072')
    expect(flags).toBe('--max-old-space-size=128')
    const operations = fs.readFileSync('docs/operations.md', 'utf8')
    expect(operations).toContain(`Environment=${assignment}\nExecStart=/usr/bin/node ${flags} dist/server.js\n`)
    expect(operations).toMatch(new RegExp(`${assignment} \\\\\n  node ${flags} dist/server.js\n`))

    // npm passes the setting on to the server's process, where glibc reads it at start.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-start-'))
    const npm = spawn('npm', ['start', '--silent'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true,
      env: { ...process.env, GLIBC_TUNABLES: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' } })
    const exited = exitOf(npm)
    try {
      await listening(npm)
      const environments = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
        try {
          const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
          const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
          return cmdline.includes('dist/server.js') && environ.includes(`DATA_DIR=${dataDir}`) ? [{ cmdline, environ }] : []
        } catch {
          return []
        }
      })
      expect(environments).toHaveLength(1)
      expect(environments[0]?.cmdline).toContain('--max-old-space-size=128')
      expect(environments[0]?.environ).toContain(assignment)
    } finally {
      if (npm.pid !== undefined && npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid, 'SIGTERM')
      await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
