/**
 * The one place where errors become problem documents (contract §7). Every error response of the
 * service — thrown by a route, raised by Fastify, or sent for an unknown path — passes through
 * here, so clients never see Fastify's default error bodies, stack traces or driver messages.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseBusy, isDatabaseUnavailable, isTransientConflict } from '../db/dialect.js'
import { ClubNotFound, DomainError, EditConflict, InsufficientScope, InvalidApiKey, InvalidBooking, InvalidRequest, QuotaExceeded,
  RateLimited, SlotConflict, StacklessError } from '../domain/errors.js'
import type { Refusal, RefusalCode } from '../domain/refusals.js'
import { LimiterUnavailable } from '../limits/store.js'
import type { Problem } from '../schemas/problem.js'
import { refusalText } from '../i18n/guest/index.js'
import { redactKeys } from './redaction.js'
import { PROBLEM_CODES, PROBLEM_TYPES, problemTypeUri } from './problem-types.js'
import type { ProblemKind } from './problem-types.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a request whose client closed the connection before it was complete. */
    clientAborted(): void
  }
  interface FastifyRequest {
    /** The kind of problem this request was answered with, if any (for metrics). */
    problemKind: ProblemKind | null
  }
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'
const RETRY_AFTER_UNAVAILABLE_SECONDS = 5

/** One offending parameter: its name as the client sent it, why in words, and why by code (default `invalid_value`). */
export interface InvalidParam {
  readonly name: string
  readonly reason: string
  readonly code?: RefusalCode
}

/**
 * An error that already knows its problem document (the fault it may stand for is logged, not this).
 * `refusals` are its reasons by code, field and values: what an endpoint that speaks the guest's
 * language says in it (src/http/guest-problems.ts); the first one's code is the document's `code`.
 */
export class ProblemError extends StacklessError {
  constructor(
    readonly kind: ProblemKind,
    detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly invalidParams?: readonly InvalidParam[],
    /** Extension members of this kind of problem, e.g. `current` of an `edit-conflict`. */
    readonly extensions: Readonly<Record<string, unknown>> = {},
    readonly refusals: readonly Refusal[] = [],
  ) {
    super(detail)
    this.name = 'ProblemError'
  }

  /** Why, by code: the first reason's, else the first parameter's, else the kind's own. */
  get code(): RefusalCode {
    return this.refusals[0]?.code ?? this.invalidParams?.[0]?.code ?? PROBLEM_CODES[this.kind]
  }
}

/** The most offending parameters one answer lists: a body of unknown fields is answered, not echoed. */
const MAX_INVALID_PARAMS = 20

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ProblemError): FastifyReply {
  const spec = PROBLEM_TYPES[error.kind]
  request.problemKind = error.kind
  const body: Problem = {
    type: problemTypeUri(error.kind),
    title: spec.title,
    status: spec.status,
    // A client may have put a key anywhere (a path segment, a parameter's name): never echoed.
    detail: redactKeys(error.message),
    instance: redactKeys(requestPath(request.url)),
    request_id: request.id,
    code: error.code,
    ...(error.invalidParams ? { invalid_params: error.invalidParams.map(redactParam) } : {}),
    ...error.extensions,
  }
  return reply.code(spec.status).headers(error.headers).type(PROBLEM_CONTENT_TYPE).send(body)
}

/**
 * The problem document of a refusal answered before routing (src/speed/fast-path.ts), byte for byte
 * what sendProblem serialises for it, as a function of the request id (which passed the request-id
 * check: nothing in it needs escaping). `instance` is a route's own path.
 */
export function refusalDocument(kind: ProblemKind, detail: string, instance: string): (requestId: string) => string {
  const spec = PROBLEM_TYPES[kind]
  const [start = '', end = ''] = JSON.stringify({ type: problemTypeUri(kind), title: spec.title, status: spec.status, detail, instance,
    request_id: '\u0000', code: PROBLEM_CODES[kind] }).split('\\u0000')
  return (requestId) => `${start}${requestId}${end}`
}

function redactParam(param: InvalidParam): Required<InvalidParam> {
  return { name: redactKeys(param.name), reason: redactKeys(param.reason), code: param.code ?? 'invalid_value' }
}

/** The path of the request without its query string (which may carry anything a client sent). */
export function requestPath(url: string): string {
  const end = url.indexOf('?')
  return end === -1 ? url : url.slice(0, end)
}

/** Errors Fastify raises for what a client sent, by code. */
const FRAMEWORK_ERRORS: Readonly<Record<string, readonly [ProblemKind, string, RefusalCode?]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload-too-large', 'The request body exceeds the size limit.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported-media-type', 'The request body must be application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['validation-error', 'The Content-Length header does not match the body.', 'invalid_body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['validation-error', 'The request body is empty; send a JSON object.', 'invalid_body'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['validation-error', 'The request body is not valid JSON.', 'invalid_body'],
  FST_ERR_BAD_URL: ['validation-error', 'The request URL is malformed.'],
  // A path segment longer than any identifier the API uses can name no resource.
  FST_ERR_MAX_PARAM_LENGTH: ['not-found', 'No resource at this path.'],
}

