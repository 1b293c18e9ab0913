/**
 * The shape shared by the four authenticated list endpoints: a scope, the list query, the list
 * envelope, and the documented problem responses. A resource module names its list's area; what
 * the list reads, and its schemas, are in src/speed/list-reads.ts.
 *
 * Answers are served from the response cache while the club's data in the listed table is
 * unchanged (src/db/changes.ts); a miss reads the page (and the count, unless the count for that
 * version is known), serialises it with the route's compiled schema and files it. Before routing,
 * a miss is read and serialised on a reader thread when one is ready (src/speed/list-readers.ts).
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import type { Scope } from '../domain/scopes.js'
import { handOverAdmission, principalOf } from '../http/access.js'
import { plainPage } from '../speed/fast-path.js'
import { refusalDocument } from '../http/problems.js'
import { rateLimitHeaderList } from '../domain/rate-limit.js'
import type { Decision } from '../domain/rate-limit.js'
import { QuotaExceeded } from '../domain/errors.js'
import { SECURITY_SCHEME } from '../http/openapi.js'
import { API_PREFIX } from '../http/problem-types.js'
import { answerCached, cachedAnswer, fileAnswer, readAndFile } from '../speed/cached-read.js'
import type { CacheSlot, Readout } from '../speed/cached-read.js'
import type { CachedResponse } from '../speed/response-cache.js'
import { conditionalGet, conditionalHeaders, IF_NONE_MATCH } from '../http/conditional.js'
import {
  header, jsonResponse, problemResponse, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER, RETRY_AFTER_HEADER, WWW_AUTHENTICATE_HEADER,
} from '../http/responses.js'
import { LIST_LIMIT, LIST_OFFSET, ListQuery, Reference } from '../schemas/common.js'
import { LIST_READS, readListPage } from '../speed/list-reads.js'
import type { KnownTotal, ListArea, ListDatabase, PageRequest } from '../speed/list-reads.js'

const VARY_HEADER = header(Type.String({ description: 'Always `Authorization`: the answer depends on the key.',
  examples: ['Authorization'] }), { required: true })

export interface ListEndpoint {
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly scope: Scope
  /** The change-tracking area of the listed table (migration 0004), and what the list reads (src/speed/list-reads.ts). */
  readonly area: ListArea
}

/** Private: one club's data must never sit in a shared cache. no-cache: revalidate (cheaply, 304) every time. */
const CACHE_CONTROL = 'private, no-cache'

/** Counts are a few bytes each; past this many the map starts again. */
const MAX_KNOWN_TOTALS = 100_000

/** What the answers before routing and the route of one list share. */
interface ListPages {
  readonly endpoint: ListEndpoint
  readonly path: string
  /** The counts known per change-tracking scope. */
  readonly totals: Map<string, KnownTotal>
  readonly remember: (scope: string, counted: KnownTotal) => void
  /** A club's page of this list: its change-tracking scope and cache key, the same on both paths. */
  readonly slotOf: (clubId: string, page: PageRequest, now: number) => CacheSlot
  /** The read of a page that is not in the cache, the same on both paths (and on the reader threads). */
  readonly readPage: (clubId: string, page: PageRequest, slot: CacheSlot) => (db: ListDatabase,
    version: number | undefined) => Promise<Readout>
  /** The route's compiled serialiser of its 200 body, taken from its first answer: until then, misses go to the route. */
  serialize: ((payload: Record<string, unknown>) => string) | undefined
}

