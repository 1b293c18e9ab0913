/**
 * Fastify answers an unregistered method with 404. For a path that exists, 405 with `Allow` is
 * the truthful answer; these routes are added once every real route is known, and refuse in
 * onRequest, before any body is read.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ProblemError, requestPath } from './problems.js'

export interface RouteMethods {
  readonly byUrl: Map<string, Set<HTTPMethods>>
  /** Wildcard routes (`/prefix*`, e.g. the CORS preflight handler) answer their methods for every path below them. */
  readonly wildcards: Map<string, Set<HTTPMethods>>
}

export function collectRouteMethods(app: FastifyInstance, isCovered: (url: string) => boolean): RouteMethods {
  const collected: RouteMethods = { byUrl: new Map(), wildcards: new Map() }
  app.addHook('onRoute', (route) => {
    if (!isCovered(route.url)) return
    const wildcard = route.url.endsWith('*')
    const map = wildcard ? collected.wildcards : collected.byUrl
    const key = wildcard ? route.url.slice(0, -1) : route.url
    const methods = map.get(key) ?? new Set<HTTPMethods>()
    for (const method of [route.method].flat()) methods.add(method)
    map.set(key, methods)
  })
  return collected
}

export function registerMethodNotAllowed(app: FastifyInstance, routes: RouteMethods): void {
  const supported = app.supportedMethods as HTTPMethods[]
  for (const [url, own] of [...routes.byUrl]) {
    const registered = new Set(own)
    for (const [prefix, methods] of routes.wildcards) {
      if (url.startsWith(prefix)) for (const method of methods) registered.add(method)
    }
    const missing = supported.filter((method) => !registered.has(method))
    if (missing.length === 0) continue
    const allow = supported.filter((method) => registered.has(method)).join(', ')
    app.route({
      method: missing,
      url,
      schema: { hide: true },
      config: { access: { public: true } },
      onRequest: (request) => {
        throw new ProblemError('method-not-allowed', `${requestPath(request.url)} accepts ${allow}.`, { allow })
      },
      handler: () => undefined,
    })
  }
}
