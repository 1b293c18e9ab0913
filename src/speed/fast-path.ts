/**
 * The steady state of the hottest reads, answered before Fastify routes the request: a list page
 * or a court grid that is in the response cache, and a key over its budget. Fastify's routing,
 * request and reply objects, hooks and reply pipeline cost more than the answer itself does (about
 * half the time of a cached page); here a cached answer is the access check, one look-up and one
 * `writeHead` of the headers Fastify would send.
 *
 * A route offers a handler for its path (`get`). The handler answers only when it is sure, after
 * the same checks in the same order as the route's hooks (src/http/access.ts, the client limiter);
 * everything else goes to Fastify (`pass`), with what was already checked and charged handed over
 * so that nothing is charged twice. Fastify stays the reference: test/speed/fast-path.test.ts sends the
 * same requests to a server with and one without this path and compares status, headers and
 * bodies, and every other suite runs through it.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CachedResponse } from './response-cache.js'
import { matches } from '../http/conditional.js'

/** Accepted from a proxy in front of the service; anything else gets a fresh id. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id']
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : freshId()
}

/**
 * A UUID (version 4 in form): the first 64 bits random, drawn again every 65,536 ids, the last 48
 * a counter of this process, so ids never repeat within it and differ between processes. A random
 * UUID per request costs a system call's share here (the entropy pool is refilled every 128),
 * measurably more than the rest of a cached answer; the id needs to be unique, not unpredictable.
 */
let idHead = ''
let idCount = 0

function freshId(): string {
  if (idCount % 65_536 === 0) idHead = randomUUID().slice(0, 23)
  idCount = (idCount + 1) % 0x1000000000000
  // Joined: a flat string (see rateLimitHeaderList).
  return [idHead, idCount.toString(16).padStart(12, '0')].join('-')
}

/** One request this path answered, for the metrics and the request log (src/app.ts). */
export interface FastAnswer {
  readonly id: string
  /** The request's path (without the query). */
  readonly path: string
  /** The route's URL pattern, as Fastify names it. */
  readonly route: string
  readonly status: number
  /** performance.now() when the request arrived. */
  readonly started: number
  readonly clubId: string | undefined
  readonly keyId: string | undefined
  readonly refusal: 'burst' | 'daily' | 'public' | undefined
}

/** What answered a request, for the log (the key's id and club), when a key did. */
export interface Caller {
  readonly clubId: string
  readonly keyId: string
}

/** What a route's handler gets: the request, its response, and its query string ('' when none). */
export type FastRoute = (request: IncomingMessage, response: ServerResponse, query: string, answer: FastRequest) => void

/** A request in this path: the route answers with `cached`, `problem` or hands it on with `pass`. */
export interface FastRequest {
  readonly id: string
  readonly path: string
  readonly started: number
  /** The path's segments after a prefix route's prefix (a club's slug). */
  readonly parameter: string
}

export interface CachedAnswer {
  readonly route: string
  readonly entry: CachedResponse
  /** Sent after the request id and `nosniff` (rate-limit or CORS headers, as the route sends them). */
  readonly headers: readonly string[]
  readonly cacheControl: string
  readonly vary: string | undefined
  readonly caller: Caller | undefined
}

export interface ProblemAnswer {
  readonly route: string
  readonly status: number
  readonly headers: readonly string[]
  readonly body: string
  readonly refusal: FastAnswer['refusal']
  readonly caller: Caller | undefined
}

/** The routes answered before Fastify's; see above. */
export class FastPath {
  private readonly exact = new Map<string, FastRoute>()
  private readonly prefixed: { readonly prefix: string, readonly suffix: string, readonly route: FastRoute }[] = []
  private fallback: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  /** Called once per answer (src/app.ts records it in the metrics and the request log). */
  observer: (answer: FastAnswer) => void = () => undefined
  /** Requests answered here (the tests check that a request took this path). */
  answered = 0
  /** The server's request listener (set by `listener`): the test harness injects requests through it. */
  dispatch: (request: IncomingMessage, response: ServerResponse) => void = () => {
    throw new Error('the server has not been created')
  }

  /** `open`: false while the service is stopping or draining, when Fastify's hooks add what that needs. */
  constructor(private readonly enabled: boolean, readonly open: () => boolean) {}

  /** The server's request listener: this path's answer or Fastify's (`fallback`, given by serverFactory). */
  listener(fallback: (request: IncomingMessage, response: ServerResponse) => void): (request: IncomingMessage,
    response: ServerResponse) => void {
    this.fallback = fallback
    this.dispatch = !this.enabled
      ? fallback
      : (request, response) => {
          if (!this.handle(request, response)) fallback(request, response)
        }
    return this.dispatch
  }

  /** A GET route at one path. */
  get(path: string, route: FastRoute): void {
    this.exact.set(path, route)
  }

