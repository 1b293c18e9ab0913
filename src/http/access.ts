/**
 * Access control that fails closed (decisions: "a forgotten declaration refuses rather than
 * leaks"). Every route must declare `config.access`: `{ public: true }`, `{ scope }` or `{ dashboard }`. A route
 * without a declaration stops the application from starting. Routes with a scope get the bearer
 * check as their first onRequest hook, before the body is read or the query validated.
 */
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestAsyncHookHandler,
  onRequestHookHandler } from 'fastify'
import type { LimitOverrides } from '../db/repositories/api-keys.js'
import { InsufficientScope, InvalidApiKey, InvalidRequest, QuotaExceeded } from '../domain/errors.js'
import { rateLimitHeaders } from '../domain/rate-limit.js'
import type { Decision, KeyLimits } from '../domain/rate-limit.js'
import type { Scope } from '../domain/scopes.js'
import type { AdminRole } from '../domain/admin-roles.js'
import type { LimiterStore } from '../limits/store.js'
import { sendProblem, toProblemError } from './problems.js'
import type { ApiKeyAuthenticator, Principal } from '../services/api-keys.js'

/**
 * `dashboard`: a route of the dashboard API (src/http/dashboard-access.ts): `anyone` (signing in),
 * `signed-in` (the person's own account), or the least role in the club named by the `:club` path
 * parameter.
 */
export type DashboardAccess = 'anyone' | 'signed-in' | AdminRole
export type RouteAccess = { readonly public: true } | { readonly scope: Scope } | { readonly dashboard: DashboardAccess }

declare module 'fastify' {
  interface FastifyInstance {
    /** The access check of a scoped route where it need not wait (src/speed/fast-path.ts); see admitAtOnce. */
    admitAtOnce: (raw: IncomingMessage, scope: Scope) => Admission | undefined
  }
  interface FastifyContextConfig {
    access?: RouteAccess
  }
  interface FastifyRequest {
    principal: Principal | null
    /** When the limiter admitted this request (its day is refunded if the service fails with 503). */
    admittedAt: number | null
  }
}

/**
 * Routes added by third-party plugins that cannot declare access themselves (the CORS preflight of
 * the public endpoints). Each must be public by nature.
 */
export interface AccessOptions {
  readonly isPublicInfrastructure: (route: { method: string | string[], url: string }) => boolean
  readonly limiter: LimiterStore
  /** The configured limits; a key's overrides replace single fields. */
  readonly defaultLimits: { readonly capacity: number, readonly perMinute: number, readonly dailyQuota: number }
  /** The first onRequest hook of a dashboard route (session, cross-site check, club role). */
  readonly dashboardGuard: (needed: DashboardAccess,
    route: { method: string | string[], url: string }) => onRequestAsyncHookHandler
}

/** A scoped request let through the key and scope checks and charged to the key's budget. */
export interface Admission {
  readonly principal: Principal
  readonly decision: Decision | Promise<Decision>
}

const ADMISSION = Symbol('admission')
interface AdmittedRequest extends IncomingMessage {
  [ADMISSION]?: Admission
}

/**
 * Passes an admission made before routing (src/speed/fast-path.ts) to the route's access hook, which
 * then uses it instead of checking and charging the request a second time.
 */
export function handOverAdmission(raw: IncomingMessage, admission: Admission): void {
  (raw as AdmittedRequest)[ADMISSION] = admission
}

