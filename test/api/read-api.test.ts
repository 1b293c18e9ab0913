import { beforeAll, describe, expect, it } from 'vitest'
import { revokeApiKey } from '../../src/db/repositories/api-keys.js'
import { generateApiKey } from '../../src/domain/api-key.js'
import { SCOPES } from '../../src/domain/scopes.js'
import type { Scope } from '../../src/domain/scopes.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { clubFixture, expectedListings } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import type { ApiResponse, Harness } from '../helpers/harness.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'

interface Envelope { data: { id: string }[], meta: { limit: number, offset: number, total: number } }

describeEachDatabase('read API', (dialect) => {
  const fixture = clubFixture('alpha', START, 2)
  const expected = expectedListings(fixture, START)
  let key = ''
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    const club = await h.createClub('alpha')
    clubId = club.id
    await importClubData(h.context.db, h.clock, club.id, fixture)
    key = (await h.createKey(club.id)).key
  })
  const get = (url: string, withKey = key, headers: Record<string, string> = {}) =>
    harness.current.request({ url, key: withKey, headers })

  describe.each(LIST_ENDPOINTS)('$path', ({ path, listing }) => {
    it('returns the first page in the envelope with the default limit', async () => {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      const body = response.json<Envelope>()
      expect(body.meta).toEqual({ limit: 50, offset: 0, total: expected[listing].length })
      expect(body.data).toEqual(expected[listing].slice(0, 50))
    })

    it.each([1, 2, 3, 7])('walks every page of %i and sees each record exactly once, in order', async (limit) => {
      const seen: unknown[] = []
      for (let offset = 0; ; offset += limit) {
        const body = (await get(`${path}?limit=${limit}&offset=${offset}`)).json<Envelope>()
        expect(body.meta).toEqual({ limit, offset, total: expected[listing].length })
        if (body.data.length === 0) break
        expect(body.data.length).toBeLessThanOrEqual(limit)
        seen.push(...body.data)
      }
      expect(seen).toEqual(expected[listing])
    })

    it('accepts the boundaries of limit and offset', async () => {
      expect((await get(`${path}?limit=100&offset=0`)).json<Envelope>().data).toEqual(expected[listing])
      const far = (await get(`${path}?limit=1&offset=10000`)).json<Envelope>()
      expect(far).toEqual({ data: [], meta: { limit: 1, offset: 10000, total: expected[listing].length } })
    })

    it('answers HEAD like GET, without a body', async () => {
      const response = await harness.current.request({ method: 'HEAD', url: path, key })
      expect(response.status).toBe(200)
      expect(response.body).toBe('')
    })

    it('sends no CORS headers, even to a browser origin', async () => {
      const response = await get(path, key, { origin: 'https://club.example' })
      expect(response.status).toBe(200)
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    })
  })

  describe('record filters', () => {
    it('lists only active groups', async () => {
      const names = (await get('/api/v1/groups?limit=100')).json<{ data: { name: string }[] }>().data.map((g) => g.name)
      expect(names).not.toContain('Aardvark (inactive)')
      expect(names).not.toContain('Zz inactive')
    })

    it('lists only events released for public booking and not assigned to a group', async () => {
      const titles = (await get('/api/v1/events?limit=100')).json<{ data: { title: string }[] }>().data.map((e) => e.title)
      expect(titles).not.toContain('Grouped')
      expect(titles).not.toContain('Not released')
      expect(titles).toContain('Given with an offset')
    })

    it('lists news published up to now, not drafts; a scheduled item appears when its time comes', async () => {
      const titles = async () => (await get('/api/v1/news?limit=100')).json<{ data: { title: string }[] }>().data.map((n) => n.title)
      expect(await titles()).toContain('Published exactly now')
      expect(await titles()).not.toContain('Scheduled')
      expect(await titles()).not.toContain('Draft')
      harness.current.clock.advance(60_000)
      try {
        expect(await titles()).toContain('Scheduled')
        expect(await titles()).not.toContain('Draft')
      } finally {
        harness.current.clock.set(START)
      }
    })

    it('keeps nullable fields present as null and omits unknown optional ones', async () => {
      const groups = (await get('/api/v1/groups?limit=100')).json<{ data: Record<string, unknown>[] }>().data
      expect(groups.some((g) => g.age_min === null && g.level === null && g.description === null)).toBe(true)
      expect(groups.every((g) => Object.keys(g).length === 7)).toBe(true)
      const news = (await get('/api/v1/news?limit=100')).json<{ data: Record<string, unknown>[] }>().data
      expect(news.some((n) => !('created_by' in n))).toBe(true)
      expect(news.every((n) => n.created_by !== null)).toBe(true)
      const results = (await get('/api/v1/competition-results?limit=100')).json<{ data: Record<string, unknown>[] }>().data
      expect(results.some((r) => r.points === null && r.competition_date === null && r.discipline === null)).toBe(true)
    })

    it('writes instants as RFC 3339 UTC and dates as YYYY-MM-DD', async () => {
      const events = (await get('/api/v1/events?limit=100')).json<{ data: { starts_at: string, title: string }[] }>().data
      expect(events.find((e) => e.title === 'Given with an offset')?.starts_at).toBe('2026-06-20T16:00:00.000Z')
      for (const e of events) expect(e.starts_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      const results = (await get('/api/v1/competition-results?limit=100')).json<{ data: { competition_date: string | null }[] }>().data
      for (const r of results) if (r.competition_date !== null) expect(r.competition_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    })
  })

  describe('invalid query parameters', () => {
    const cases: [string, string][] = [
      ['limit=abc', 'limit'], ['limit=1.5', 'limit'], ['limit=1.0', 'limit'], ['limit=', 'limit'], ['limit=-1', 'limit'],
      ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=1e1', 'limit'], ['limit=0x10', 'limit'], ['limit=%201', 'limit'],
      ['limit=+5', 'limit'], ['limit=99999999999999999999', 'limit'], ['offset=-1', 'offset'], ['offset=10001', 'offset'],
      ['offset=1.0', 'offset'], ['offset=', 'offset'], ['limit=1&limit=2', 'limit'], ['offset=0&offset=0', 'offset'],
      ['foo=1', 'foo'], ['club_id=x', 'club_id'], ['limit=5&club=beta', 'club'], ['LIMIT=5', 'LIMIT'],
      ['limit[]=5', 'limit[]'],
    ]
    it.each(cases)('?%s is a 400 naming "%s"', async (query, parameter) => {
      const response = await get(`/api/v1/groups?${query}`)
      expect(response.status).toBe(400)
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      const problem = response.json<{ type: string, detail: string, invalid_params: { name: string }[] }>()
      expect(problem.type).toBe('/api/v1/problems/validation-error')
      expect(problem.detail).toContain(`"${parameter}"`)
      expect(problem.invalid_params[0]?.name).toBe(parameter)
    })

    it('checks the key before the query: a bad key with a bad query is a 401', async () => {
      expect((await get('/api/v1/groups?limit=abc', 'nope')).status).toBe(401)
    })
  })

  describe('authentication', () => {
    const expectUnauthorised = (response: ApiResponse, detail: RegExp) => {
      expect(response.status).toBe(401)
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="club-platform"/)
      const problem = response.json<{ type: string, detail: string }>()
      expect(problem.type).toBe('/api/v1/problems/invalid-api-key')
      expect(problem.detail).toMatch(detail)
    }

    it('refuses a request without Authorization', async () => {
      expectUnauthorised(await harness.current.request({ url: '/api/v1/groups' }), /needs an API key/)
    })

    it.each([
      ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['no token', 'Bearer'],
      ['the wrong prefix', 'Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789AB'],
      ['two tokens', 'Bearer cpk_a cpk_b'],
    ])('refuses %s as malformed, without touching the database', async (_name, authorization) => {
      harness.current.queries.length = 0
      expectUnauthorised(await harness.current.request({ url: '/api/v1/groups', headers: { authorization } }), /well-formed/)
      expect(harness.current.queries).toEqual([])
    })

    it('refuses a mistyped key by its checksum, without touching the database', async () => {
      const last = key.at(-1) === 'a' ? 'b' : 'a'
      const mistyped = `${key.slice(0, -1)}${last}`
      harness.current.queries.length = 0
      expectUnauthorised(await get('/api/v1/groups', mistyped), /well-formed/)
      const swapped = `${key.slice(0, 10)}${key.charAt(11)}${key.charAt(10)}${key.slice(12)}`
      if (swapped !== key) expectUnauthorised(await get('/api/v1/groups', swapped), /well-formed/)
      expect(harness.current.queries).toEqual([])
    })

    it('refuses a well-formed key that was never issued', async () => {
      expectUnauthorised(await get('/api/v1/groups', generateApiKey()), /not valid/)
    })

    it('refuses an expired key from the instant it expires', async () => {
      const h: Harness = harness.current
      const expiring = await h.createKey(clubId, SCOPES, new Date(START + 60_000).toISOString())
      expect((await get('/api/v1/groups', expiring.key)).status).toBe(200)
      h.clock.set(START + 59_999)
      expect((await get('/api/v1/groups', expiring.key)).status).toBe(200)
      h.clock.set(START + 60_000)
      try {
        expectUnauthorised(await get('/api/v1/groups', expiring.key), /expired/)
      } finally {
        h.clock.set(START)
      }
    })

    it('refuses a key revoked by another process within one second', async () => {
      const h = harness.current
      const revoked = await h.createKey(clubId)
      expect((await get('/api/v1/groups', revoked.key)).status).toBe(200)
      // As the command line would, in another process: straight to the database, no cache to clear.
      await revokeApiKey(h.context.db, revoked.id, h.clock.now())
      h.clock.advance(1_000)
      try {
        expectUnauthorised(await get('/api/v1/groups', revoked.key), /revoked/)
      } finally {
        h.clock.set(START)
      }
    })

    // SQLite reads the committed change of a key; PostgreSQL's arrives as a notification, and there the second above holds.
    it.runIf(dialect === 'sqlite')('refuses a key revoked by another process from the next request on', async () => {
      const h = harness.current
      const revoked = await h.createKey(clubId)
      h.clock.advance(5_000)
      expect((await get('/api/v1/groups', revoked.key)).status).toBe(200)
      await revokeApiKey(h.context.db, revoked.id, h.clock.now())
      // PostgreSQL delivers the change as a notification: wait for those already sent, not for the clock.
      await h.context.changes.settle()
      try {
        expectUnauthorised(await get('/api/v1/groups', revoked.key), /revoked/)
      } finally {
        h.clock.set(START)
      }
    })

    it.runIf(dialect === 'sqlite')('reads a key in steady use once, however long it is used, while no key changes', async () => {
      const h = harness.current
      const steady = await h.createKey(clubId)
      await h.context.changes.settle()
      expect((await get('/api/v1/groups', steady.key)).status).toBe(200)
      await h.context.apiKeys.flush()
      await h.context.changes.settle()
      h.queries.length = 0
      try {
        // Each step is past the touch interval: last_used_at is written, and that write is no change of the key.
        for (let step = 1; step <= 3; step++) {
          h.clock.advance(61_000)
          expect((await get('/api/v1/groups', steady.key)).status).toBe(200)
          await h.context.apiKeys.flush()
          await h.context.changes.settle()
        }
        expect(h.queries.filter((sql) => /^update "api_keys"/i.test(sql))).toHaveLength(3)
        expect(h.queries.filter((sql) => /^select .* from "api_keys"/i.test(sql))).toHaveLength(0)
        // Any change of a key, here a new one, makes every key be read again.
        await h.createKey(clubId)
        await h.context.changes.settle()
        expect((await get('/api/v1/groups', steady.key)).status).toBe(200)
        expect(h.queries.filter((sql) => /^select .* from "api_keys"/i.test(sql))).toHaveLength(1)
      } finally {
        h.clock.set(START)
      }
    })

    it.runIf(dialect === 'postgres')('reads a key again after a second, the bound of a revocation made elsewhere', async () => {
      const h = harness.current
      const key = await h.createKey(clubId)
      expect((await get('/api/v1/groups', key.key)).status).toBe(200)
      h.queries.length = 0
      try {
        h.clock.advance(999)
        expect((await get('/api/v1/groups', key.key)).status).toBe(200)
        expect(h.queries.filter((sql) => /^select .* from "api_keys"/i.test(sql))).toHaveLength(0)
        h.clock.advance(1)
        expect((await get('/api/v1/groups', key.key)).status).toBe(200)
        expect(h.queries.filter((sql) => /^select .* from "api_keys"/i.test(sql))).toHaveLength(1)
      } finally {
        h.clock.set(START)
      }
    })

    it('records last_used_at without a write per request', async () => {
      const h = harness.current
      const fresh = await h.createKey(clubId)
      // Writes still pending from earlier tests would land in the record below.
      await h.context.apiKeys.flush()
      h.queries.length = 0
      await get('/api/v1/groups', fresh.key)
      await h.context.apiKeys.flush()
      await get('/api/v1/groups', fresh.key)
      await get('/api/v1/groups', fresh.key)
      await h.context.apiKeys.flush()
      expect(h.queries.filter((sql) => /^update "api_keys"/i.test(sql))).toHaveLength(1)
      const row = await h.context.db.selectFrom('api_keys').select('last_used_at').where('id', '=', fresh.id).executeTakeFirstOrThrow()
      expect(new Date(row.last_used_at ?? 0).toISOString()).toBe(new Date(START).toISOString())
    })
  })

  describe('scopes', () => {
    const keysByScope = new Map<Scope, string>()
    beforeAll(async () => {
      for (const scope of SCOPES) keysByScope.set(scope, (await harness.current.createKey(clubId, [scope])).key)
    })

    it.each(SCOPES)('a key with only %s reads its endpoint and gets 403 from the others', async (scope) => {
      const scopedKey = keysByScope.get(scope) ?? ''
      for (const endpoint of LIST_ENDPOINTS) {
        const response = await get(endpoint.path, scopedKey)
        if (endpoint.scope === scope) {
          expect(response.status).toBe(200)
        } else {
          expect(response.status).toBe(403)
          expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/insufficient-scope')
          expect(response.headers['www-authenticate']).toContain(`scope="${endpoint.scope}"`)
        }
      }
    })

    it('checks the scope before the query: a 403 beats a 400', async () => {
      expect((await get('/api/v1/events?limit=abc', keysByScope.get('read:groups'))).status).toBe(403)
    })
  })
})
