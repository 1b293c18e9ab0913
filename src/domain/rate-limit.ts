/**
 * The authenticated endpoints' limits (contract §8), pure: a token bucket (capacity, continuous
 * refill) and a count of admitted requests per UTC day. A request is admitted only when a whole
 * token is there and the day's quota is not used up; an admitted request takes one of each.
 * The Redis store runs the same arithmetic in Lua (src/limits/redis-store.ts).
 */
import { tokensAt } from './token-bucket.js'

export interface KeyLimits {
  readonly capacity: number
  readonly refillPerSecond: number
  readonly dailyQuota: number
}

export interface KeyState {
  readonly tokens: number
  readonly updatedAt: number
  /** UTC day number (days since the epoch) that `used` counts. */
  readonly day: number
  readonly used: number
}

export type Refusal = 'burst' | 'daily'

/** The outcome of one request, with the state after it; enough to write every header. */
export interface Decision {
  readonly admitted: boolean
  readonly refusal?: Refusal
  readonly tokens: number
  readonly used: number
  readonly now: number
  readonly limits: KeyLimits
}

const DAY = 86_400_000

export function utcDay(now: number): number {
  return Math.floor(now / DAY)
}

export function decide(state: KeyState | undefined, limits: KeyLimits, now: number): { decision: Decision, state: KeyState } {
  const day = utcDay(now)
  let tokens = tokensAt(state, limits, now)
  let used = state?.day === day ? state.used : 0
  let refusal: Refusal | undefined
  if (used >= limits.dailyQuota) refusal = 'daily'
  else if (tokens < 1) refusal = 'burst'
  else {
    tokens -= 1
    used += 1
  }
  // Two literal shapes rather than a spread: this runs for every authenticated request.
  const decision: Decision = refusal === undefined
    ? { admitted: true, tokens, used, now, limits }
    : { admitted: false, refusal, tokens, used, now, limits }
  return { decision, state: { tokens, updatedAt: now, day, used } }
}

/** Seconds a refused request should wait: to the next whole token, or to 00:00 UTC when the day's quota is the reason. */
export function retryAfterSeconds(decision: Decision): number {
  if (decision.refusal === 'daily') return Math.ceil(((utcDay(decision.now) + 1) * DAY - decision.now) / 1000)
  return Math.max(1, Math.ceil((1 - decision.tokens) / decision.limits.refillPerSecond))
}

/**
 * The contract's X-RateLimit-* headers, and the IETF draft's RateLimit-Policy and RateLimit, as a
 * flat list of names and values (what `writeHead` takes); Retry-After too when refused.
 */
export function rateLimitHeaderList(decision: Decision): string[] {
  const { limits, now } = decision
  const fullAt = now + ((limits.capacity - decision.tokens) / limits.refillPerSecond) * 1000
  const dayReset = (utcDay(now) + 1) * DAY
  const remaining = String(Math.floor(decision.tokens))
  const dayRemaining = String(Math.max(0, limits.dailyQuota - decision.used))
  const capacity = String(limits.capacity)
  const quota = String(limits.dailyQuota)
  const list = [
    'x-ratelimit-limit', capacity,
    'x-ratelimit-remaining', remaining,
    'x-ratelimit-reset', String(Math.ceil(fullAt / 1000)),
    'x-ratelimit-day-limit', quota,
    'x-ratelimit-day-remaining', dayRemaining,
    'x-ratelimit-day-reset', String(dayReset / 1000),
    // Joined, not concatenated: flat strings, which Node's header check reads without flattening them first.
    'ratelimit-policy', ['"burst";q=', capacity, ';w=', String(Math.ceil(limits.capacity / limits.refillPerSecond)),
      ', "daily";q=', quota, ';w=86400'].join(''),
    'ratelimit', ['"burst";r=', remaining, ';t=', String(Math.max(0, Math.ceil((fullAt - now) / 1000))), ', "daily";r=',
      dayRemaining, ';t=', String(Math.ceil((dayReset - now) / 1000))].join(''),
  ]
  if (!decision.admitted) list.push('retry-after', String(retryAfterSeconds(decision)))
  return list
}

/** The same headers by name. */
export function rateLimitHeaders(decision: Decision): Record<string, string> {
  const list = rateLimitHeaderList(decision)
  const headers: Record<string, string> = {}
  for (let i = 0; i < list.length; i += 2) headers[list[i] ?? ''] = list[i + 1] ?? ''
  return headers
}