export function registerAccessControl(app: FastifyInstance, authenticator: ApiKeyAuthenticator, options: AccessOptions): void {
  /**
   * The checks of requireScope for a request whose answer is sure without waiting: the key was
   * looked up within the last second and is valid, and it has the scope. The budget is charged
   * (the decision may be a promise: Redis). Undefined, with nothing charged, for anything else:
   * the route's hook then decides, with the problem document it answers.
   */
  app.decorate('admitAtOnce', (raw: IncomingMessage, scope: Scope): Admission | undefined => {
    if (repeatsAuthorization(raw.rawHeaders)) return undefined
    const principal = authenticator.known(raw.headers.authorization)
    if (principal === undefined || !principal.scopes.has(scope)) return undefined
    const limits = effectiveLimits(principal.limits, options.defaultLimits)
    return { principal, decision: options.limiter.consume(principal.keyId, limits) }
  })
  app.decorateRequest('principal', null)
  app.decorateRequest('admittedAt', null)
  // A 503 is the service's failure, not the caller's: it gives the day's unit back.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.admittedAt !== null && request.principal !== null && reply.statusCode === 503) {
      void options.limiter.refundDay(request.principal.keyId, request.admittedAt)
    }
    done()
  })
  app.addHook('onRoute', (route) => {
    const access = route.config?.access
    if (access === undefined) {
      if (options.isPublicInfrastructure(route)) {
        route.config = { ...route.config, access: { public: true } }
        return
      }
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`)
    }
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat()
    if ('scope' in access) route.onRequest = [requireScope(authenticator, access.scope, options), ...existing]
    if ('dashboard' in access) route.onRequest = [options.dashboardGuard(access.dashboard, route), ...existing]
  })
}

/**
 * The checks of a scoped route, in the contract's order: 401 (key), 403 (scope), 429 (budget);
 * the query is validated after this hook, so a 400 has been charged. 401 and 403 cost nothing.
 * Callback-style, and synchronous when the key is cached and the budget is in this process: the
 * hot path of every authenticated request waits for nothing.
 */
function requireScope(authenticator: ApiKeyAuthenticator, scope: Scope, options: AccessOptions): onRequestHookHandler {
  const admit = (request: FastifyRequest, reply: FastifyReply, principal: Principal, done: HookHandlerDoneFunction) => {
    if (!principal.scopes.has(scope)) {
      done(new InsufficientScope(scope))
      return
    }
    request.principal = principal
    const decision = options.limiter.consume(principal.keyId, effectiveLimits(principal.limits, options.defaultLimits))
    whenSettled(decision, (settled) => {
      charge(request, reply, settled, done)
    }, done)
  }
  return function authenticate(request, reply, done) {
    const admitted = (request.raw as AdmittedRequest)[ADMISSION]
    if (admitted !== undefined) {
      request.principal = admitted.principal
      whenSettled(admitted.decision, (settled) => {
        charge(request, reply, settled, done)
      }, done)
      return
    }
    // Node keeps the first of several Authorization headers and drops the rest: which key was meant is unknown.
    if (repeatsAuthorization(request.raw.rawHeaders)) {
      done(new InvalidRequest('header', 'Authorization', 'is sent more than once; send exactly one bearer key'))
      return
    }
    let principal: Principal | Promise<Principal>
    try {
      principal = authenticator.authenticate(request.headers.authorization)
    } catch (error) {
      done(error as Error)
      return
    }
    whenSettled(principal, (settled) => {
      admit(request, reply, settled, done)
    }, done)
  }
}

function repeatsAuthorization(rawHeaders: readonly string[]): boolean {
  let seen = false
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.length === 13 && rawHeaders[i]?.toLowerCase() === 'authorization') {
      if (seen) return true
      seen = true
    }
  }
  return false
}

/** Goes on at once with a value, or when a promise settles: the synchronous path stays synchronous. */
function whenSettled<T>(value: T | Promise<T>, next: (settled: T) => void, fail: (error: Error) => void): void {
  if (value instanceof Promise) value.then(next, fail)
  else next(value)
}

function charge(request: FastifyRequest, reply: FastifyReply, decision: Decision, done: HookHandlerDoneFunction): void {
  const headers = rateLimitHeaders(decision)
  if (!decision.admitted) {
    // Answered here rather than passed on as an error: the refusal is the hot path of a client over its budget.
    void sendProblem(request, reply, toProblemError(new QuotaExceeded(decision.refusal ?? 'burst', headers)))
    done()
    return
  }
  void reply.headers(headers)
  request.admittedAt = decision.now
  done()
}

export function effectiveLimits(overrides: LimitOverrides, defaults: AccessOptions['defaultLimits']): KeyLimits {
  return {
    capacity: overrides.capacity ?? defaults.capacity,
    refillPerSecond: (overrides.perMinute ?? defaults.perMinute) / 60,
    dailyQuota: overrides.dailyQuota ?? defaults.dailyQuota,
  }
}

/** The caller of a scoped route; the access hook guarantees it is set. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new InvalidApiKey('missing')
  return request.principal
}
