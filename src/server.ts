/**
 * Starts the service: reads the configuration, builds the context (migrating the database), builds
 * the app and listens. `--demo` loads the demo club first and prints a key and a curl line.
 * With WORKERS=N (N > 1) this process becomes a supervisor: it migrates once, starts N server
 * processes that share the port, replaces any that crash, and stops them all on SIGTERM/SIGINT.
 */
// First, before any other module runs: see the module.
import './speed/next-tick-shape.js'
import cluster from 'node:cluster'
import { getHeapStatistics } from 'node:v8'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, environment, readConfig } from './config.js'
import type { Config } from './config.js'
import { createContext } from './context.js'
import type { AppContext } from './context.js'
import { loadDemo, revokedDemoKeysNote } from './services/demo.js'
import { dashboardSettings } from './http/dashboard-access.js'
import type { DemoResult } from './services/demo.js'
import { describeFailure, listenFailure } from './startup-errors.js'
import { serverArguments, serverUsage } from './settings.js'

/** Set once read, so that a failure can name the setting behind it. */
let config: Config | undefined

async function main(argv: readonly string[]): Promise<void> {
  // Before anything reads a setting or a file: --help touches nothing, and a mistyped option starts nothing.
  const options = serverArguments(argv)
  if ('refused' in options) {
    process.stderr.write(`club-platform: ${options.refused}\n`)
    process.exit(2)
  }
  if (options.help) {
    process.stdout.write(serverUsage())
    return
  }
  config = readConfig(environment())
  checkHeap(config)
  if (config.workers > 1 && cluster.isPrimary) {
    await supervise(config, options.demo)
    return
  }
  await serve(config, cluster.isPrimary && options.demo)
}

/** A worker's start-up failure, sent to the supervisor, which reports the first and stops. */
interface StartupFailureMessage {
  readonly type: 'club-platform:startup-failure'
  readonly line: string
}

function isStartupFailure(message: unknown): message is StartupFailureMessage {
  return typeof message === 'object' && message !== null
    && (message as { type?: unknown }).type === 'club-platform:startup-failure'
}

const MiB = 1024 * 1024

/**
 * The response cache lives in V8's old generation, next to some 64 MiB the service needs there
 * anyway. A bound (`node --max-old-space-size`, as `npm start` sets) that leaves less than twice
 * the cache would end in an out-of-memory crash under load, so it is refused at start.
 */
function checkHeap(config: Config): void {
  const limit = oldGenerationLimitMiB()
  const cache = config.responseCacheBytes / MiB
  if (limit < 64 + 2 * cache) {
    throw new ConfigError('RESPONSE_CACHE_MB', `at most ${String(Math.max(0, Math.floor((limit - 64) / 2)))} with this process's `
      + `old-generation limit of ${String(limit)} MiB (raise node's --max-old-space-size to at least 64 + 2 × the cache)`, String(cache))
  }
}

/**
 * The bound of V8's old generation, where the cache lives: --max-old-space-size when given (on the
 * command line or in NODE_OPTIONS; the command line wins), else the whole heap limit. The heap
 * limit alone will not do: it adds the young generation, which Node.js 20, 24 and 26 size
 * differently (48, 192 and 96 MiB next to an old generation of 128 MiB).
 */
function oldGenerationLimitMiB(): number {
  const flags = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv]
  const last = flags.map((flag) => /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag)?.[1])
    .filter((value) => value !== undefined).at(-1)
  return last === undefined ? Math.floor(getHeapStatistics().heap_size_limit / MiB) : Number(last)
}

/** Several processes need shared state: PostgreSQL for data and Redis for the rate-limit budgets. */
function refuseEmbeddedDefaults(config: Config): void {
  const missing = [
    config.database.kind === 'sqlite' ? 'DATABASE_URL (PostgreSQL; SQLite serves one process)' : undefined,
    config.rateLimit.redisUrl === undefined ? 'REDIS_URL (without it each process would grant its own rate-limit budget)' : undefined,
  ].filter((item) => item !== undefined)
  if (missing.length > 0) {
    throw new ConfigError('WORKERS', `1 unless ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} set`,
      String(config.workers))
  }
}

async function supervise(config: Config, withDemo: boolean): Promise<void> {
  refuseEmbeddedDefaults(config)
  // Migrate (and load the demo) once, before the workers start.
  const context = await createContext(config, { migrate: true, role: 'admin' })
  const demo = withDemo ? await loadDemo(context.db, context.clock, { dashboard: dashboardSettings(context) }) : undefined
  await context.close()
  let stopping = false
  let exitCode = 0
  const start = () => cluster.fork()
  for (let i = 0; i < config.workers; i++) start()
  // A worker that has not listened yet failed to start: starting another would fail the same way.
  const listened = new Set<number>()
  let announced = false
  cluster.on('listening', (worker, address) => {
    listened.add(worker.id)
    if (demo === undefined || announced) return
    announced = true
    printDemo(demo, `http://localhost:${String(address.port)}`)
  })
  const giveUp = (line: string) => {
    if (stopping) return
    process.stderr.write(`club-platform: ${line}\n`)
    exitCode = 1
    // The supervisor may also end by itself, once nothing holds it: the cluster forgets its last
    // worker on that worker's disconnect, which can come after the exit seen below. It fails then too.
    process.exitCode = 1
    stop()
  }
  cluster.on('message', (_worker, message: unknown) => {
    if (isStartupFailure(message)) giveUp(message.line)
  })
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode)
      return
    }
    const how = signal || String(code)
    if (!listened.has(worker.id)) {
      giveUp(`worker ${String(worker.process.pid)} exited (${how}) before it could serve; stopping`)
      return
    }
    process.stderr.write(`club-platform: worker ${String(worker.process.pid)} exited (${how}); starting another\n`)
    start()
  })
  const stop = () => {
    if (stopping) return
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM')
    // Workers finish in-flight requests within the grace period; give them that plus a margin.
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 5_000).unref()
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