export function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error
  if (error instanceof DomainError) return fromDomainError(error)
  if (error instanceof LimiterUnavailable) {
    return new ProblemError('service-unavailable', 'The rate limiter is temporarily unavailable.', { 'retry-after': '1' })
  }
  if (isTransientConflict(error)) {
    // A deadlock or serialisation failure that outlasted its retries: the request itself was fine.
    return new ProblemError('service-unavailable', 'The database was busy with conflicting requests; retry shortly.',
      { 'retry-after': '1' })
  }
  if (isDatabaseBusy(error)) {
    return new ProblemError('service-unavailable', 'The service is busy; retry shortly. Nothing was changed.', { 'retry-after': '1' })
  }
  if (isDatabaseUnavailable(error)) {
    return new ProblemError('service-unavailable', 'The database is temporarily unavailable.',
      { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_SECONDS) })
  }
  const fastifyError = error as Partial<FastifyError>
  if (fastifyError.validation !== undefined) return fromValidation(fastifyError)
  const framework = fastifyError.code === undefined ? undefined : FRAMEWORK_ERRORS[fastifyError.code]
  if (framework !== undefined) {
    const [kind, detail, code] = framework
    return new ProblemError(kind, detail, {}, undefined, {}, code === undefined ? [] : [{ code }])
  }
  const status = fastifyError.statusCode
  if (status === 503) return new ProblemError('service-unavailable', 'The service is shutting down; retry shortly.',
    { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_SECONDS) })
  if (error instanceof SyntaxError && status === 400) {
    return new ProblemError('validation-error', 'The request body is not valid JSON.', {}, undefined, {}, [{ code: 'invalid_body' }])
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return new ProblemError('validation-error', 'The request is malformed.')
  }
  return new ProblemError('internal-error', 'The service failed to answer this request.')
}

function fromDomainError(error: DomainError): ProblemError {
  if (error instanceof InvalidApiKey) {
    const challenge = error.reason === 'missing'
      ? 'Bearer realm="club-platform"'
      : `Bearer realm="club-platform", error="invalid_token", error_description="${error.message}"`
    return new ProblemError('invalid-api-key', error.message, { 'www-authenticate': challenge })
  }
  if (error instanceof InsufficientScope) {
    return new ProblemError('insufficient-scope', error.message,
      { 'www-authenticate': `Bearer realm="club-platform", error="insufficient_scope", scope="${error.required}"` })
  }
  if (error instanceof InvalidRequest) {
    return new ProblemError('validation-error', error.message, {}, [{ name: error.parameter, reason: error.reason, code: error.code }],
      {}, [{ code: error.code, field: error.parameter }])
  }
  if (error instanceof RateLimited) {
    return new ProblemError('rate-limited', error.message, { 'retry-after': String(error.retryAfterSeconds) }, undefined, {},
      [{ code: 'rate_limited', params: { count: error.retryAfterSeconds } }])
  }
  if (error instanceof InvalidBooking) {
    // The staff's and developers' words for the whole, each field's reason by its code (the guest's words replace both).
    const fields = error.refusals.filter((refusal) => refusal.field !== undefined)
    return new ProblemError(error.kind, error.message, {}, fields.length === 0
      ? undefined
      : fields.map((refusal) => ({ name: refusal.field ?? '', reason: refusalText('en', refusal) ?? error.message, code: refusal.code })),
    {}, error.refusals)
  }
  if (error instanceof SlotConflict) return new ProblemError(error.kind, error.message, {}, undefined, {}, [error.refusal])
  if (error instanceof ClubNotFound) return new ProblemError(error.kind, error.message, {}, undefined, {}, [{ code: 'club_not_found' }])
  if (error instanceof QuotaExceeded) return new ProblemError(error.kind, error.message, error.headers)
  if (error instanceof EditConflict) return new ProblemError(error.kind, error.message, {}, undefined, { current: error.current })
  // Every domain error kind is a problem kind; the ones above only add headers or parameters.
  return new ProblemError(error.kind, error.message)
}

/** Ajv's errors, rewritten to name the parameter as the client wrote it. */
function fromValidation(error: Partial<FastifyError>): ProblemError {
  return validationProblem(error.validation ?? [], error.validationContext ?? 'request')
}

/** A failed check of a schema, as ajv reports it (Fastify's validation errors are ajv's). */
export interface SchemaIssue {
  readonly keyword: string
  readonly instancePath: string
  readonly params: Record<string, unknown>
  readonly message?: string | undefined
}

