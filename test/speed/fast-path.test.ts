/**
 * The answers given before routing (src/speed/fast-path.ts) are Fastify's answers: two servers on
 * one database, one with and one without that path, get the same requests over real HTTP — random
 * sequences of list pages, queries good and bad, conditional requests, keys valid, unknown, without
 * the scope and over their budget, court grids, the planner's day with dashboard sessions live,
 * ended, malformed and of another club, HEAD, and changes to the data, roles and sessions in
 * between — and must answer each with the same status, headers and body. The fast path must have answered a
 * share of them, or the comparison proves nothing. On SQLite, the pages it misses are read and
 * serialised on its reader threads (src/speed/list-readers.ts), as in the server.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DASHBOARD_DIR } from '../../src/http/dashboard-app.js'
import { dashboardSettings } from '../../src/http/dashboard-access.js'
import { isCompressedCopy } from '../../src/http/static-page.js'
import { BODY_SLOTS } from '../../src/speed/list-readers.js'
import { loadWidget, WIDGET_PATH } from '../../src/http/widget.js'
import { changeRole, startSession } from '../../src/services/admins.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { OPERATOR } from '../../src/services/audit.js'
import { importClubData } from '../../src/services/import.js'
import { setUpCourts, TUESDAY } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { asSession, COOKIE, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { clubFixture } from '../helpers/fixtures.js'
import { START, startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { LIST_PATHS, LIST_SCOPES } from '../helpers/list-endpoints.js'

/** Differ between any two answers, or are the connection's. */
const UNCOMPARED = new Set(['date', 'connection', 'keep-alive'])

interface Answer { status: number, headers: [string, string][], body: string }

async function send(base: string, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers })
  const body = await response.text()
  const list: [string, string][] = []
  response.headers.forEach((value, name) => {
    if (!UNCOMPARED.has(name)) list.push([name, value])
  })
  return { status: response.status, headers: list.sort(([a], [b]) => a.localeCompare(b)), body }
}

