/**
 * Access to the dashboard API (docs/dashboard.md, "Security"). Each route declares
 * `config.access.dashboard`; its first onRequest hook, built here:
 *
 * 1. refuses a request that changes something unless it comes from the service's own origin
 *    (`Origin` equal to PUBLIC_URL's, or, without Origin, `Sec-Fetch-Site: same-origin`): with the
 *    SameSite=Lax cookie, the defence against cross-site request forgery;
 * 2. finds the session of the cookie (not revoked, not idle too long, not past its maximum age);
 * 3. on club routes, finds the person's role in the club named by `:club` — a club they do not
 *    administer is answered exactly like a club that does not exist (404) — and checks it.
 *
 * Sessions and memberships are kept in the process while unchanged (src/services/dashboard-sessions.ts).
 *
 * Nothing of the dashboard API is cacheable or readable cross-origin: no CORS, and `Cache-Control:
 * no-store` on every answer under its prefix (set in src/app.ts, refusals included).
 */
import type {} from '@fastify/cookie'
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { AppContext } from '../context.js'
import type { Membership, SessionRecord } from '../db/repositories/admins.js'
import { isAdminRole, roleAllows } from '../domain/admin-roles.js'
import { ClubNotFound, CrossSiteRequest, Forbidden, NotSignedIn } from '../domain/errors.js'
import type { DashboardSettings } from '../services/admins.js'
import type { DashboardAccess } from './access.js'

export const ADMIN_PREFIX = '/api/admin/v1'

export interface DashboardCaller {
  readonly session: SessionRecord
  /** On club routes: the person's membership in the club of the path. */
  readonly membership: Membership | null
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboard: DashboardCaller | null
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function dashboardSettings(context: AppContext): DashboardSettings {
  return { publicUrl: context.config.publicUrl, mailFrom: context.config.mail.from, ...context.config.dashboard }
}

/** `__Host-` (Secure, Path=/, no Domain) when the service is served over HTTPS. */
export function sessionCookieName(publicUrl: URL): string {
  return publicUrl.protocol === 'https:' ? '__Host-cp_session' : 'cp_session'
}

export function sessionCookieOptions(publicUrl: URL, maxAgeMs: number) {
  return { path: '/', httpOnly: true, secure: publicUrl.protocol === 'https:', sameSite: 'lax', maxAge: Math.floor(maxAgeMs / 1000) } as const
}

/** Whether a request comes from the dashboard's own origin (see the module comment). */
export function isSameOrigin(request: FastifyRequest, publicUrl: URL): boolean {
  const origin = request.headers.origin
  if (origin !== undefined) return origin === publicUrl.origin
  return request.headers['sec-fetch-site'] === 'same-origin'
}

export function registerDashboardRequests(app: FastifyInstance): void {
  app.decorateRequest('dashboard', null)
}

export function dashboardGuard(context: AppContext) {
  const settings = dashboardSettings(context)
  const cookieName = sessionCookieName(settings.publicUrl)
  return (needed: DashboardAccess, route: { method: string | string[], url: string }): onRequestAsyncHookHandler => {
    if (!route.url.startsWith(`${ADMIN_PREFIX}/`)) throw new Error(`Dashboard route ${route.url} is outside ${ADMIN_PREFIX}`)
    const clubRoute = isAdminRole(needed)
    if (clubRoute !== route.url.includes('/:club')) {
      throw new Error(`Dashboard route ${route.url}: a role needs the :club path parameter, and :club needs a role`)
    }
    const changes = [route.method].flat().some((method) => !SAFE_METHODS.has(method))
    return async function dashboardAccess(request) {
      if (changes && !SAFE_METHODS.has(request.method) && !isSameOrigin(request, settings.publicUrl)) {
        throw new CrossSiteRequest(`Requests that change something must come from ${settings.publicUrl.origin}.`)
      }
      if (needed === 'anyone') return
      const token = request.cookies[cookieName]
      const session = token === undefined ? undefined : await context.sessions.session(token)
      if (session === undefined) throw new NotSignedIn()
      let membership: Membership | null = null
      if (clubRoute) {
        const slug = (request.params as { club?: string }).club ?? ''
        membership = await context.sessions.membership(session.adminId, slug) ?? null
        if (membership === null) throw new ClubNotFound(slug)
        if (!roleAllows(membership.role, needed)) {
          throw new Forbidden(`Your role in this club (${membership.role}) does not allow this; it needs ${needed}.`)
        }
      }
      request.dashboard = { session, membership }
    }
  }
}

/** The caller of a signed-in route; the guard guarantees it is set. */
export function callerOf(request: FastifyRequest): DashboardCaller {
  if (request.dashboard === null) throw new NotSignedIn()
  return request.dashboard
}

/** The caller of a club route and their membership. */
export function memberOf(request: FastifyRequest): DashboardCaller & { readonly membership: Membership } {
  const caller = callerOf(request)
  if (caller.membership === null) throw new NotSignedIn()
  return { ...caller, membership: caller.membership }
}
