/**
 * Fastify answers an unregistered method with 404. For a path that exists, 405 with `Allow` is
 * the truthful answer; these routes are added once every real route is known, and refuse in
 * onRequest, before any body is read.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ProblemError, requestPath } from './problems.js'

export function collectRouteMethods(app: FastifyInstance, isCovered: (url: string) => boolean): Map<string, Set<HTTPMethods>> {
  const byUrl = new Map<string, Set<HTTPMethods>>()
  app.addHook('onRoute', (route) => {
    if (!isCovered(route.url)) return
    const methods = byUrl.get(route.url) ?? new Set<HTTPMethods>()
    for (const method of [route.method].flat()) methods.add(method)
    byUrl.set(route.url, methods)
  })
  return byUrl
}

export function registerMethodNotAllowed(app: FastifyInstance, byUrl: ReadonlyMap<string, ReadonlySet<HTTPMethods>>): void {
  const supported = app.supportedMethods as HTTPMethods[]
  for (const [url, registered] of [...byUrl]) {
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
