import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { parseEnv } from 'node:util'
import fs from 'node:fs'
import type { DatabaseSettings } from './db/settings.js'

/**
 * Mails a process sends at once by default: enough to drain the mails of a thousand bookings a
 * second within seconds over SMTP (docs/performance.md, "The scale run"); a relay that allows a
 * client fewer connections needs MAIL_CONNECTIONS lowered.
 */
export const DEFAULT_MAIL_CONNECTIONS = 16

export type { DatabaseSettings } from './db/settings.js'

export interface TokenBucketSettings {
  readonly capacity: number
  readonly refillPerSecond: number
}

export interface Config {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly database: DatabaseSettings
  /**
   * PostgreSQL's connections in this process (DATABASE_POOL_SIZE, default 10); how long a request
   * waits for one (DATABASE_POOL_WAIT_MS, default 2000); and how many may wait at once
   * (DATABASE_POOL_QUEUE, default 1000). Beyond either bound a request is refused with 503 and
   * Retry-After. Connections per process × processes must stay within the server's max_connections.
   */
  readonly databasePool: { readonly size: number, readonly waitMs: number, readonly queue: number }
  readonly logLevel: LogLevel
  /** Addresses (CIDRs) that may call /healthz, /readyz and /metrics; everyone else gets 404. */
  readonly opsAllow: readonly string[]
  /** How long a stopping server waits for requests in flight before it closes their connections. */
  readonly shutdownGraceMs: number
  /** Server processes on this machine (WORKERS=N or auto); more than one needs PostgreSQL and Redis. */
  readonly workers: number
  /**
   * How far the service's clock is moved from the machine's (CLOCK_OFFSET_SECONDS, default 0): for
   * tests and demonstrations of another day, never for production.
   */
  readonly clockOffsetMs: number
  /** Fastify's trustProxy: false, true, a hop count, or addresses/CIDRs of trusted proxies. */
  readonly trustProxy: boolean | number | string
  /** Bytes of serialised responses kept in memory (RESPONSE_CACHE_MB); 0 turns the cache off. */
  readonly responseCacheBytes: number
  /**
   * Threads that read list pages missing from the response cache (READER_THREADS; SQLite in a file
   * only, see src/speed/list-readers.ts); 0 reads them on the event loop.
   */
  readonly readerThreads: number
  /**
   * The service's public base URL (PUBLIC_URL; default http://HOST:PORT): every link the service
   * hands out (sign-in, invitations) is built from it, never from a request's Host header, and
   * state-changing dashboard requests must come from its origin.
   */
  readonly publicUrl: URL
  readonly dashboard: {
    /** A session ends after this long without a request. */
    readonly sessionIdleMs: number
    /** A session ends this long after sign-in, however active. */
    readonly sessionAbsoluteMs: number
    /** Invitation mails one address may be sent in 24 hours, by all clubs together. */
    readonly invitationsPerAddressPerDay: number
    /** Invitation mails one club may send in 24 hours. */
    readonly invitationsPerClubPerDay: number
    /** Sign-in link mails one address may be sent in 24 hours (besides SIGN_IN_LINKS_PER_HOUR of them in an hour). */
    readonly signInLinksPerAddressPerDay: number
  }
  readonly mail: {
    /** smtp:// or smtps:// URL of the relay; undefined: mails are written as .eml files under DATA_DIR/mail. */
    readonly smtpUrl: string | undefined
    readonly from: string
    /**
     * Mails sent at once (MAIL_CONNECTIONS, default 16): connections to the relay, and the files
     * written side by side without one. A process that dies can send the mails in flight again.
     */
    readonly connections: number
  }
  readonly webhooks: {
    /**
     * WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true: endpoints may use http:// and reach loopback, private and
     * link-local addresses. For tests and closed networks only; off, such URLs are refused.
     */
    readonly allowPrivateNetworks: boolean
    /** How long one delivery may take, connection to last byte read (WEBHOOK_TIMEOUT_SECONDS). */
    readonly timeoutMs: number
    /** Endpoints one club may have. */
    readonly maxEndpointsPerClub: number
    /** Delivery attempts per club per minute, over all its endpoints; more wait for the next minute. */
    readonly deliveriesPerMinute: number
  }
  readonly retention: {
    /** How often retention runs (RETENTION_INTERVAL_MINUTES, default 60), counted from the last finished run of any process. */
    readonly intervalMs: number
    /** Rows removed or anonymised in one transaction (RETENTION_BATCH_SIZE, default 1000); a stop waits for one batch at most. */
    readonly batchSize: number
  }
  readonly booking: {
    /** Open (not yet ended) bookings one e-mail address may hold per club. */
    readonly maxOpenPerEmail: number
    /** Bookings one e-mail address may make per 24 hours, across all clubs. */
    readonly maxPerAddressPerDay: number
  }
  /** The authenticated endpoints' limits per key (contract §8); keys may override them. */
  readonly rateLimit: {
    readonly capacity: number
    readonly perMinute: number
    readonly dailyQuota: number
    /** redis:// or rediss://: one budget shared by every instance; undefined: in this process. */
    readonly redisUrl: string | undefined
    readonly redisKeyPrefix: string
  }
  readonly publicRateLimit: {
    /** Per client IP, for the public courts listing. */
    readonly listing: TokenBucketSettings
    /** Per client IP, for booking requests. */
    readonly booking: TokenBucketSettings
    /** Per client IP, for the dashboard's sign-in requests (links asked for and used, invitations accepted). */
    readonly signIn: TokenBucketSettings
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A setting that cannot be used; the message names the variable and the expected form. */
export class ConfigError extends Error {
  constructor(readonly variable: string, expected: string, value: string) {
    super(`${variable}=${JSON.stringify(redactUrl(value))} is invalid: expected ${expected}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

/**
 * The process environment, over the settings of a `.env` file in the working directory (or the
 * file ENV_FILE names), which never override a variable that is set.
 */
export function environment(env: Env = process.env, cwd = process.cwd()): Env {
  const file = nonEmpty(env.ENV_FILE) ?? path.join(cwd, '.env')
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if (env.ENV_FILE !== undefined) throw new ConfigError('ENV_FILE', 'a readable file of NAME=value lines', env.ENV_FILE)
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return env
    throw error
  }
  return { ...parseEnv(text), ...env }
}

/** Reads every setting once, from the environment shared by the server and the command line. */
export function readConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? './data')
  return {
    port: readPort(env.PORT),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir,
    database: readDatabase(env.DATABASE_URL, dataDir),
    databasePool: {
      size: readInteger(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
      waitMs: readInteger(env, 'DATABASE_POOL_WAIT_MS', 2000, 1, 60_000),
      queue: readInteger(env, 'DATABASE_POOL_QUEUE', 1000, 0, 100_000),
    },
    logLevel: readLogLevel(env.LOG_LEVEL),
    opsAllow: readOpsAllow(env.OPS_ALLOW),
    shutdownGraceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    workers: readWorkers(env.WORKERS),
    clockOffsetMs: readClockOffset(env.CLOCK_OFFSET_SECONDS),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    responseCacheBytes: readInteger(env, 'RESPONSE_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    readerThreads: readInteger(env, 'READER_THREADS', 2, 0, 16),
    publicUrl: readPublicUrl(env),
    dashboard: {
      sessionIdleMs: readInteger(env, 'SESSION_IDLE_HOURS', 12, 1, 24 * 30) * 3_600_000,
      sessionAbsoluteMs: readInteger(env, 'SESSION_MAX_DAYS', 7, 1, 90) * 86_400_000,
      invitationsPerAddressPerDay: readInteger(env, 'INVITATIONS_PER_ADDRESS_PER_DAY', 3, 1, 1000),
      invitationsPerClubPerDay: readInteger(env, 'INVITATIONS_PER_CLUB_PER_DAY', 30, 1, 100_000),
      signInLinksPerAddressPerDay: readInteger(env, 'SIGN_IN_LINKS_PER_ADDRESS_PER_DAY', 10, 1, 1000),
    },
    mail: {
      smtpUrl: readServiceUrl(env, 'SMTP_URL', /^smtps?:\/\/[^/]/i, 'an smtp:// or smtps:// URL, e.g. smtp://user:pass@relay:587'),
      from: nonEmpty(env.MAIL_FROM) ?? 'Club Platform <no-reply@club-platform.invalid>',
      connections: readInteger(env, 'MAIL_CONNECTIONS', DEFAULT_MAIL_CONNECTIONS, 1, 50),
    },
    webhooks: {
      allowPrivateNetworks: readBoolean(env, 'WEBHOOKS_ALLOW_PRIVATE_NETWORKS'),
      timeoutMs: readInteger(env, 'WEBHOOK_TIMEOUT_SECONDS', 15, 1, 60) * 1000,
      maxEndpointsPerClub: readInteger(env, 'WEBHOOK_MAX_ENDPOINTS_PER_CLUB', 10, 1, 1000),
      deliveriesPerMinute: readInteger(env, 'WEBHOOK_DELIVERIES_PER_MINUTE', 600, 1, 1_000_000),
    },
    retention: {
      intervalMs: readInteger(env, 'RETENTION_INTERVAL_MINUTES', 60, 1, 10_080) * 60_000,
      batchSize: readInteger(env, 'RETENTION_BATCH_SIZE', 1000, 1, 100_000),
    },
    booking: {
      maxOpenPerEmail: readInteger(env, 'BOOKING_MAX_OPEN_PER_EMAIL', 2, 1, 1000),
      maxPerAddressPerDay: readInteger(env, 'BOOKING_MAX_PER_ADDRESS_PER_DAY', 10, 1, 100_000),
    },
    rateLimit: {
      capacity: readInteger(env, 'RATE_LIMIT_CAPACITY', 60, 1, 1_000_000),
      perMinute: readInteger(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 60_000_000),
      dailyQuota: readInteger(env, 'DAILY_QUOTA', 10_000, 1, 1_000_000_000),
      redisUrl: readServiceUrl(env, 'REDIS_URL', /^rediss?:\/\/[^/]/i, 'a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379'),
      redisKeyPrefix: nonEmpty(env.REDIS_KEY_PREFIX) ?? 'club-platform:',
    },
    publicRateLimit: {
      listing: {
        capacity: readInteger(env, 'PUBLIC_RATE_CAPACITY', 60, 1, 1_000_000),
        refillPerSecond: readInteger(env, 'PUBLIC_RATE_PER_MINUTE', 60, 1, 60_000_000) / 60,
      },
      booking: {
        capacity: readInteger(env, 'BOOKING_RATE_CAPACITY', 5, 1, 1_000_000),
        refillPerSecond: readInteger(env, 'BOOKING_RATE_PER_MINUTE', 10, 1, 60_000_000) / 60,
      },
      signIn: {
        capacity: readInteger(env, 'SIGN_IN_RATE_CAPACITY', 10, 1, 1_000_000),
        refillPerSecond: readInteger(env, 'SIGN_IN_RATE_PER_HOUR', 10, 1, 3_600_000) / 3600,
      },
    },
  }
}

function readInteger(env: Env, variable: string, fallback: number, min: number, max: number): number {
  const value = nonEmpty(env[variable])
  if (value === undefined) return fallback
  if (!/^\d{1,12}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(variable, `an integer from ${String(min)} to ${String(max)}`, value)
  }
  return Number(value)
}

function readBoolean(env: Env, variable: string): boolean {
  const value = nonEmpty(env[variable])?.toLowerCase()
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  throw new ConfigError(variable, 'true or false', value)
}

/** An optional URL whose scheme is one of a service's two (plain and TLS). */
function readServiceUrl(env: Env, variable: string, scheme: RegExp, expected: string): string | undefined {
  const value = nonEmpty(env[variable])
  if (value === undefined) return undefined
  // The scheme, and a URL at all: `smtp://[relay` has the scheme and no host.
  if (!scheme.test(value) || !URL.canParse(value)) throw new ConfigError(variable, expected, value)
  return value
}

function readPublicUrl(env: Env): URL {
  const value = nonEmpty(env.PUBLIC_URL)
  if (value === undefined) {
    const host = nonEmpty(env.HOST) ?? '127.0.0.1'
    // What a person on this machine types (and what the demo prints): the browser's Origin must match it.
    const shown = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host
    return new URL(`http://${shown}:${String(readPort(env.PORT))}/`)
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError('PUBLIC_URL', 'an http:// or https:// URL without query, e.g. https://clubs.example', value)
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new ConfigError('PUBLIC_URL', 'an http:// or https:// URL without query, e.g. https://clubs.example', value)
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  return url
}

function readOpsAllow(raw: string | undefined): readonly string[] {
  const value = nonEmpty(raw)
  if (value === undefined) return ['127.0.0.0/8', '::1/128']
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/')
    const family = isIP(address)
    const max = family === 6 ? 128 : 32
    if (family === 0 || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new ConfigError('OPS_ALLOW', 'comma-separated addresses or CIDRs, e.g. 127.0.0.1/32,10.0.0.0/8', value)
    }
  }
  return entries
}

/** Ten years either way: enough for any day a test or a demonstration needs. */
const MAX_CLOCK_OFFSET_SECONDS = 10 * 366 * 86_400

function readClockOffset(raw: string | undefined): number {
  const value = nonEmpty(raw)
  if (value === undefined) return 0
  if (!/^[+-]?\d{1,9}$/.test(value) || Math.abs(Number(value)) > MAX_CLOCK_OFFSET_SECONDS) {
    throw new ConfigError('CLOCK_OFFSET_SECONDS', `a whole number of seconds from -${String(MAX_CLOCK_OFFSET_SECONDS)} to ${String(MAX_CLOCK_OFFSET_SECONDS)}`, value)
  }
  return Number(value) * 1000
}

function readWorkers(raw: string | undefined): number {
  const value = nonEmpty(raw)
  if (value === undefined) return 1
  if (value === 'auto') return availableParallelism()
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 256) {
    throw new ConfigError('WORKERS', 'a number of processes from 1 to 256, or auto (one per core)', value)
  }
  return Number(value)
}

function readTrustProxy(raw: string | undefined): boolean | number | string {
  const value = nonEmpty(raw)
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  if (/^\d{1,2}$/.test(value)) return Number(value)
  if (/^[0-9a-fA-F.:/,\s]+$/.test(value)) return value
  throw new ConfigError('TRUST_PROXY', 'false, true, a hop count, or comma-separated proxy addresses/CIDRs', value)
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function readPort(raw: string | undefined): number {
  const value = nonEmpty(raw)
  if (value === undefined) return 3000
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', 'an integer from 0 to 65535', value)
  }
  return Number(value)
}

function readDatabase(raw: string | undefined, dataDir: string): DatabaseSettings {
  const value = nonEmpty(raw)
  if (value === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'club-platform.sqlite') }
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value }
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\//, '')
    if (file !== '') return { kind: 'sqlite', file: path.resolve(file) }
  }
  throw new ConfigError('DATABASE_URL', 'a postgres://… URL, sqlite:PATH, or unset for SQLite in DATA_DIR', value)
}

function readLogLevel(raw: string | undefined): LogLevel {
  const value = nonEmpty(raw)?.toLowerCase()
  if (value === undefined) return 'info'
  const level = LOG_LEVELS.find((candidate) => candidate === value)
  if (level === undefined) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`, value)
  return level
}

/** Hides the password of a URL, so that settings can be echoed in messages and logs. */
export function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]+):[^@/]*@/i, '$1:***@')
}
