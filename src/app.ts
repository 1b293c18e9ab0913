/**
 * Builds the Fastify application from a context. It does not listen: server.ts does, and tests
 * inject requests through its server's request listener (test/helpers/harness.ts), answers
 * before routing included.
 */
import { calendarFeedRoutes } from './routes/calendar-feeds.js'
import http from 'node:http'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import cookie from '@fastify/cookie'
import Fastify, { LogController } from 'fastify'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from './context.js'
import { InvalidRequest } from './domain/errors.js'
import { registerAccessControl } from './http/access.js'
import { ADMIN_PREFIX, dashboardGuard, registerDashboardRequests } from './http/dashboard-access.js'
import { registerFavicon } from './http/favicon.js'
import { registerAdminOpenApi } from './routes/admin/openapi.js'
import { adminRoutes } from './routes/admin/routes.js'
import { registerDashboardApp } from './http/dashboard-app.js'
import { loadWidget, registerWidget } from './http/widget.js'
import { bookingPageRoutes } from './routes/booking-page.js'
import { ADMIN_SCHEMAS } from './schemas/admin.js'
import { collectRouteMethods, registerMethodNotAllowed } from './http/method-not-allowed.js'
import { registerApiReference } from './http/api-reference.js'
import type { ReferencePageOptions } from './http/api-reference.js'
import { registerOpenApi } from './http/openapi.js'
import { createMetrics, opsRoutes } from './http/ops.js'
import type { Metrics } from './http/ops.js'
import { API_PREFIX } from './http/problem-types.js'
import { ProblemError, frameworkErrorHandler, registerProblemHandlers, requestPath, sendProblem, toProblemError } from './http/problems.js'
import { redactKeys, redactingDestination } from './http/redaction.js'
import { clientErrorHandler } from './http/client-errors.js'
import { registerStrictQuery } from './http/strict-query.js'
import { competitionResultsRoutes } from './routes/competition-results.js'
import { eventsRoutes } from './routes/events.js'
import { groupsRoutes } from './routes/groups.js'
import { newsRoutes } from './routes/news.js'
import { problemsRoutes } from './routes/problems.js'
import { PUBLIC_PREFIX, publicCourtsRoutes } from './routes/public-courts.js'
import { manageBookingRoutes } from './routes/manage-booking.js'
import { waitingListPages } from './routes/waiting-list.js'
import { ListMeta } from './schemas/common.js'
import { CompetitionResult, CompetitionResultList } from './schemas/competition-result.js'
import { BookingCreated, BookingRequest, CourtAvailability, CourtBookingSlot, CourtBookingWindow, CourtDay, CourtDays } from './schemas/court.js'
import { WaitingCreated, WaitingRequest } from './schemas/waiting-list.js'
import { Event, EventList } from './schemas/event.js'
import { Group, GroupList } from './schemas/group.js'
import { News, NewsList } from './schemas/news.js'
import { Problem } from './schemas/problem.js'
import { useServiceDateTime } from './schemas/formats.js'
import { WEBHOOK_PAYLOAD_SCHEMAS } from './schemas/webhooks.js'
import { LAZY_SERIALIZERS, SHARED_SERIALIZERS } from './http/serializers.js'
import { FastPath, requestId } from './speed/fast-path.js'

export interface AppOptions {
  /** false, or JSON logs at the configured level (the default) with key-shaped text redacted. */
  readonly logger?: false
  /** Where the log lines go (standard output unless given). */
  readonly logDestination?: { write(line: string): unknown }
  /**
   * How long a client may take to send its request headers before a 408 (Node's default, 60 s);
   * Node checks every quarter of it, at most every 30 s.
   */
  readonly headersTimeoutMs?: number
  /** Where the built dashboard is (dist/dashboard/ unless given). */
  readonly dashboardDir?: string
  /** Where the built booking widget is (dist/widget/v1/ unless given). */
  readonly widgetDir?: string
  /** The prebuilt reference page (tests point it elsewhere). */
  readonly referencePage?: ReferencePageOptions
  /** Compile each response serialiser on first use instead of at start (src/http/serializers.ts); the test harness does. */
  readonly lazySerializers?: boolean
  /** false: every request goes through Fastify (test/speed/fast-path.test.ts compares the two). */
  readonly fastPath?: false
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers before routing (src/speed/fast-path.ts). */
    fastPath: FastPath
  }
}

