/**
 * Per-client token buckets in this process, for the public endpoints. Memory is bounded: buckets
 * that have refilled are dropped when the map is swept, and past `maxClients` the oldest entry
 * goes first (that client merely gets a fresh bucket).
 */
import type { IncomingMessage } from 'node:http'
import type { onRequestHookHandler } from 'fastify'
import type { Clock } from '../clock.js'
import { RateLimited } from '../domain/errors.js'
import { take, tokensAt } from '../domain/token-bucket.js'
import type { BucketSettings, BucketState } from '../domain/token-bucket.js'

const CHARGED = Symbol('charged to its client')
interface ChargedRequest extends IncomingMessage {
  [CHARGED]?: RateLimited | null
}

export class ClientRateLimiter {
  private readonly buckets = new Map<string, BucketState>()
  private takesSinceSweep = 0

  constructor(
    private readonly settings: BucketSettings,
    private readonly clock: Clock,
    private readonly maxClients = 100_000,
  ) {}

  /** Throws RateLimited when the client has no token left. */
  consume(client: string): void {
    const now = this.clock.now()
    const result = take(this.buckets.get(client), this.settings, now)
    this.buckets.delete(client)
    this.buckets.set(client, result.state)
    if (++this.takesSinceSweep >= 1000 || this.buckets.size > this.maxClients) this.sweep(now)
    if (!result.admitted) throw new RateLimited(Math.ceil(result.retryAfterMs / 1000))
  }

  get size(): number {
    return this.buckets.size
  }

  private sweep(now: number): void {
    this.takesSinceSweep = 0
    for (const [client, state] of this.buckets) {
      if (tokensAt(state, this.settings, now) >= this.settings.capacity) this.buckets.delete(client)
    }
    for (const client of this.buckets.keys()) {
      if (this.buckets.size <= this.maxClients) break
      this.buckets.delete(client)
    }
  }

  /**
   * Charges a request before routing (src/speed/fast-path.ts): null when admitted, the refusal when
   * not. A request handed on to the route afterwards carries the outcome, and the hook does not
   * charge it again.
   */
  chargeBeforeRouting(raw: IncomingMessage, client: string): RateLimited | null {
    let outcome: RateLimited | null = null
    try {
      this.consume(client)
    } catch (error) {
      outcome = error as RateLimited
    }
    (raw as ChargedRequest)[CHARGED] = outcome
    return outcome
  }

  /** An onRequest hook that charges the request to its client IP (behind TRUST_PROXY, the forwarded one). */
  hook(): onRequestHookHandler {
    return (request, _reply, done) => {
      const charged = (request.raw as ChargedRequest)[CHARGED]
      if (charged === null) {
        done()
        return
      }
      if (charged !== undefined) {
        done(charged)
        return
      }
      try {
        this.consume(request.ip)
        done()
      } catch (error) {
        done(error as Error)
      }
    }
  }
}
