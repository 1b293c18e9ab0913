/**
 * Budgets in Redis, shared by every instance. One Lua script per request refills, checks and
 * consumes the bucket and the day's count of a key atomically, on the Redis server's clock (TIME),
 * so instances with skewed clocks still share one exact budget. Each key expires once it carries
 * no information (bucket full again and the day over). The client fails fast: no offline queue,
 * short timeouts; a failure becomes LimiterUnavailable (503) and the client reconnects by itself.
 */
import { Redis } from 'ioredis'
import type { Clock } from '../clock.js'
import type { Decision, KeyLimits, Refusal } from '../domain/rate-limit.js'
import { LimiterUnavailable } from './store.js'
import type { LimiterStore } from './store.js'

const TAKE = `
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local quota = tonumber(ARGV[3])
local now
if ARGV[4] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[4])
end
local day = math.floor(now / 86400000)
local h = redis.call('HMGET', KEYS[1], 'tokens', 'ts', 'day', 'used')
local tokens = tonumber(h[1])
local ts = tonumber(h[2])
local used = tonumber(h[4])
if tokens == nil then tokens = capacity; ts = now end
if tonumber(h[3]) ~= day or used == nil then used = 0 end
tokens = math.min(capacity, tokens + math.max(0, now - ts) * per_ms)
local refusal = ''
if used >= quota then refusal = 'daily'
elseif tokens < 1 then refusal = 'burst'
else tokens = tokens - 1; used = used + 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'ts', now, 'day', day, 'used', used)
local full_at = now + math.ceil((capacity - tokens) / per_ms)
-- Relative, so that it is right whichever clock decided: until the bucket is full and the day over.
redis.call('PEXPIRE', KEYS[1], math.max(full_at, (day + 1) * 86400000) - now + 60000)
return { refusal, string.format('%.17g', tokens), used, now }
`

const REFUND = `
local h = redis.call('HMGET', KEYS[1], 'day', 'used')
if tonumber(h[1]) == tonumber(ARGV[1]) and tonumber(h[2]) ~= nil and tonumber(h[2]) > 0 then
  redis.call('HINCRBY', KEYS[1], 'used', -1)
end
return 0
`

type TakeReply = [string, string, number, number]

interface ScriptedRedis extends Redis {
  clubPlatformTake(key: string, capacity: number, perMs: string, quota: number, now: string): Promise<TakeReply>
  clubPlatformRefund(key: string, day: number): Promise<number>
}

export interface RedisStoreOptions {
  readonly url: string
  readonly keyPrefix: string
  /** Tests pass their clock; in service the script reads the Redis server's. */
  readonly clock?: Clock
  readonly timeoutMs?: number
  /** Connect on first use rather than at once. */
  readonly lazy?: boolean
}

export class RedisLimiterStore implements LimiterStore {
  readonly kind = 'redis'
  private readonly redis: ScriptedRedis
  private readonly timeoutMs: number
  private connecting: Promise<void> | undefined

  constructor(private readonly options: RedisStoreOptions) {
    const timeout = options.timeoutMs ?? 1_000
    this.timeoutMs = timeout
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: timeout,
      commandTimeout: timeout,
      // Reconnect forever in the background; requests meanwhile fail at once.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      lazyConnect: options.lazy === true,
    }) as ScriptedRedis
    // Connection errors surface per command; the event must still be handled.
    this.redis.on('error', () => undefined)
    this.redis.defineCommand('clubPlatformTake', { numberOfKeys: 1, lua: TAKE })
    this.redis.defineCommand('clubPlatformRefund', { numberOfKeys: 1, lua: REFUND })
  }

  /**
   * The first connection: requests that arrive while the client is still connecting wait for it,
   * at most the timeout. Later outages fail at once (the client reconnects in the background).
   */
  private firstConnection(): Promise<void> {
    this.connecting ??= new Promise<void>((resolve, reject) => {
      if (this.redis.status === 'ready') {
        resolve()
        return
      }
      if (this.redis.status === 'wait') void this.redis.connect().catch(() => undefined)
      const timer = setTimeout(() => {
        this.connecting = undefined
        reject(new Error(`Redis did not answer within ${String(this.timeoutMs)} ms`))
      }, this.timeoutMs)
      this.redis.once('ready', () => {
        clearTimeout(timer)
        resolve()
      })
    })
    return this.connecting
  }

  async consume(keyId: string, limits: KeyLimits): Promise<Decision> {
    let reply: TakeReply
    try {
      await this.firstConnection()
      reply = await this.redis.clubPlatformTake(this.key(keyId), limits.capacity, String(limits.refillPerSecond / 1000),
        limits.dailyQuota, this.options.clock === undefined ? '' : String(this.options.clock.now()))
    } catch (error) {
      throw new LimiterUnavailable(error)
    }
    const [refusal, tokens, used, now] = reply
    return {
      admitted: refusal === '',
      ...(refusal === '' ? {} : { refusal: refusal as Refusal }),
      tokens: Number(tokens),
      used,
      now,
      limits,
    }
  }

  async refundDay(keyId: string, admittedAt: number): Promise<void> {
    try {
      await this.redis.clubPlatformRefund(this.key(keyId), Math.floor(admittedAt / 86_400_000))
    } catch {
      // Best effort: the unit stays spent.
    }
  }

  async usedToday(keyId: string, now: number): Promise<number> {
    const [day, used] = await this.redis.hmget(this.key(keyId), 'day', 'used')
    return day !== null && Number(day) === Math.floor(now / 86_400_000) ? Number(used ?? 0) : 0
  }

  async ping(): Promise<void> {
    await this.firstConnection()
    await this.redis.ping()
  }

  async close(): Promise<void> {
    this.redis.disconnect()
    return Promise.resolve()
  }

  private key(keyId: string): string {
    return `${this.options.keyPrefix}ratelimit:{${keyId}}`
  }
}