/** The levels at which the line of each request is written. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info'])

/** A hop count becomes the equivalent function (Fastify's types take booleans, addresses or a function). */
function trustProxy(setting: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting
}

/** The Fastify instance with its server, logger, limits, validation and error handlers. */
function createFastify(context: AppContext, options: AppOptions, fastPath: FastPath): FastifyInstance {
  const headersTimeout = options.headersTimeoutMs ?? 60_000
  return Fastify({
    logger: options.logger ?? {
      level: context.config.logLevel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      stream: redactingDestination(options.logDestination ?? process.stdout),
    },
    // The server Fastify would create, its request listener answering from src/speed/fast-path.ts first.
    serverFactory: (handler, settings) => {
      const server = http.createServer({
        // A request without Host is refused by the onRequest hook below, with a problem document.
        requireHostHeader: false,
        headersTimeout,
        connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(headersTimeout / 4))),
      }, fastPath.listener(handler))
      // As Fastify sets them on its own server (its defaults: these options are not given).
      const timeouts = settings as { keepAliveTimeout?: number, requestTimeout?: number, connectionTimeout?: number }
      server.keepAliveTimeout = timeouts.keepAliveTimeout ?? 72_000
      server.requestTimeout = timeouts.requestTimeout ?? 0
      server.setTimeout(timeouts.connectionTimeout ?? 0)
      return server
    },
    genReqId: requestId,
    schemaController: options.lazySerializers === true ? LAZY_SERIALIZERS : SHARED_SERIALIZERS,
    // The onResponse hook below writes the one log line of each request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
    // Answered by the onRequest hook below, as a problem document.
    return503OnClosing: false,
    trustProxy: trustProxy(context.config.trustProxy),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    ajv: {
      customOptions: {
        // Unknown properties are errors, not silently dropped; query strings are coerced from text.
        removeAdditional: false,
        coerceTypes: true,
        useDefaults: true,
        // Every offending field at once, so that a form can mark them all (at most 20 are listed: src/http/problems.ts).
        allErrors: true,
      },
      // After ajv-formats: `date-time` means what the rules can read (src/domain/date-time.ts).
      onCreate: useServiceDateTime,
    },
  }).withTypeProvider<TypeBoxTypeProvider>()
}

/** The headers of every answer, and the requests refused before routing: while stopping, and HTTP/1.1 without Host. */
function registerRequestChecks(app: FastifyInstance, context: AppContext, closing: () => boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff')
    // Nothing of the dashboard API may be kept by a cache: its refusals (401, 404, 405, preflights) no more than its answers.
    if (request.url.startsWith(ADMIN_PREFIX)) reply.header('cache-control', 'no-store')
    // While stopping, every answer asks the client to reconnect (to another instance) for its next request.
    if (context.lifecycle.draining || closing()) reply.header('connection', 'close')
    if (closing()) {
      // A request that reached a connection after the listener closed: another instance will answer it.
      void sendProblem(request, reply, new ProblemError('service-unavailable', 'The service is shutting down; retry shortly.',
        { 'retry-after': '1' }))
    } else if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host.
      void sendProblem(request, reply, toProblemError(new InvalidRequest('header', 'Host', 'is required in HTTP/1.1')))
    }
    done()
  })
}

