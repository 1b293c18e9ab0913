import { afterAll, expect, it } from 'vitest'
import { SCOPES } from '../../src/domain/scopes.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { START, useHarness } from '../helpers/harness.js'
import type { ApiResponse, Harness } from '../helpers/harness.js'
import { describeEachStore } from '../helpers/limiters.js'

const seconds = (ms: number) => Math.ceil(ms / 1000)
const MIDNIGHT_AFTER_START = Date.parse('2026-06-16T00:00:00Z')

describeEachStore('per-key rate limits', (dialect, setup) => {
  let clubId = ''
  let otherClubId = ''
  const harness = useHarness(dialect, async (h) => {
    clubId = (await h.createClub('limits')).id
    otherClubId = (await h.createClub('other')).id
  }, { env: { ...setup.env, RATE_LIMIT_CAPACITY: '60', RATE_LIMIT_PER_MINUTE: '60', DAILY_QUOTA: '10000' }, redisOnHarnessClock: true })
  afterAll(() => setup.cleanUp())

  const freshKey = async (limits?: { capacity?: number, perMinute?: number, dailyQuota?: number }, club = clubId) =>
    (await createApiKey(harness.current.context.db, harness.current.clock, { clubId: club, name: 'limits', scopes: ['read:groups'],
      expiresAt: null, ...(limits === undefined ? {} : { limits }) })).key
  const get = (key: string, query = '') => harness.current.request({ url: `/api/v1/groups${query}`, key })
  const header = (response: ApiResponse, name: string) => Number(response.headers[name])
  const at = (h: Harness, ms: number) => {
    h.clock.set(ms)
  }

  it('sends the contract\'s headers, and the IETF draft\'s, on a 200', async () => {
    const h = harness.current
    at(h, START)
    const response = await get(await freshKey())
    expect(response.status).toBe(200)
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(seconds(START + 1000)),
      'x-ratelimit-day-limit': '10000', 'x-ratelimit-day-remaining': '9999', 'x-ratelimit-day-reset': String(MIDNIGHT_AFTER_START / 1000),
      'ratelimit-policy': '"burst";q=60;w=60, "daily";q=10000;w=86400',
      'ratelimit': `"burst";r=59;t=1, "daily";r=9999;t=${String(seconds(MIDNIGHT_AFTER_START - START))}`,
    })
    expect(response.headers['retry-after']).toBeUndefined()
  })

  it('admits exactly 60 of 200 simultaneous requests with a fresh key', async () => {
    const h = harness.current
    at(h, START)
    const key = await freshKey()
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(key)))
    expect(responses.filter((r) => r.status === 200)).toHaveLength(60)
    const refused = responses.filter((r) => r.status === 429)
    expect(refused).toHaveLength(140)
    for (const response of refused) {
      expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/rate-limited')
      expect(response.headers['retry-after']).toBe('1')
      expect(response.headers['x-ratelimit-remaining']).toBe('0')
    }
  })

  it('refills continuously: one token after 1 s, exact headers at each step', async () => {
    const h = harness.current
    at(h, START)
    const key = await freshKey()
    for (let i = 0; i < 60; i++) await get(key)
    const empty = await get(key)
    expect(empty.status).toBe(429)
    expect(empty.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(seconds(START + 60_000)) })
    at(h, START + 1_000)
    const one = await get(key)
    expect(one.status).toBe(200)
    expect(one.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(seconds(START + 61_000)) })
    const none = await get(key)
    expect(none.status).toBe(429)
    expect(none.headers['retry-after']).toBe('1')
    at(h, START + 1_400)
    const partial = await get(key)
    expect(partial.status).toBe(429)
    expect(partial.headers['retry-after']).toBe('1')
    expect(header(partial, 'x-ratelimit-reset')).toBe(seconds(START + 61_000))
  })

  it('admits ten after 10.5 s, keeping the half token', async () => {
    const h = harness.current
    at(h, START)
    const key = await freshKey()
    for (let i = 0; i < 60; i++) await get(key)
    at(h, START + 10_500)
    const statuses: number[] = []
    let last: ApiResponse | undefined
    for (let i = 0; i < 11; i++) {
      last = await get(key)
      statuses.push(last.status)
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429])
    expect(last?.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(seconds(START + 10_500 + 59_500)) })
    at(h, START + 11_000)
    expect((await get(key)).status).toBe(200)
  })

  it('charges a 400 after authorisation, but not a 401, 403 or 429', async () => {
    const h = harness.current
    at(h, START)
    const key = await freshKey({ capacity: 3, dailyQuota: 5 })
    const first = await get(key)
    expect(first.headers['x-ratelimit-day-remaining']).toBe('4')
    const bad = await get(key, '?limit=0')
    expect(bad.status).toBe(400)
    expect(bad.headers).toMatchObject({ 'x-ratelimit-remaining': '1', 'x-ratelimit-day-remaining': '3' })
    expect((await harness.current.request({ url: '/api/v1/groups', key: `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` })).status)
      .toBe(401)
    const eventsOnly = await harness.current.request({ url: '/api/v1/events', key })
    expect(eventsOnly.status).toBe(403)
    expect(eventsOnly.headers['x-ratelimit-remaining']).toBeUndefined()
    expect((await get(key)).headers['x-ratelimit-day-remaining']).toBe('2')
    const burst = await get(key)
    expect(burst.status).toBe(429)
    expect(burst.headers['x-ratelimit-day-remaining']).toBe('2')
  })

  it('stops at the daily quota until 00:00 UTC, with Retry-After to midnight', async () => {
    const h = harness.current
    at(h, START)
    const key = await freshKey({ dailyQuota: 5 })
    for (let i = 0; i < 5; i++) expect((await get(key)).status).toBe(200)
    const spent = await get(key)
    expect(spent.status).toBe(429)
    expect(spent.json<{ type: string }>().type).toBe('/api/v1/problems/daily-quota-exhausted')
    expect(spent.headers).toMatchObject({ 'retry-after': String(seconds(MIDNIGHT_AFTER_START - START)), 'x-ratelimit-day-remaining': '0',
      'x-ratelimit-day-reset': String(MIDNIGHT_AFTER_START / 1000) })
    at(h, MIDNIGHT_AFTER_START - 1)
    expect((await get(key)).status).toBe(429)
    at(h, MIDNIGHT_AFTER_START)
    const renewed = await get(key)
    expect(renewed.status).toBe(200)
    expect(renewed.headers['x-ratelimit-day-remaining']).toBe('4')
  })

  it('gives each key, of one club or of two, its own budget; a key may have its own limits', async () => {
    const h = harness.current
    at(h, START)
    const a = await freshKey()
    const b = await freshKey()
    const c = await freshKey(undefined, otherClubId)
    for (let i = 0; i < 60; i++) await get(a)
    expect((await get(a)).status).toBe(429)
    expect((await get(b)).headers['x-ratelimit-remaining']).toBe('59')
    expect((await get(c)).headers['x-ratelimit-remaining']).toBe('59')
    const big = await get(await freshKey({ capacity: 600, perMinute: 600, dailyQuota: 50_000 }))
    expect(big.headers).toMatchObject({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-day-limit': '50000',
      'ratelimit-policy': '"burst";q=600;w=60, "daily";q=50000;w=86400' })
  })

  it('does not rate-limit by anything but the key', async () => {
    const h = harness.current
    at(h, START)
    const key = (await createApiKey(h.context.db, h.clock, { clubId, name: 'all', scopes: SCOPES, expiresAt: null })).key
    // One budget across every endpoint of the key.
    for (const path of ['/api/v1/groups', '/api/v1/events', '/api/v1/news']) {
      await harness.current.request({ url: path, key })
    }
    expect((await harness.current.request({ url: '/api/v1/competition-results', key })).headers['x-ratelimit-remaining']).toBe('56')
  })
})