async function serve(config: Config, withDemo: boolean): Promise<void> {
  const context = await createContext(config, { migrate: cluster.isPrimary, mailThread: true, readerThreads: true,
    walCheckpoints: true })
  let app: FastifyInstance | undefined
  try {
    const demo = withDemo
      ? await loadDemo(context.db, context.clock, { apiKeys: context.apiKeys, dashboard: dashboardSettings(context) })
      : undefined
    app = await buildApp(context)
    const address = await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, config)
    })
    context.mail.reportTo(app.log)
    context.mail.start()
    context.webhooks.reportTo(app.log)
    context.webhooks.start()
    context.retention.reportTo(app.log)
    const log = app.log
    context.readers?.reportTo((error) => {
      log.warn({ err: error }, 'a list reader thread ended; the pages it had in hand were read on the event loop')
    })
    context.retention.start()
    app.log.info({ database: context.databaseDriver, mail: context.mail.transportDescription, limiter: context.limiter.kind,
      listReaderThreads: context.readers?.size ?? 0 }, 'serving')
    if (config.clockOffsetMs !== 0) {
      app.log.warn({ clockOffsetSeconds: config.clockOffsetMs / 1000, now: new Date(context.clock.now()).toISOString() },
        'the clock is moved by CLOCK_OFFSET_SECONDS (for tests and demonstrations only)')
    }
    if (demo !== undefined) printDemo(demo, address.replace('://[::1]', '://localhost').replace('://127.0.0.1', '://localhost'))
  } catch (error) {
    await shutdown(app, context, config)
    throw error
  }
  const stop = () => {
    void shutdown(app, context, config).then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`club-platform: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    })
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

function printDemo(demo: DemoResult, base: string): void {
  const revoked = revokedDemoKeysNote(demo)
  process.stdout.write(`\nDemo club "${demo.clubSlug}" is loaded. Its API key (all scopes), shown once:\n\n`
    + `  ${demo.apiKey}\n\n${revoked === '' ? '' : `${revoked}\n\n`}Try:\n\n  curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/api/v1/groups\n\n`
    + `Court availability (public, no key): ${base}/api/v1/public/${demo.clubSlug}/courts\n`
    + `Booking page (the widget on a page of its own, docs/integration.md): ${base}/book/${demo.clubSlug}\n`
    + `API reference: ${base}/api/v1/docs\n\n`
    + (demo.signIn === undefined
      ? ''
      : `Club dashboard: sign in as ${demo.signIn.email} with this link (once, within 15 minutes; `
        + `the same link is in the mail to that address):\n\n  ${demo.signIn.url}\n\n`))
}

const QUIET_MS = 250

/**
 * A graceful stop. First the server drains: it keeps answering, reports not ready (/readyz 503, so
 * a load balancer stops sending), and asks every client to close its connection, until no new
 * connection has arrived for a moment (at most half the grace period). Closing the listener any
 * earlier would reset connections the kernel has already accepted but Node has not yet taken.
 * Then it stops listening and finishes the requests in flight; when the grace period is over, the
 * remaining connections are closed. A retention run under way stops at once, after the batch it is
 * on. Last, the webhook and mail workers finish what they hold, the limiter saves its state, and
 * the pools close.
 */
async function shutdown(app: FastifyInstance | undefined, context: AppContext, config: Config): Promise<void> {
  // A retention run stops before its next batch, while the server drains.
  const retentionStopped = context.retention.stop()
  if (app !== undefined) {
    const deadline = Date.now() + config.shutdownGraceMs
    context.lifecycle.draining = true
    let lastConnection = Date.now()
    const onConnection = () => {
      lastConnection = Date.now()
    }
    app.server.on('connection', onConnection)
    const drainUntil = Date.now() + config.shutdownGraceMs / 2
    while (Date.now() < drainUntil && Date.now() - lastConnection < QUIET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    app.server.off('connection', onConnection)
    const forced = setTimeout(() => {
      app.server.closeAllConnections()
    }, Math.max(0, deadline - Date.now()))
    forced.unref()
    await app.close()
    clearTimeout(forced)
  }
  await retentionStopped
  await context.close()
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const line = describeFailure(error, config)
  // A worker tells its supervisor, which reports one line however many workers failed.
  if (cluster.isWorker && process.send !== undefined) {
    const message: StartupFailureMessage = { type: 'club-platform:startup-failure', line }
    process.send(message, () => process.exit(1))
    return
  }
  process.stderr.write(`club-platform: ${line}\n`)
  process.exit(1)
})
