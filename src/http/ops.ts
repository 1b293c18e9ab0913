/**
 * For operators: /healthz (the process answers), /readyz (database reachable, migrations current,
 * Redis reachable when configured) and /metrics (Prometheus). They live outside /api/v1, are not
 * part of the API description, and answer only addresses in OPS_ALLOW (loopback by default);
 * anyone else gets the same 404 as for any unknown path.
 */
import { BlockList, isIP } from 'node:net'
import { sql } from 'kysely'
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { AppContext } from '../context.js'
import { migrationState } from '../db/migrate.js'
import { outboxStats } from '../db/repositories/outbox.js'
import { ProblemError, requestPath } from './problems.js'

export interface Metrics {
  readonly registry: Registry
  observe(request: FastifyRequest, status: number, seconds: number): void
  /** A client closed its connection before its request was complete. */
  clientAborted(): void
  /** The text exposition of every metric, read now. */
  scrape(): Promise<string>
}

export function createMetrics(context: AppContext): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route, method and status.',
    labelNames: ['route', 'method', 'status'], registers: [registry] })
  const duration = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer, by route, method and status.',
    labelNames: ['route', 'method', 'status'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry] })
  const refusals = new Counter({ name: 'rate_limit_refusals_total',
    help: '429 answers, by limit: burst or daily (per API key), public (per client IP).', labelNames: ['limit'], registers: [registry] })
  const aborts = new Counter({ name: 'http_client_aborts_total',
    help: 'Requests whose client closed the connection before the request was complete (not a failure of the service).',
    registers: [registry] })
  const outboxWaiting = new Gauge({ name: 'mail_outbox_pending', help: 'Confirmation mails waiting to be sent.', registers: [registry] })
  const outboxAge = new Gauge({ name: 'mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest mail waiting to be sent (0: none).', registers: [registry] })
  const mailFailed = new Gauge({ name: 'mail_failed', help: 'Confirmation mails that failed for good (club-platform mail list --failed).',
    registers: [registry] })
  const pool = new Gauge({ name: 'db_pool_connections', labelNames: ['state'], registers: [registry],
    help: 'PostgreSQL pool connections, by state: total, idle, and waiting (requests queued for a connection that no idle one '
      + 'can take).' })
  // The labelled series of each route, method and status, looked up once rather than hashed on every request.
  const series = new Map<string, { readonly count: Counter.Internal, readonly time: Histogram.Internal<string> }>()
  return {
    registry,
    async scrape() {
      // The pool before the scrape's own queries, which would otherwise be counted as waiting for a connection.
      const stats = context.poolStats()
      if (stats !== undefined) {
        pool.set({ state: 'total' }, stats.total)
        pool.set({ state: 'idle' }, stats.idle)
        pool.set({ state: 'waiting' }, stats.waiting)
      }
      const outbox = await outboxStats(context.db)
      outboxWaiting.set(outbox.waiting)
      const oldest = outbox.oldestWaitingSince
      outboxAge.set(oldest === null ? 0 : Math.max(0, (context.clock.now() - Date.parse(oldest)) / 1000))
      mailFailed.set(outbox.failed)
      return registry.metrics()
    },
    clientAborted() {
      aborts.inc()
    },
    observe(request, status, seconds) {
      const route = request.routeOptions.url ?? 'unmatched'
      const key = `${String(status)} ${request.method} ${route}`
      let labelled = series.get(key)
      if (labelled === undefined) {
        const labels = { route, method: request.method, status: String(status) }
        labelled = { count: requests.labels(labels), time: duration.labels(labels) }
        series.set(key, labelled)
      }
      labelled.count.inc()
      labelled.time.observe(seconds)
      if (status === 429) {
        const kind = request.problemKind === 'daily-quota-exhausted' ? 'daily' : request.principal === null ? 'public' : 'burst'
        refusals.inc({ limit: kind })
      }
    },
  }
}

function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/')
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    // A single address is a subnet of full length.
    list.addSubnet(address, bits === undefined ? (type === 'ipv6' ? 128 : 32) : Number(bits), type)
  }
  return list
}

export function opsRoutes(app: FastifyInstance, context: AppContext, metrics: Metrics): void {
  const allowed = allowList(context.config.opsAllow)
  const guard: onRequestHookHandler = (request, _reply, done) => {
    const ip = request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip
    if (allowed.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4')) done()
    else done(new ProblemError('not-found', `No resource at ${requestPath(request.url)}.`))
  }
  const options = { schema: { hide: true }, config: { access: { public: true } as const }, onRequest: guard }

  app.get('/healthz', options, () => ({ status: 'ok' }))

  app.get('/readyz', options, async () => {
    const failing: string[] = context.lifecycle.draining ? ['the server is stopping'] : []
    try {
      await sql`select 1`.execute(context.db)
      const { pending, unknown } = await migrationState(context.db)
      if (pending.length > 0) failing.push(`migrations pending: ${pending.join(', ')}`)
      if (unknown.length > 0) failing.push(`the database was migrated by a newer version (${unknown.join(', ')})`)
    } catch {
      failing.push('database unreachable')
    }
    try {
      await context.limiter.ping()
    } catch {
      failing.push('rate limiter (Redis) unreachable')
    }
    if (failing.length > 0) throw new ProblemError('service-unavailable', `Not ready: ${failing.join('; ')}.`, { 'retry-after': '5' })
    return { status: 'ready', database: context.dialect, limiter: context.limiter.kind }
  })

  app.get('/metrics', options, async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.scrape()))
}
