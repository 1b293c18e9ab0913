import type { Decision, KeyLimits } from '../domain/rate-limit.js'

/** Where the per-key budgets live. Both stores give the same decisions for the same requests. */
export interface LimiterStore {
  readonly kind: 'memory' | 'redis'
  /** Refills, checks and — when admitted — takes one token and one unit of the day's quota, atomically. */
  consume(keyId: string, limits: KeyLimits): Decision | Promise<Decision>
  /** Gives back the day's unit of an admitted request that the service then failed (503). */
  refundDay(keyId: string, admittedAt: number): Promise<void>
  /** How many requests of the key's daily quota the UTC day of `now` has used. */
  usedToday(keyId: string, now: number): Promise<number>
  /** Resolves when the store can decide now (readiness probe). */
  ping(): Promise<void>
  close(): Promise<void>
}

/** The store could not be asked (Redis down or too slow): the request is answered 503 and costs nothing. */
export class LimiterUnavailable extends Error {
  constructor(cause: unknown) {
    super('The rate limiter is unavailable.', { cause })
    this.name = 'LimiterUnavailable'
  }
}
