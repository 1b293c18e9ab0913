/**
 * Access control that fails closed (decisions: "a forgotten declaration refuses rather than
 * leaks"). Every route must declare `config.access`: `{ public: true }` or `{ scope }`. A route
 * without a declaration stops the application from starting. Routes with a scope get the bearer
 * check as their first onRequest hook, before the body is read or the query validated.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import { InsufficientScope, InvalidApiKey } from '../domain/errors.js'
import type { Scope } from '../domain/scopes.js'
import type { ApiKeyAuthenticator, Principal } from '../services/api-keys.js'

export type RouteAccess = { readonly public: true } | { readonly scope: Scope }

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess
  }
  interface FastifyRequest {
    principal: Principal | null
  }
}

/**
 * Routes added by third-party plugins that cannot declare access themselves (the reference page's
 * assets, the CORS preflight of the public endpoints). Each must be public by nature.
 */
export interface AccessOptions {
  readonly isPublicInfrastructure: (route: { method: string | string[], url: string }) => boolean
}

export function registerAccessControl(app: FastifyInstance, authenticator: ApiKeyAuthenticator, options: AccessOptions): void {
  app.decorateRequest('principal', null)
  app.addHook('onRoute', (route) => {
    const access = route.config?.access
    if (access === undefined) {
      if (options.isPublicInfrastructure(route)) {
        route.config = { ...route.config, access: { public: true } }
        return
      }
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`)
    }
    if ('scope' in access) {
      const existing = route.onRequest === undefined ? [] : [route.onRequest].flat()
      route.onRequest = [requireScope(authenticator, access.scope), ...existing]
    }
  })
}

function requireScope(authenticator: ApiKeyAuthenticator, scope: Scope): onRequestAsyncHookHandler {
  return async function authenticate(request) {
    const principal = await authenticator.authenticate(request.headers.authorization)
    if (!principal.scopes.has(scope)) throw new InsufficientScope(scope)
    request.principal = principal
  }
}

/** The caller of a scoped route; the access hook guarantees it is set. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new InvalidApiKey('missing')
  return request.principal
}
