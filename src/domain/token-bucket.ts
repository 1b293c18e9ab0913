/**
 * Token bucket arithmetic, pure: continuous refill at `refillPerSecond`, at most `capacity`
 * tokens, a request admitted only when a whole token is there. A bucket that has refilled to
 * capacity carries no information, so callers may forget it.
 */
export interface BucketSettings {
  readonly capacity: number
  readonly refillPerSecond: number
}

export interface BucketState {
  readonly tokens: number
  readonly updatedAt: number
}

export interface TakeResult {
  readonly admitted: boolean
  readonly state: BucketState
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** Milliseconds until the next whole token (0 when one is available now). */
  readonly retryAfterMs: number
  /** Milliseconds until the bucket is full again. */
  readonly fullInMs: number
}

export function tokensAt(state: BucketState | undefined, settings: BucketSettings, now: number): number {
  if (state === undefined) return settings.capacity
  const elapsed = Math.max(0, now - state.updatedAt) / 1000
  // Rounded to a nanotoken: refills added up over several requests (1/6 token a second, say) would
  // otherwise fall a rounding error short of the whole token the client was told to wait for.
  return Math.min(settings.capacity, Math.round((state.tokens + elapsed * settings.refillPerSecond) * 1e9) / 1e9)
}

export function take(state: BucketState | undefined, settings: BucketSettings, now: number): TakeResult {
  const available = tokensAt(state, settings, now)
  const admitted = available >= 1
  const tokens = admitted ? available - 1 : available
  const perMs = settings.refillPerSecond / 1000
  return {
    admitted,
    state: { tokens, updatedAt: now },
    remaining: Math.floor(tokens),
    retryAfterMs: tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs),
    fullInMs: Math.ceil((settings.capacity - tokens) / perMs),
  }
}
