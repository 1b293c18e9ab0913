/**
 * For operators: /healthz (the process answers), /readyz (database reachable, migrations current,
 * Redis reachable when configured) and /metrics (Prometheus). They live outside /api/v1, are not
 * part of the API description, and answer only addresses in OPS_ALLOW (loopback by default);
 * anyone else gets the same 404 as for any unknown path.
 */
import { BlockList, isIP } from 'node:net'
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify'
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import type { AppContext } from '../context.js'
import { ping } from '../db/health.js'
import { migrationState } from '../db/migrate.js'
import { outboxStats } from '../db/repositories/outbox.js'
import { ProblemError, requestPath } from './problems.js'

export interface Metrics {
  readonly registry: Registry
  observe(request: FastifyRequest, status: number, seconds: number): void
  /** The same for an answer given before routing (src/speed/fast-path.ts). */
  record(route: string, method: string, status: number, seconds: number, refusal?: 'burst' | 'daily' | 'public'): void
  /** A client closed its connection before its request was complete. */
  clientAborted(): void
  /** The text exposition of every metric, read now. */
  scrape(): Promise<string>
}

/** A counter of counts kept elsewhere, by outcome, read at each scrape (with `labels` on every series). */
function countsByOutcome(registry: Registry, name: string, help: string, read: () => Readonly<Record<string, number>>,
  labels: Readonly<Record<string, string>> = {}): void {
  new Counter({ name, help, labelNames: [...Object.keys(labels), 'outcome'], registers: [registry], collect() {
    this.reset()
    for (const [outcome, count] of Object.entries(read())) this.inc({ ...labels, outcome }, count)
  } })
}

/** A gauge read at each scrape; absent (no series) while it reads null. */
function readGauge(registry: Registry, name: string, help: string, read: () => number | null,
  labels: Readonly<Record<string, string>> = {}): void {
  new Gauge({ name, help, labelNames: Object.keys(labels), registers: [registry], collect() {
    const value = read()
    if (value !== null) this.set(labels, value)
  } })
}

export function createMetrics(context: AppContext): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const answers = new AnswerSeries(registry)
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
  const { readers } = context
  if (readers !== undefined) {
    readGauge(registry, 'list_reader_threads', 'Threads ready to read list pages missing from the response cache.',
      () => readers.ready)
    countsByOutcome(registry, 'list_reader_reads_total',
      'List pages read on the reader threads, by outcome: read, or failed (the route read it on the event loop).',
      () => ({ read: readers.counts.read, failed: readers.counts.failed }))
  }
  const { responses } = context
  countsByOutcome(registry, 'response_cache_lookups_total',
    'Cacheable answers (lists, courts) by outcome: hit (served from the response cache) or miss (read from the database).',
    () => ({ hit: responses.counts.hits, miss: responses.counts.misses }))
  readGauge(registry, 'response_cache_bytes', 'Bytes the response cache holds (RESPONSE_CACHE_MB bounds them).',
    () => responses.size.bytes)
  const { retention } = context
  const job = { job: retention.spec.name }
  countsByOutcome(registry, 'job_runs_total',
    'Runs of a periodic job in this process, by outcome: complete, stopped (by a stop of the server, the rest left for '
    + 'the next run), failed, skipped (another process\'s run was under way or had just finished).',
    () => retention.figures.runs, job)
  const seconds = (ms: number | null) => (ms === null ? null : ms / 1000)
  readGauge(registry, 'job_last_run_duration_seconds', 'How long the last run of a periodic job took, in any process.',
    () => seconds(retention.figures.lastDurationMs), job)
  readGauge(registry, 'job_last_run_rows', 'Rows the last run of a periodic job removed or changed, in any process.',
    () => retention.figures.lastRows, job)
  readGauge(registry, 'job_last_finished_timestamp_seconds',
    'When the last complete run of a periodic job finished (Unix time), in any process.',
    () => seconds(retention.figures.lastFinishedAt), job)
  const { checkpoints } = context
  if (checkpoints !== undefined) {
    countsByOutcome(registry, 'sqlite_wal_checkpoints_total',
      'Checkpoints of the SQLite write-ahead log run on their thread, by outcome: done, held (done while the connection '
      + 'waited, so that the log starts again), or failed (the connection checkpoints itself once the log is large).',
      () => ({ done: checkpoints.counts.checkpoints - checkpoints.counts.held, held: checkpoints.counts.held,
        failed: checkpoints.counts.failed }))
  }
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
      const refusal = status !== 429
        ? undefined
        : request.problemKind === 'daily-quota-exhausted' ? 'daily' : request.principal === null ? 'public' : 'burst'
      this.record(request.routeOptions.url ?? 'unmatched', request.method, status, seconds, refusal)
    },
    record(route, method, status, seconds, refusal) {
      answers.record(route, method, status, seconds)
      if (refusal !== undefined) refusals.inc({ limit: refusal })
    },
  }
}

/** Upper bounds of the duration histogram's buckets, in seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

interface Series {
  readonly labels: { readonly route: string, readonly method: string, readonly status: string }
  count: number
  sum: number
  /** Per bucket (not cumulative), the last for +Inf. */
  readonly buckets: number[]
}

/**
 * http_requests_total and http_request_duration_seconds, by route, method and status: plain
 * numbers per series, turned into prom-client's form only when scraped. prom-client's own
 * counters and histograms hash their labels on every update, a cost of every request.
 */
class AnswerSeries {
  private readonly series = new Map<string, Map<number | string, Series>>()

  constructor(registry: Registry) {
    const all = () => [...this.series.values()].flatMap((byAnswer) => [...byAnswer.values()])
    const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => unknown[]) => ({
      name, help, type, aggregator: 'sum', reset: () => undefined,
      get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
    })
    const register = (entry: ReturnType<typeof metric>) => {
      registry.registerMetric(entry as unknown as Parameters<Registry['registerMetric']>[0])
    }
    register(metric('http_requests_total', 'HTTP requests answered, by route, method and status.', 'counter',
      () => all().map((series) => ({ labels: series.labels, value: series.count }))))
    register(metric('http_request_duration_seconds', 'Time to answer, by route, method and status.', 'histogram',
      () => all().flatMap((series) => {
        let cumulative = 0
        const bucket = (le: number | string, count: number) => {
          cumulative += count
          return { metricName: 'http_request_duration_seconds_bucket', labels: { le, ...series.labels }, value: cumulative }
        }
        return [
          ...DURATION_BUCKETS.map((le, i) => bucket(le, series.buckets[i] ?? 0)),
          bucket('+Inf', series.buckets[DURATION_BUCKETS.length] ?? 0),
          { metricName: 'http_request_duration_seconds_sum', labels: series.labels, value: series.sum },
          { metricName: 'http_request_duration_seconds_count', labels: series.labels, value: series.count },
        ]
      })))
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let byAnswer = this.series.get(route)
    if (byAnswer === undefined) {
      byAnswer = new Map()
      this.series.set(route, byAnswer)
    }
    // A GET by its status alone: the hot path builds no string.
    const answer = method === 'GET' ? status : `${String(status)} ${method}`
    let series = byAnswer.get(answer)
    if (series === undefined) {
      series = { labels: { route, method, status: String(status) }, count: 0, sum: 0,
        buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0) }
      byAnswer.set(answer, series)
    }
    series.count++
    series.sum += seconds
    let i = 0
    while (i < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[i] ?? 0)) i++
    series.buckets[i] = (series.buckets[i] ?? 0) + 1
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
      await ping(context.db)
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