/** The metrics and the one log line of each request, on both paths. */
function registerRequestLog(app: FastifyInstance, context: AppContext, fastPath: FastPath): Metrics {
  const metrics = createMetrics(context)
  const requestLog = REQUEST_LOG_LEVELS.has(app.log.level) ? app.log : undefined
  fastPath.observer = (answer) => {
    const seconds = (performance.now() - answer.started) / 1000
    metrics.record(answer.route, 'GET', answer.status, seconds, answer.refusal)
    requestLog?.info({ reqId: answer.id, method: 'GET', path: redactKeys(answer.path), route: answer.route, status: answer.status,
      duration_ms: Math.round(seconds * 100_000) / 100, club_id: answer.clubId, key_id: answer.keyId }, 'request')
  }
  // One log line per request, without the Authorization header or the query's values.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request, reply.statusCode, reply.elapsedTime / 1000)
    if (!REQUEST_LOG_LEVELS.has(request.log.level)) {
      done()
      return
    }
    request.log.info({
      method: request.method,
      path: redactKeys(requestPath(request.url)),
      route: request.routeOptions.url,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      club_id: request.principal?.clubId,
      key_id: request.principal?.keyId,
    }, 'request')
    done()
  })
  return metrics
}

/** Every request and response body is a named schema, once under components.schemas. */
function registerSchemas(app: FastifyInstance): void {
  for (const schema of [Problem, ListMeta, Group, GroupList, Event, EventList, News, NewsList,
    CompetitionResult, CompetitionResultList, CourtBookingSlot, CourtBookingWindow, CourtAvailability, CourtDay, CourtDays,
    BookingRequest, BookingCreated, WaitingRequest, WaitingCreated, ...WEBHOOK_PAYLOAD_SCHEMAS]) {
    app.addSchema(schema)
  }
  for (const schema of ADMIN_SCHEMAS) app.addSchema(schema)
}

/** The routes, in the order the OpenAPI documents list them, then the dashboard's files and the favicon. */
async function registerRoutes(app: FastifyInstance, context: AppContext, options: AppOptions, metrics: Metrics): Promise<void> {
  groupsRoutes(app, context)
  eventsRoutes(app, context)
  newsRoutes(app, context)
  competitionResultsRoutes(app, context)
  problemsRoutes(app)
  await publicCourtsRoutes(app, context)
  await manageBookingRoutes(app, context)
  await waitingListPages(app, context)
  const widget = await loadWidget(options.widgetDir)
  registerWidget(app, widget)
  await bookingPageRoutes(app, context, widget)
  calendarFeedRoutes(app, context)
  opsRoutes(app, context, metrics)
  adminRoutes(app, context, widget)
  await registerAdminOpenApi(app, context)
  await registerDashboardApp(app, options.dashboardDir)
  registerFavicon(app)
}

export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  let closing = false
  const fastPath = new FastPath(options.fastPath !== false, () => !closing && !context.lifecycle.draining)
  const app = createFastify(context, options, fastPath)
  app.decorate('fastPath', fastPath)
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  registerRequestChecks(app, context, () => closing)
  const metrics = registerRequestLog(app, context, fastPath)

  registerProblemHandlers(app, () => {
    metrics.clientAborted()
  })
  // Bodies are JSON only: anything else, text/plain included, is a 415.
  app.removeContentTypeParser('text/plain')
  await app.register(cookie)
  registerDashboardRequests(app)
  registerAccessControl(app, context.apiKeys, {
    dashboardGuard: dashboardGuard(context),
    limiter: context.limiter,
    defaultLimits: context.config.rateLimit,
    // @fastify/cors answers preflights of the public endpoints through one OPTIONS wildcard route.
    isPublicInfrastructure: (route) => route.url === `${PUBLIC_PREFIX}*` && [route.method].flat().every((method) => method === 'OPTIONS'),
  })
  registerStrictQuery(app)
  const routeMethods = collectRouteMethods(app, (url) => url.startsWith(API_PREFIX) || url.startsWith(ADMIN_PREFIX))

  registerSchemas(app)
  await registerOpenApi(app, ADMIN_SCHEMAS.map((schema) => schema.$id ?? ''))
  await registerApiReference(app, options.referencePage)

  await registerRoutes(app, context, options, metrics)

  await app.after()
  registerMethodNotAllowed(app, routeMethods)
  return app
}