export function registerListEndpoint(app: FastifyInstance, context: AppContext, endpoint: ListEndpoint): void {
  const read = LIST_READS[endpoint.area]
  const totals = new Map<string, KnownTotal>()
  const remember = (scope: string, counted: KnownTotal) => {
    if (!context.responses.enabled) return
    if (totals.size >= MAX_KNOWN_TOTALS) totals.clear()
    totals.set(scope, counted)
  }
  const pages: ListPages = {
    endpoint, path: `${API_PREFIX}${endpoint.path}`, totals, remember,
    slotOf: (clubId, page, now) => {
      const scope = `${endpoint.area}:${clubId}`
      return { scope, key: `${scope}:${String(page.limit)}:${String(page.offset)}`, now }
    },
    readPage: (clubId, page, { scope, now }) => async (db, version) => {
      const { payload, validUntil, counted } = await readListPage(read, db, clubId, page, now, totals.get(scope), version)
      // Filed under the version the read started with: if that changed during the read, it never comes back.
      if (counted !== undefined) remember(scope, counted)
      return { payload, validUntil }
    },
    serialize: undefined,
  }
  registerFastList(app, context, pages)
  registerListRoute(app, context, pages)
}

/** Before routing (src/speed/fast-path.ts): a key over its budget, or a page in the cache; the route answers the rest. */
function registerFastList(app: FastifyInstance, context: AppContext, pages: ListPages): void {
  const { endpoint, path, totals, remember, slotOf, readPage } = pages
  const fast = app.fastPath
  const bounds = { maxLimit: LIST_LIMIT.max, maxOffset: LIST_OFFSET.max }
  const defaults = { limit: LIST_LIMIT.default, offset: LIST_OFFSET.default }
  const refusals = {
    burst: refusalDocument('rate-limited', new QuotaExceeded('burst', {}).message, path),
    daily: refusalDocument('daily-quota-exhausted', new QuotaExceeded('daily', {}).message, path),
  }
  fast.get(path, (raw, response, query, at) => {
    const admission = app.admitAtOnce(raw, endpoint.scope)
    if (admission === undefined) {
      fast.pass(raw, response)
      return
    }
    const { principal } = admission
    const answer = (decision: Decision) => {
      if (!decision.admitted) {
        const refusal = decision.refusal ?? 'burst'
        fast.problem(response, at, { route: path, status: 429, headers: rateLimitHeaderList(decision),
          body: refusals[refusal](at.id), refusal, caller: principal })
        return
      }
      const page = plainPage(query, defaults, bounds)
      const slot = page === undefined ? undefined : slotOf(principal.clubId, page, context.clock.now())
      const send = (entry: CachedResponse) => {
        fast.cached(raw, response, at, { route: path, entry, headers: rateLimitHeaderList(decision), cacheControl: CACHE_CONTROL,
          vary: 'Authorization', caller: principal })
      }
      const entry = slot === undefined ? undefined : cachedAnswer(context, slot)
      if (entry !== undefined) {
        send(entry)
        return
      }
      const toRoute = () => {
        handOverAdmission(raw, { principal, decision })
        fast.pass(raw, response)
      }
      if (slot === undefined || page === undefined) {
        toRoute()
        return
      }
      // A miss: read and file here, on a reader thread if one is ready (src/speed/list-readers.ts), else on the event
      // loop. If the read fails, or the service began to stop meanwhile, the route answers.
      const onThread = context.readers?.read({ area: endpoint.area, scope: slot.scope, clubId: principal.clubId, ...page,
        now: slot.now, known: totals.get(slot.scope) })
      let filing: Promise<CachedResponse>
      if (onThread !== undefined) {
        filing = onThread.then(({ version, validUntil, counted, body, etag, release }) => {
          // The body's slot is the thread's again once the answer is written, or the connection has closed.
          if (response.destroyed) release()
          else response.once('close', release)
          if (counted !== undefined) remember(slot.scope, counted)
          return fileAnswer(context, slot, version, validUntil, { body, etag })
        })
      } else if (pages.serialize !== undefined) {
        filing = readAndFile(context, slot, readPage(principal.clubId, page, slot), pages.serialize)
      } else {
        toRoute()
        return
      }
      filing.then((filed) => {
        if (fast.open()) send(filed)
        else toRoute()
      }, toRoute).catch((error: unknown) => {
        // Not expected (the answer is written from filed bytes); the client must not wait for ever, nor the process fail.
        app.log.error({ err: error, route: path }, 'answering a list page before routing failed')
        response.destroy()
      })
    }
    const { decision } = admission
    if (decision instanceof Promise) {
      decision.then(answer, () => {
        // The store failed: the route's hook answers 503 from the same promise.
        handOverAdmission(raw, admission)
        fast.pass(raw, response)
      })
    } else {
      answer(decision)
    }
  })
}