/** The problem of a request whose part (`context`: body, querystring, params) failed its schema: each field with its code. */
export function validationProblem(validation: readonly SchemaIssue[], context: string): ProblemError {
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field'
  const issues = validation.map((issue) => {
    const params = issue.params
    const fromPath = issue.instancePath.split('/').filter((part) => part !== '').join('.')
    const name = typeof params.additionalProperty === 'string'
      ? [fromPath, params.additionalProperty].filter((part) => part !== '').join('.')
      : typeof params.missingProperty === 'string'
        ? [fromPath, params.missingProperty].filter((part) => part !== '').join('.')
        : fromPath
    const reason = typeof params.additionalProperty === 'string'
      ? `unknown ${where}`
      // ajv-formats' range keywords still say "should"; every other message says "must".
      : (issue.message?.replace(/^should /, 'must ') ?? 'is invalid')
    const refusal = refusalOfIssue(issue.keyword, params, name === '' ? undefined : name)
    return { param: { name: name === '' ? context : name, reason, code: refusal.code }, refusal }
  // One reason per field: a value that fits no branch of a union fails each branch, and the first says most.
  }).filter((issue, i, all) => all.findIndex((other) => other.param.name === issue.param.name) === i).slice(0, MAX_INVALID_PARAMS)
  const first = issues[0]?.param ?? { name: context, reason: 'is invalid' }
  return new ProblemError('validation-error', `${capitalise(where)} "${first.name}" ${first.reason}.`, {},
    issues.map((issue) => issue.param), {}, issues.map((issue) => issue.refusal))
}

/** The keywords of ajv (and ajv-formats) whose failure means a value out of its range. */
const RANGE_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'formatMinimum', 'formatMaximum',
  'formatExclusiveMinimum', 'formatExclusiveMaximum', 'minItems', 'maxItems'])

/** The formats of the schemas, by the code a malformed value is refused with. */
const FORMAT_CODES: Readonly<Record<string, RefusalCode>> = {
  'email': 'invalid_email', 'date-time': 'invalid_date_time', 'date': 'invalid_date', 'uuid': 'invalid_id',
}

const KEYWORD_CODES: Readonly<Record<string, RefusalCode>> = {
  additionalProperties: 'unknown_field', required: 'required', type: 'invalid_type', maxLength: 'too_long',
  pattern: 'invalid_characters',
}

/** What a failed schema keyword means, by code; `field` is the parameter as the client named it (none: the whole request). */
function refusalOfIssue(keyword: string, params: Record<string, unknown>, field: string | undefined): Refusal {
  const limit = typeof params.limit === 'number' ? params.limit : undefined
  const code = codeOfIssue(keyword, params, field, limit)
  const values: Refusal['params'] = code === 'too_long' && limit !== undefined
    ? { count: limit }
    : code === 'out_of_range' && typeof params.comparison === 'string' && (typeof params.limit === 'string' || limit !== undefined)
      ? { range: `${params.comparison} ${String(params.limit)}` }
      : undefined
  return { code, ...field === undefined ? {} : { field }, ...values === undefined ? {} : { params: values } }
}

function codeOfIssue(keyword: string, params: Record<string, unknown>, field: string | undefined, limit: number | undefined):
RefusalCode {
  if (field === undefined) return 'invalid_body'
  if (keyword === 'format') return FORMAT_CODES[String(params.format)] ?? 'invalid_value'
  // An empty text where one is needed: the guest left the field empty.
  if (keyword === 'minLength' && limit === 1) return 'blank'
  if (RANGE_KEYWORDS.has(keyword)) return 'out_of_range'
  return KEYWORD_CODES[keyword] ?? 'invalid_value'
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * For errors Fastify raises before routing (a malformed path, an over-long path segment): no hook
 * has run yet, so the request id header is set here.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id)
  void sendProblem(request, reply, toProblemError(error))
}

/**
 * The client closed the connection before its request arrived whole (a body shorter than its
 * Content-Length): the socket error Node reports looks like a database's (ECONNRESET), but it is
 * no failure of the service. Nobody reads the answer.
 */
export function isClientAbort(request: FastifyRequest): boolean {
  return request.raw.destroyed && !request.raw.complete
}

/**
 * The problem for an error a handler raised, logged when it is the service's failure (5xx). Client
 * aborts are counted and noted at info level: they wake nobody.
 */
export function problemOf(error: unknown, request: FastifyRequest): ProblemError {
  if (isClientAbort(request)) {
    request.server.clientAborted()
    request.log.info({ method: request.method, path: redactKeys(requestPath(request.url)) }, 'client closed the connection mid-request')
    return new ProblemError('validation-error', 'The client closed the connection before the request was complete.')
  }
  const problem = toProblemError(error)
  if (PROBLEM_TYPES[problem.kind].status >= 500) request.log.error({ err: error }, 'request failed')
  return problem
}

export function registerProblemHandlers(app: FastifyInstance, onClientAbort: () => void = () => undefined): void {
  app.decorateRequest('problemKind', null)
  app.decorate('clientAborted', onClientAbort)
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, problemOf(error, request)))
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new ProblemError('not-found', `No resource at ${requestPath(request.url)}.`)))
}
