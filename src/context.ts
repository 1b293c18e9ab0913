/**
 * The one object that builds every dependency from the configuration: the database and the
 * authenticator, and the clock they share. Chosen once here; nothing below reads the environment.
 */
import type { Kysely, LogEvent } from 'kysely'
import { BackgroundTasks } from './background.js'
import { shiftedClock } from './clock.js'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import { openDatabase } from './db/dialect.js'
import { walCheckpoints } from './speed/wal-checkpoints.js'
import type { WalCheckpoints } from './speed/wal-checkpoints.js'
import type { DialectName, PoolStats } from './db/dialect.js'
import { migrateToLatest } from './db/migrate.js'
import type { Database } from './db/schema.js'
import type { ChangeFeed } from './db/changes.js'
import { ResponseCache } from './speed/response-cache.js'
import path from 'node:path'
import { ClientRateLimiter } from './http/client-rate-limit.js'
import { threadedTransport } from './mail/transport-thread.js'
import { transportFor } from './mail/transport.js'
import type { TransportTarget } from './mail/transport.js'
import { MailWorker } from './mail/worker.js'
import { ListReaders } from './speed/list-readers.js'
import { PeriodicJob } from './services/periodic-job.js'
import { retentionJob } from './services/retention.js'
import type { RetentionReport } from './services/retention.js'
import { actAfterCommit } from './services/unit-of-work.js'
import { MemoryLimiterStore } from './limits/memory-store.js'
import type { LimiterStore } from './limits/store.js'
import type { MailWorkerOptions } from './mail/worker.js'
import { systemResolver } from './webhooks/sender.js'
import type { Resolver, TargetPolicy } from './webhooks/sender.js'
import { WebhookWorker } from './webhooks/worker.js'
import type { WebhookWorkerOptions } from './webhooks/worker.js'
import { ApiKeyAuthenticator } from './services/api-keys.js'
import { DashboardSessions } from './services/dashboard-sessions.js'
import type { AuthenticatorOptions } from './services/api-keys.js'

export interface AppContext {
  readonly config: Config
  readonly db: Kysely<Database>
  readonly dialect: DialectName
  /** The database driver in use (`better-sqlite3 12.11.1`, `pg`), for the start-up log line. */
  readonly databaseDriver: string
  readonly clock: Clock
  readonly apiKeys: ApiKeyAuthenticator
  /** Dashboard sessions and memberships, kept while unchanged (the dashboard's access check). */
  readonly sessions: DashboardSessions
  /** Delivers the outbox; the server starts it, the command line does not. */
  readonly mail: MailWorker
  /** Delivers webhooks; the server starts it, the command line does not. */
  readonly webhooks: WebhookWorker
  /** How webhook URLs are checked and host names resolved (the worker's and the dashboard's). */
  readonly webhookTargets: TargetPolicy
  /**
   * Applies the clubs' retention periods every hour once started (by the server), or once at once
   * (`runNow`, the command line), one run at a time across every process.
   */
  readonly retention: PeriodicJob<{ retention: RetentionReport }>
  /** Per client IP: the public courts listing, booking, and the dashboard's sign-in requests. */
  readonly publicLimits: {
    readonly listing: ClientRateLimiter
    readonly booking: ClientRateLimiter
    readonly signIn: ClientRateLimiter
  }
  /** The per-key budgets of the authenticated endpoints: in this process, or in Redis (REDIS_URL). */
  readonly limiter: LimiterStore
  /** Which data changed since a cached answer was read; every process sees every writer's changes. */
  readonly changes: ChangeFeed
  /** Serialised answers of the read endpoints, valid while `changes` reports their data unchanged. */
  readonly responses: ResponseCache
  /** Threads reading list pages missing from `responses` (src/speed/list-readers.ts); undefined: read on the event loop. */
  readonly readers: ListReaders | undefined
  /** The write-ahead log's checkpoints on a thread (src/speed/wal-checkpoints.ts); undefined: SQLite's own, on commit. */
  readonly checkpoints: WalCheckpoints | undefined
  readonly poolStats: () => PoolStats | undefined
  /** Work started by requests and finished after their answers; close() waits for it. */
  readonly background: BackgroundTasks
  /** Set when the server is stopping: /readyz answers 503 and responses ask clients to close their connections. */
  readonly lifecycle: { draining: boolean }
  /** Only on SQLite: see DatabaseHandle.backup. */
  readonly backup: ((file: string) => Promise<void>) | undefined
  close(): Promise<void>
}