/** The route: its documentation, and the answer from the response cache or a read. */
function registerListRoute(app: FastifyInstance, context: AppContext, pages: ListPages): void {
  const { endpoint, path, slotOf, readPage } = pages
  const read = LIST_READS[endpoint.area]
  const conditional = conditionalHeaders(CACHE_CONTROL)
  app.get(path, {
    config: { access: { scope: endpoint.scope } },
    onSend: conditionalGet(CACHE_CONTROL, 'Authorization'),
    schema: {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: `${endpoint.description}\n\nRequires an API key with the scope \`${endpoint.scope}\`. Pages with \`limit\` `
        + `(${String(LIST_LIMIT.min)}–${String(LIST_LIMIT.max)}, default ${String(LIST_LIMIT.default)}) and \`offset\` `
        + `(${String(LIST_OFFSET.min)}–${String(LIST_OFFSET.max)}); \`meta.total\` counts every match. Each call costs a token of the `
        + 'key\'s bucket and one of its daily quota; the `X-RateLimit-*` headers show what is left.',
      tags: ['Club data'],
      security: [{ [SECURITY_SCHEME]: [endpoint.scope] }],
      querystring: ListQuery,
      headers: IF_NONE_MATCH,
      response: {
        200: jsonResponse('The page and the number of matching records.', Reference(read.envelope),
          { ...RATE_LIMIT_HEADERS, ...conditional, vary: VARY_HEADER }),
        304: { description: 'The copy named in If-None-Match is current. Counts as a call.', type: 'null',
          headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...conditional, vary: VARY_HEADER } },
        400: problemResponse('A query parameter is unknown, repeated, not a base-10 integer or out of range. Counts as a call.',
          RATE_LIMIT_HEADERS, [{ kind: 'validation-error', instance: path, detail: 'Query parameter "limit" must be <= 100.',
            invalidParams: [{ name: 'limit', reason: 'must be <= 100', code: 'out_of_range' }] }]),
        401: problemResponse('The API key is missing, malformed, unknown, expired or revoked.', WWW_AUTHENTICATE_HEADER,
          [{ kind: 'invalid-api-key', instance: path, detail: 'The API key is not valid.' }]),
        403: problemResponse(`The API key lacks the scope \`${endpoint.scope}\`.`, WWW_AUTHENTICATE_HEADER,
          [{ kind: 'insufficient-scope', instance: path, detail: `The API key lacks the scope "${endpoint.scope}" that this endpoint requires.` }]),
        429: problemResponse('The key\'s token bucket is empty (`rate-limited`) or its daily quota is used (`daily-quota-exhausted`). '
          + 'Costs nothing.', { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }, [
          { kind: 'rate-limited', instance: path, detail: 'This API key sent requests faster than its limit allows; retry after the time in Retry-After.' },
          { kind: 'daily-quota-exhausted', instance: path, detail: 'This API key has used its requests for today (UTC); the quota renews at 00:00 UTC.' },
        ]),
        500: problemResponse('The service failed unexpectedly.', {},
          [{ kind: 'internal-error', instance: path, detail: 'The service failed to answer this request.' }]),
        503: problemResponse('The service or its rate limiter is temporarily unavailable; not charged to the daily quota.',
          RETRY_AFTER_HEADER, [{ kind: 'service-unavailable', instance: path, detail: 'The database is temporarily unavailable.' }]),
      },
    },
    handler: (request, reply) => {
      const query = request.query as ListQuery
      const page: PageRequest = { limit: query.limit ?? LIST_LIMIT.default, offset: query.offset ?? LIST_OFFSET.default }
      const { clubId } = principalOf(request)
      const slot = slotOf(clubId, page, context.clock.now())
      pages.serialize ??= reply.getSerializationFunction('200', 'application/json')
      return answerCached(context, reply, slot, readPage(clubId, page, slot))
    },
  })
}