describeEachDatabase('answers before routing', (dialect) => {
  const servers: { harness: Harness & { close(): Promise<void> }, base: string }[] = []
  const keys: Record<string, string> = {}
  const clubs: { id: string, slug: string }[] = []
  /** Dashboard sessions by name: the cookie's value, or what a browser might send instead. */
  const sessions: Record<string, string> = { malformed: 'cps_not-a-session', none: '' }
  /** The editor of fast-a, whose role the runs switch between editor (no planner) and admin. */
  const editor = { adminId: '', role: 'editor' as 'editor' | 'admin' }
  /** The admin of fast-a whose session the runs end and begin again. */
  const rotating = { adminId: '' }

  beforeAll(async () => {
    const widget = await loadWidget()
    if (widget !== undefined) files.push(widget.pinnedPath)
    // On SQLite its misses are read on threads, as the server reads them (src/speed/list-readers.ts).
    const env = { RATE_LIMIT_CAPACITY: '15', RATE_LIMIT_PER_MINUTE: '60', PUBLIC_URL: `${ORIGIN}/` }
    const fast = await startHarness(dialect, { readerThreads: true, env })
    const plain = await startHarness(dialect, { database: fast.database, fastPath: false, env })
    for (const harness of [fast, plain]) {
      const address = await harness.app.listen({ port: 0, host: '127.0.0.1' })
      servers.push({ harness, base: address })
      expect((harness.app.server.address() as AddressInfo).port).toBeGreaterThan(0)
    }
    for (const slug of ['fast-a', 'fast-b']) {
      // The courts of the helper have fixed ids: one club has them, the other none.
      const clubId = slug === 'fast-a' ? (await setUpCourts(fast, slug)).clubId : (await fast.createClub(slug)).id
      await importClubData(fast.context.db, fast.clock, clubId, clubFixture(slug, START))
      clubs.push({ id: clubId, slug })
      const all = await createApiKey(fast.context.db, fast.clock, { clubId, name: 'all', expiresAt: null,
        scopes: LIST_SCOPES })
      keys[`${slug}:all`] = all.key
      keys[`${slug}:groups`] = (await createApiKey(fast.context.db, fast.clock, { clubId, name: 'groups only', expiresAt: null,
        scopes: ['read:groups'] })).key
      keys[`${slug}:tiny`] = (await createApiKey(fast.context.db, fast.clock, { clubId, name: 'tiny', expiresAt: null,
        scopes: ['read:groups', 'read:news'], limits: { capacity: 2, perMinute: 1, dailyQuota: 5 } })).key
    }
    const [a, b] = clubs
    if (a === undefined || b === undefined) throw new Error('clubs not set up')
    sessions.owner = await signedIn(fast, a.id, 'owner@fast-a.example', 'owner')
    sessions.editor = await signedIn(fast, a.id, 'editor@fast-a.example', 'editor')
    sessions.other = await signedIn(fast, b.id, 'admin@fast-b.example', 'admin')
    sessions.rotating = await signedIn(fast, a.id, 'rotating@fast-a.example', 'admin')
    sessions.ended = await signedIn(fast, a.id, 'ended@fast-a.example', 'admin')
    expect((await asSession(fast, sessions.ended)('DELETE', '/api/admin/v1/me/sessions')).status).toBe(204)
    const adminOf = async (cookie: string) => ((await asSession(fast, cookie)('GET', '/api/admin/v1/me')).json<{ admin_id: string }>()).admin_id
    editor.adminId = await adminOf(sessions.editor)
    rotating.adminId = await adminOf(sessions.rotating)
  }, 120_000)

  afterAll(async () => {
    for (const { harness } of servers.reverse()) await harness.close()
  })

  const queries = ['', '?', '?limit=5', '?offset=3', '?limit=5&offset=2', '?offset=2&limit=5', '?offset=02', '?limit=0', '?limit=101',
    '?offset=10001', '?foo=1', '?limit=1&limit=2', '?limit=1.0', '?limit=5&', '?LIMIT=5', '?limit=%35']
  const assets = fs.readdirSync(path.join(DASHBOARD_DIR, 'assets')).filter((name) => !isCompressedCopy(name)).map((name) => `/dashboard/assets/${name}`)
  const files = [WIDGET_PATH, ...assets, '/dashboard/assets/missing.js', '/widget/v1/club-booking-0000000000000000.js']
  const courtQueries = ['', `?date=${TUESDAY}`, '?date=2026-02-30', '?date=20260616', '?date=2026-06-16&x=1']
  const request = fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('list' as const), path: fc.constantFrom(...LIST_PATHS),
      // Mostly the pages a website asks for again and again, which the steady state answers.
      query: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('', '?limit=5') }, { weight: 2, arbitrary: fc.constantFrom(...queries) }),
      club: fc.constantFrom('fast-a', 'fast-b'), key: fc.oneof({ weight: 3, arbitrary: fc.constant('all') },
        { weight: 2, arbitrary: fc.constantFrom('groups', 'tiny', 'unknown', 'none', 'twice') }),
      conditional: fc.constantFrom('none', 'current', 'weak', 'other'), method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD') }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('courts' as const), club: fc.constantFrom('fast-a', 'fast-b', 'nowhere', 'fast%2Da'),
      query: fc.constantFrom(...courtQueries), conditional: fc.constantFrom('none', 'current', 'other'),
      method: fc.constantFrom('GET', 'GET', 'HEAD') }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('file' as const), path: fc.constantFrom(...files),
      query: fc.constantFrom('', '', '?v=1'), encoding: fc.constantFrom('', 'gzip', 'br', 'gzip, deflate, br', 'br;q=0, gzip', '*', 'identity'),
      conditional: fc.constantFrom('none', 'current', 'other'), method: fc.constantFrom('GET', 'GET', 'HEAD') }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('planner' as const),
      // Mostly the day an open planner reads again and again, which the steady state answers.
      club: fc.oneof({ weight: 4, arbitrary: fc.constant('fast-a') }, { weight: 1, arbitrary: fc.constantFrom('fast-b', 'nowhere', 'fast%2Da') }),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant('owner') },
        { weight: 3, arbitrary: fc.constantFrom('editor', 'other', 'rotating', 'ended', 'malformed', 'none', 'twice', 'quoted') }),
      query: fc.oneof({ weight: 4, arbitrary: fc.constant(`?date=${TUESDAY}`) },
        { weight: 1, arbitrary: fc.constantFrom('', '?date=2026-02-30', `?date=${TUESDAY}&x=1`) }),
      conditional: fc.oneof({ weight: 3, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: fc.constantFrom('current', 'other') }),
      method: fc.constantFrom('GET', 'GET', 'HEAD') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('change' as const), club: fc.constantFrom('fast-a', 'fast-b'),
      name: fc.string({ maxLength: 8 }) }) },
    // The access check's own changes: a role switched, a session ended and another begun, through either server.
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('access' as const), change: fc.constantFrom('role', 'sign-out'),
      server: fc.constantFrom(0, 1) }) },
    // Keys are trusted for a second, and buckets refill: most steps are shorter than that, some much longer.
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.oneof(fc.integer({ min: 1, max: 900 }),
      fc.integer({ min: 1_000, max: 90_000 })) }) },
  )
  /** The ETag each server last sent per path, to ask with If-None-Match. */
  const tags = new Map<string, string>()

  it('answers every request as Fastify does, and answers the steady state itself', async () => {
    const [fast, plain] = servers
    if (fast === undefined || plain === undefined) throw new Error('servers not started')
    const answeredBefore = fast.harness.app.fastPath.answered
    const statuses = new Set<number>()
    const routes = new Set<string>()
    const observer = fast.harness.app.fastPath.observer
    fast.harness.app.fastPath.observer = (answer) => {
      statuses.add(answer.status)
      routes.add(answer.route)
      observer(answer)
    }
    let id = 0
    let sent = 0
    await fc.assert(fc.asyncProperty(fc.array(request, { minLength: 5, maxLength: 30 }), async (steps) => {
      for (const step of steps) {
        if (step.kind === 'time') {
          for (const { harness } of servers) harness.clock.advance(step.ms)
          continue
        }
        if (step.kind === 'change') {
          const club = clubs.find((candidate) => candidate.slug === step.club)
          if (club === undefined) continue
          await fast.harness.context.db.updateTable('groups').set({ description: `changed ${step.name}` })
            .where('club_id', '=', club.id).execute()
          await fast.harness.context.db.updateTable('courts').set({ name: `Court ${step.name}` })
            .where('club_id', '=', club.id).execute()
          // PostgreSQL reports the change to each server's feed a moment later.
          await Promise.all(servers.map(({ harness }) => harness.context.changes.settle()))
          continue
        }
        if (step.kind === 'access') {
          const server = servers[step.server]?.harness ?? fast.harness
          if (step.change === 'role') {
            editor.role = editor.role === 'editor' ? 'admin' : 'editor'
            await changeRole(server.context.db, server.clock, { clubId: clubs[0]?.id ?? '', adminId: editor.adminId,
              role: editor.role, actor: OPERATOR })
          } else {
            const ended = await asSession(server, sessions.rotating ?? '')('DELETE', '/api/admin/v1/me/sessions')
            expect(ended.status).toBe(204)
            // Signed in again (as a sign-in link would; a club's invitations a day are limited).
            sessions.rotating = (await startSession(server.context.db, server.clock.now(), dashboardSettings(server.context),
              rotating.adminId, 'rotating@fast-a.example', 'link', { address: null, userAgent: null })).token
          }
          await Promise.all(servers.map(({ harness }) => harness.context.changes.settle()))
          continue
        }
        const path = step.kind === 'courts'
          ? `/api/v1/public/${step.club}/courts${step.query}`
          : step.kind === 'planner' ? `/api/admin/v1/clubs/${step.club}/planner${step.query}` : `${step.path}${step.query}`
        const headers: Record<string, string> = { 'x-request-id': `compare-${String(++id)}` }
        if (step.kind === 'planner' && step.session !== 'none') {
          const cookie = sessions[step.session === 'twice' || step.session === 'quoted' ? 'owner' : step.session] ?? ''
          headers.cookie = step.session === 'twice'
            ? `theme=dark; ${COOKIE}=${cookie}; ${COOKIE}=${sessions.other ?? ''}`
            : step.session === 'quoted' ? `${COOKIE}="${cookie}"` : `${COOKIE}=${cookie}`
        }
        if (step.kind === 'file' && step.encoding !== '') headers['accept-encoding'] = step.encoding
        if (step.kind === 'list') {
          const key = keys[`${step.club}:${step.key}`]
          if (key !== undefined) headers.authorization = `Bearer ${key}`
          if (step.key === 'unknown') headers.authorization = 'Bearer cpk_unknown'
          // Two values of one header arrive as one line, joined.
          if (step.key === 'twice') headers.authorization = `Bearer ${keys[`${step.club}:all`] ?? ''}, Bearer ${keys[`${step.club}:all`] ?? ''}`
        }
        const tag = tags.get(`${headers.authorization ?? ''} ${path}`)
        if (step.conditional === 'current' && tag !== undefined) headers['if-none-match'] = tag
        if (step.conditional === 'weak' && tag !== undefined) headers['if-none-match'] = `W/${tag}`
        if (step.conditional === 'other') headers['if-none-match'] = '"other"'
        const answers = await Promise.all(servers.map(({ base }) => send(base, path, step.method, headers)))
        sent++
        expect(answers[0], `${step.method} ${path} ${JSON.stringify(step)}`).toEqual(answers[1])
        const etag = answers[0]?.headers.find(([name]) => name === 'etag')?.[1]
        if (etag !== undefined) tags.set(`${headers.authorization ?? ''} ${path}`, etag)
      }
    }), { numRuns: 60 })
    // Whatever the runs drew: a key over its budget, asked again and again.
    const tiny = `Bearer ${keys['fast-b:tiny'] ?? ''}`
    for (let i = 0; i < 6; i++) {
      const headers = { 'x-request-id': `compare-tiny-${String(i)}`, 'authorization': tiny }
      const answers = await Promise.all(servers.map(({ base }) => send(base, '/api/v1/news', 'GET', headers)))
      expect(answers[0]).toEqual(answers[1])
    }
    // A comparison the fast path never took part in would prove nothing.
    expect(fast.harness.app.fastPath.answered - answeredBefore).toBeGreaterThan(sent / 10)
    expect([...statuses].sort()).toEqual([200, 304, 429])
    expect(routes).toContain('/api/admin/v1/clubs/:club/planner')
    expect(files.length).toBeGreaterThan(4)
    expect(plain.harness.app.fastPath.answered).toBe(0)
    // Three times as many misses as a thread has slots of shared memory to hand its pages over in,
    // one after another (a second apart, for the bucket): each answer gives its slot back.
    const all = `Bearer ${keys['fast-a:all'] ?? ''}`
    for (let offset = 0; offset < 3 * BODY_SLOTS; offset++) {
      fast.harness.clock.advance(1_000)
      const answer = await send(fast.base, `/api/v1/competition-results?limit=3&offset=${String(offset)}`, 'GET',
        { authorization: all })
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toMatchObject({ meta: { limit: 3, offset } })
    }
    // On SQLite the misses were read on the threads, none failed there, and none came as text.
    const readers = fast.harness.context.readers
    expect(readers === undefined ? undefined : { ...readers.counts, read: readers.counts.read > 2 * BODY_SLOTS })
      .toEqual(dialect === 'sqlite' ? { read: true, asText: 0, failed: 0 } : undefined)
  }, 240_000)
})