  /** A GET route at `prefix` + one segment + `suffix` (the segment plain: no `%`, no `/`). */
  getWithin(prefix: string, suffix: string, route: FastRoute): void {
    this.prefixed.push({ prefix, suffix, route })
  }

  /** Hands the request to Fastify, which answers it in full. */
  pass(request: IncomingMessage, response: ServerResponse): void {
    this.fallback?.(request, response)
  }

  /** A cached answer: 200 with the body, or 304 when If-None-Match names its tag. */
  cached(request: IncomingMessage, response: ServerResponse, at: FastRequest, answer: CachedAnswer): void {
    const { entry } = answer
    const ifNoneMatch = request.headers['if-none-match']
    const notModified = ifNoneMatch !== undefined && matches(ifNoneMatch, entry.etag)
    const headers = ['x-request-id', at.id, 'x-content-type-options', 'nosniff', ...answer.headers, 'etag', entry.etag]
    if (!notModified) headers.push('content-type', 'application/json; charset=utf-8')
    headers.push('cache-control', answer.cacheControl)
    if (answer.vary !== undefined) headers.push('vary', answer.vary)
    headers.push('content-length', notModified ? '0' : String(entry.bytes))
    response.writeHead(notModified ? 304 : 200, headers)
    if (notModified) response.end()
    else response.end(entry.body)
    this.answered++
    this.observer({ id: at.id, path: at.path, route: answer.route, status: notModified ? 304 : 200, started: at.started,
      clubId: answer.caller?.clubId, keyId: answer.caller?.keyId, refusal: undefined })
  }

  /** Any answer, its headers after the request id and `nosniff` (a file: src/http/static-page.ts). */
  send(response: ServerResponse, at: FastRequest, route: string, status: number, headers: readonly string[],
    body?: Buffer): void {
    response.writeHead(status, ['x-request-id', at.id, 'x-content-type-options', 'nosniff', ...headers])
    response.end(body)
    this.answered++
    this.observer({ id: at.id, path: at.path, route, status, started: at.started, clubId: undefined, keyId: undefined,
      refusal: undefined })
  }

  /** A problem document (already serialised, as the route's serialiser writes it). */
  problem(response: ServerResponse, at: FastRequest, answer: ProblemAnswer): void {
    response.writeHead(answer.status, ['x-request-id', at.id, 'x-content-type-options', 'nosniff', ...answer.headers,
      'content-type', 'application/problem+json; charset=utf-8', 'content-length', String(Buffer.byteLength(answer.body))])
    response.end(answer.body)
    this.answered++
    this.observer({ id: at.id, path: at.path, route: answer.route, status: answer.status, started: at.started,
      clubId: answer.caller?.clubId, keyId: answer.caller?.keyId, refusal: answer.refusal })
  }

  private handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || !this.open()) return false
    // Fastify answers these with a problem document (src/app.ts) or reads a body this path would not.
    if (request.headers.host === undefined || request.headers['content-length'] !== undefined
      || request.headers['transfer-encoding'] !== undefined) return false
    const url = request.url ?? ''
    const mark = url.indexOf('?')
    const path = mark === -1 ? url : url.slice(0, mark)
    const query = mark === -1 ? '' : url.slice(mark + 1)
    let route = this.exact.get(path)
    let parameter = ''
    for (const prefixed of route === undefined ? this.prefixed : []) {
      const { prefix, suffix } = prefixed
      if (path.length <= prefix.length + suffix.length || !path.startsWith(prefix) || !path.endsWith(suffix)) continue
      parameter = path.slice(prefix.length, path.length - suffix.length)
      if (parameter.includes('/') || parameter.includes('%')) return false
      route = prefixed.route
      break
    }
    if (route === undefined) return false
    // A GET has no body to read: its end is consumed now, as Fastify would, rather than discarded after the answer.
    request.resume()
    route(request, response, query, { id: requestId(request), path, started: performance.now(), parameter })
    return true
  }
}

/**
 * The query of a list (`limit`, `offset`): each at most once, plain digits within range; anything
 * else is undefined, and Fastify answers (a 400, or the same page by its own parsing).
 */
export function plainPage(query: string, defaults: { readonly limit: number, readonly offset: number },
  bounds: { readonly maxLimit: number, readonly maxOffset: number }): { limit: number, offset: number } | undefined {
  let limit: number | undefined
  let offset: number | undefined
  if (query === '') return { limit: defaults.limit, offset: defaults.offset }
  for (const part of query.split('&')) {
    const equals = part.indexOf('=')
    const value = part.slice(equals + 1)
    if (equals === -1 || !/^[0-9]{1,9}$/.test(value)) return undefined
    const name = part.slice(0, equals)
    if (name === 'limit' && limit === undefined) limit = Number(value)
    else if (name === 'offset' && offset === undefined) offset = Number(value)
    else return undefined
  }
  limit ??= defaults.limit
  offset ??= defaults.offset
  return limit >= 1 && limit <= bounds.maxLimit && offset <= bounds.maxOffset ? { limit, offset } : undefined
}
