/**
 * The rate arithmetic at rates other than the contract's 1 token per second, with exact header
 * values: a key's own limits on both limiter stores, and the per-client buckets of the public
 * endpoints at their defaults. At 1 token/s dividing and multiplying by the rate agree; here they do not.
 */
import { afterAll, expect, it } from 'vitest'
import { retryAfterSeconds, rateLimitHeaders, decide } from '../../src/domain/rate-limit.js'
import { take } from '../../src/domain/token-bucket.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { START, useHarness } from '../helpers/harness.js'
import { describeEachStore } from '../helpers/limiters.js'

const SECOND = START / 1000

it('token bucket: refill, retry and full time follow the rate (10 and 120 per minute)', () => {
  const slow = { capacity: 2, refillPerSecond: 10 / 60 }
  let result = take(undefined, slow, START)
  expect(result).toMatchObject({ admitted: true, remaining: 1, retryAfterMs: 0, fullInMs: 6_000 })
  result = take(result.state, slow, START)
  expect(result).toMatchObject({ admitted: true, remaining: 0, retryAfterMs: 6_000, fullInMs: 12_000 })
  expect(take(result.state, slow, START + 3_000)).toMatchObject({ admitted: false, retryAfterMs: 3_000 })
  expect(take(result.state, slow, START + 6_000)).toMatchObject({ admitted: true, remaining: 0 })
  const fast = { capacity: 3, refillPerSecond: 2 }
  result = take(undefined, fast, START)
  expect(result).toMatchObject({ remaining: 2, fullInMs: 500 })
  result = take(take(result.state, fast, START).state, fast, START)
  expect(result).toMatchObject({ admitted: true, remaining: 0, retryAfterMs: 500, fullInMs: 1_500 })
})

it('key decisions: Retry-After is at least 1 s and follows the rate', () => {
  const limits = { capacity: 1, refillPerSecond: 10 / 60, dailyQuota: 100 }
  const first = decide(undefined, limits, START)
  const refused = decide(first.state, limits, START).decision
  expect(retryAfterSeconds(refused)).toBe(6)
  expect(retryAfterSeconds(decide(first.state, limits, START + 5_500).decision)).toBe(1)
  const fast = { capacity: 1, refillPerSecond: 4, dailyQuota: 100 }
  const taken = decide(undefined, fast, START)
  // A quarter of a second to the next token: still "1", never "0".
  expect(retryAfterSeconds(decide(taken.state, fast, START).decision)).toBe(1)
  expect(rateLimitHeaders(decide(taken.state, fast, START).decision)).toMatchObject({ 'retry-after': '1', 'x-ratelimit-reset': String(SECOND + 1) })
})

describeEachStore('a key\'s own rate over HTTP', (dialect, setup) => {
  const harness = useHarness(dialect, undefined, { env: setup.env, redisOnHarnessClock: true })
  afterAll(() => setup.cleanUp())

  it('at 10 per minute, capacity 2: exact X-RateLimit-*, RateLimit and Retry-After', async () => {
    const h = harness.current
    h.clock.set(START)
    const club = await h.createClub('ten-a-minute')
    const { key } = await createApiKey(h.context.db, h.clock, { clubId: club.id, name: 'slow', scopes: ['read:groups'], expiresAt: null,
      limits: { capacity: 2, perMinute: 10, dailyQuota: 1_000 } })
    const call = () => h.request({ url: '/api/v1/groups', key })
    const first = await call()
    expect(first.status).toBe(200)
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(SECOND + 6),
      'ratelimit-policy': '"burst";q=2;w=12, "daily";q=1000;w=86400' })
    expect(first.headers.ratelimit).toMatch(/^"burst";r=1;t=6, "daily";r=999;t=\d+$/)
    const second = await call()
    expect(second.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(SECOND + 12) })
    expect(second.headers.ratelimit).toMatch(/^"burst";r=0;t=12,/)
    const refused = await call()
    expect(refused.status).toBe(429)
    expect(refused.headers).toMatchObject({ 'retry-after': '6', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(SECOND + 12) })
    h.clock.advance(5_999)
    const almost = await call()
    expect(almost.status).toBe(429)
    expect(almost.headers['retry-after']).toBe('1')
    h.clock.advance(1)
    expect((await call()).status).toBe(200)
  })

  it('at 120 per minute, capacity 3: a token every half second', async () => {
    const h = harness.current
    h.clock.set(START + 60_000)
    const club = await h.createClub('two-a-second')
    const { key } = await createApiKey(h.context.db, h.clock, { clubId: club.id, name: 'fast', scopes: ['read:groups'], expiresAt: null,
      limits: { capacity: 3, perMinute: 120, dailyQuota: 1_000 } })
    const call = () => h.request({ url: '/api/v1/groups', key })
    const first = await call()
    expect(first.headers).toMatchObject({ 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': String(SECOND + 60 + 1),
      'ratelimit-policy': '"burst";q=3;w=2, "daily";q=1000;w=86400' })
    await call()
    await call()
    const refused = await call()
    expect(refused.status).toBe(429)
    expect(refused.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-reset': String(SECOND + 60 + 2) })
    h.clock.advance(499)
    expect((await call()).status).toBe(429)
    h.clock.advance(1)
    expect((await call()).status).toBe(200)
  })
})

describeEachStore('the public endpoints\' per-client buckets at their defaults', (dialect, setup) => {
  const harness = useHarness(dialect, async (h) => {
    await h.createClub('public-limits')
  }, { env: { ...setup.env, BOOKING_RATE_CAPACITY: '5', BOOKING_RATE_PER_MINUTE: '10', PUBLIC_RATE_CAPACITY: '60',
    PUBLIC_RATE_PER_MINUTE: '60' } })
  afterAll(() => setup.cleanUp())

  it('booking: 5 requests, then Retry-After 6 s (10 per minute), exactly', async () => {
    const h = harness.current
    const book = () => h.request({ method: 'POST', url: '/api/v1/public/public-limits/courts/book', payload: {} })
    for (let i = 0; i < 5; i++) expect((await book()).status).toBe(400)
    const refused = await book()
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('6')
    h.clock.advance(5_001)
    expect((await book()).headers['retry-after']).toBe('1')
    h.clock.advance(999)
    expect((await book()).status).toBe(400)
  })

  it('listing: 60 requests, then Retry-After 1 s (60 per minute)', async () => {
    const h = harness.current
    const list = () => h.request({ url: '/api/v1/public/public-limits/courts?date=2026-06-16' })
    for (let i = 0; i < 60; i++) expect((await list()).status).toBe(200)
    const refused = await list()
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('1')
  })
})