export interface ContextOptions {
  readonly clock?: Clock
  readonly onQuery?: (event: LogEvent) => void
  readonly authenticator?: AuthenticatorOptions
  readonly mailWorker?: MailWorkerOptions
  readonly webhookWorker?: WebhookWorkerOptions
  /** Resolves webhook hosts (tests map names to addresses); the system resolver by default. */
  readonly webhookResolver?: Resolver
  /** For the Redis store only: decide on this clock instead of the Redis server's (tests). */
  readonly limiterClock?: Clock
  /**
   * `server` (default) keeps the limiter's state across restarts and connects to Redis at once;
   * `admin` (the command line) serves no API traffic: its limiter keeps nothing and connects only if used.
   */
  readonly role?: 'server' | 'admin'
  /** Apply pending migrations before returning (the server does; the command line's `migrate` does it explicitly). */
  readonly migrate?: boolean
  /** Compose and send mail on a thread of its own (the server does; see mail/transport-thread.ts). */
  readonly mailThread?: boolean
  /**
   * Read list pages missing from the cache on `config.readerThreads` threads (the server does; SQLite in a
   * file only; see speed/list-readers.ts).
   */
  readonly readerThreads?: boolean
  /** The reader threads' code, when not the running module (the in-process tests run the sources and give the built one). */
  readonly readerModule?: URL
  /** Misses within a second that start the reader threads (default `MISSES_TO_START`, speed/list-readers.ts). */
  readonly readerStartAfter?: number
  /**
   * Checkpoint SQLite's write-ahead log on a thread (the server does; SQLite in a file only; see
   * speed/wal-checkpoints.ts). A URL: the thread's code, when not the running module (the in-process tests).
   */
  readonly walCheckpoints?: boolean | URL
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? shiftedClock(config.clockOffsetMs)
  const threaded = options.walCheckpoints
  const checkpoints = threaded === undefined || threaded === false ? undefined : threaded === true ? {} : { module: threaded }
  const database = openDatabase(config.database, { pool: config.databasePool,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    ...(checkpoints === undefined ? {} : { checkpoints: walCheckpoints(checkpoints) }) })
  try {
    if (options.migrate === true) await migrateToLatest(database.db)
  } catch (error) {
    await database.close()
    throw error
  }
  const admin = options.role === 'admin'
  // A server observes changes from the start; the command line never needs to.
  if (!admin) await database.changes.start()
  const apiKeys = new ApiKeyAuthenticator(database.db, clock, database.changes, options.authenticator)
  const target: TransportTarget = config.mail.smtpUrl === undefined
    ? { kind: 'files', directory: path.join(config.dataDir, 'mail') }
    : { kind: 'smtp', url: config.mail.smtpUrl, connections: config.mail.connections }
  const transport = options.mailThread === true ? threadedTransport(target) : transportFor(target)
  const mail = new MailWorker(database.db, clock, transport, config.mail.from,
    { concurrency: config.mail.connections, ...options.mailWorker })
  const webhookTargets: TargetPolicy = { allowPrivateNetworks: config.webhooks.allowPrivateNetworks,
    resolve: options.webhookResolver ?? systemResolver }
  const webhooks = new WebhookWorker(database.db, clock, { ...webhookTargets, timeoutMs: config.webhooks.timeoutMs,
    deliveriesPerMinute: config.webhooks.deliveriesPerMinute, mailFrom: config.mail.from, publicUrl: config.publicUrl },
  options.webhookWorker)
  const limiter: LimiterStore = config.rateLimit.redisUrl === undefined
    ? await MemoryLimiterStore.open(clock, admin ? undefined : path.join(config.dataDir, 'rate-limits.json'))
    // ioredis is loaded with Redis only: a server that limits in its own memory does without it.
    : new (await import('./limits/redis-store.js')).RedisLimiterStore({ url: config.rateLimit.redisUrl,
        keyPrefix: config.rateLimit.redisKeyPrefix, lazy: admin,
        ...(options.limiterClock === undefined ? {} : { clock: options.limiterClock }) })
  const background = new BackgroundTasks()
  const { database: settings } = config
  const readers = options.readerThreads === true && config.readerThreads > 0 && settings.kind === 'sqlite' && settings.file !== ':memory:'
    ? new ListReaders(settings.file, config.readerThreads, { clock,
        ...(options.readerModule === undefined ? {} : { module: options.readerModule }),
        ...(options.readerStartAfter === undefined ? {} : { startAfter: options.readerStartAfter }) })
    : undefined
  const retention = new PeriodicJob(database.db, clock, retentionJob(database.db, clock, config.retention))
  // Every committed write on this database wakes these workers and marks this change feed (src/services/unit-of-work.ts).
  actAfterCommit(database.db, { mail, webhooks, changes: database.changes })
  return {
    config,
    db: database.db,
    dialect: database.dialect,
    databaseDriver: database.driver,
    clock,
    apiKeys,
    sessions: new DashboardSessions(database.db, clock, database.changes, config.dashboard.sessionIdleMs),
    mail,
    webhooks,
    webhookTargets,
    retention,
    limiter,
    changes: database.changes,
    responses: new ResponseCache(config.responseCacheBytes),
    readers,
    checkpoints: database.checkpoints,
    poolStats: () => database.poolStats(),
    lifecycle: { draining: false },
    background,
    backup: database.backup === undefined ? undefined : (file) => database.backup?.(file) ?? Promise.resolve(),
    publicLimits: {
      listing: new ClientRateLimiter(config.publicRateLimit.listing, clock),
      booking: new ClientRateLimiter(config.publicRateLimit.booking, clock),
      signIn: new ClientRateLimiter(config.publicRateLimit.signIn, clock),
    },
    async close() {
      await background.settled()
      await readers?.close()
      await retention.stop()
      await webhooks.stop()
      await mail.stop()
      await limiter.close()
      await apiKeys.flush()
      await database.close()
    },
  }
}
