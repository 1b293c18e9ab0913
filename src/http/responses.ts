/** Building blocks for route response schemas, shared by every route's OpenAPI description. */
import { Type } from '@sinclair/typebox'
import type { TSchema } from '@sinclair/typebox'
import { Reference } from '../schemas/common.js'
import { Problem } from '../schemas/problem.js'
import type { RefusalCode } from '../domain/refusals.js'
import { PROBLEM_CODES, PROBLEM_TYPES, problemTypeUri } from './problem-types.js'
import type { ProblemKind } from './problem-types.js'
import { PROBLEM_CONTENT_TYPE } from './problems.js'

/**
 * Marks a response header as sent on every response of its status (OpenAPI's `required`, which
 * @fastify/swagger does not write itself: registerOpenApi lifts this marker onto the header).
 */
export const REQUIRED_HEADER = 'x-required-header'

/** A response header: its schema carries the description and examples. */
export function header<T extends TSchema>(schema: T, options: { readonly required?: boolean } = {}): T {
  return options.required === true ? { ...schema, [REQUIRED_HEADER]: true } : schema
}

/** A request id for examples: the one the docs quote. */
const EXAMPLE_REQUEST_ID = '3f4dd1c3-8e3d-4a2c-aae1-7d499876ff92'

export const REQUEST_ID_HEADER = {
  'x-request-id': header(Type.String({
    description: 'Identifies the request; the same value is in error bodies and logs.',
    examples: [EXAMPLE_REQUEST_ID],
  }), { required: true }),
}

export interface ProblemExample {
  readonly kind: ProblemKind
  readonly instance: string
  readonly detail: string
  /** Why, by code (by default the first parameter's, else the kind's own). */
  readonly code?: RefusalCode
  readonly invalidParams?: readonly { name: string, reason: string, code: RefusalCode }[]
}

/** A problem document as the service writes it, for a media-type example. */
export function problemExample(example: ProblemExample): Problem {
  const spec = PROBLEM_TYPES[example.kind]
  return {
    type: problemTypeUri(example.kind),
    title: spec.title,
    status: spec.status,
    detail: example.detail,
    instance: example.instance,
    request_id: EXAMPLE_REQUEST_ID,
    code: example.code ?? example.invalidParams?.[0]?.code ?? PROBLEM_CODES[example.kind],
    ...(example.invalidParams === undefined ? {} : { invalid_params: [...example.invalidParams] }),
  }
}

export function jsonResponse<T extends TSchema>(description: string, schema: T, headers: Record<string, TSchema> = {}) {
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { 'application/json': { schema } },
  } as const
}

/** A problem response; each example is named after its problem type and shown as a whole document. */
export function problemResponse(
  description: string,
  headers: Record<string, TSchema> = {},
  examples: readonly ProblemExample[] = [],
) {
  const media = examples.length === 0
    ? { schema: Reference(Problem) }
    : {
        schema: Reference(Problem),
        examples: Object.fromEntries(examples.map((example) => [example.kind, {
          summary: `${PROBLEM_TYPES[example.kind].title} (${example.kind})`,
          value: problemExample(example),
        }])),
      }
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { [PROBLEM_CONTENT_TYPE]: media },
  } as const
}

/** Sent on every 429 and 503. */
export const RETRY_AFTER_HEADER = {
  'retry-after': header(Type.Integer({ minimum: 0, description: 'Seconds to wait before retrying.', examples: [1] }), { required: true }),
}

/** Sent on every 401 and 403 of the authenticated endpoints. */
export const WWW_AUTHENTICATE_HEADER = {
  'www-authenticate': header(Type.String({
    description: 'Bearer challenge (RFC 6750); on a 403 it names the scope the endpoint requires.',
    examples: ['Bearer realm="club-platform", error="invalid_token", error_description="The API key is not valid."',
      'Bearer realm="club-platform", error="insufficient_scope", scope="read:groups"'],
  }), { required: true }),
}

/**
 * Sent on every 200, 304, 400 and 429 of the authenticated endpoints (contract §8), all integers;
 * plus the IETF draft's two. The examples belong together: a request at 14:00 UTC that left 59
 * tokens and 9,876 requests of the day.
 */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': header(Type.Integer({ description: 'Token bucket capacity (60 unless the key has its own).', examples: [60] }),
    { required: true }),
  'x-ratelimit-remaining': header(Type.Integer({ description: 'Whole tokens available right after this request.', examples: [59] }),
    { required: true }),
  'x-ratelimit-reset': header(Type.Integer({ description: 'Unix time (s) when the bucket would be full again without further requests.',
    examples: [1781618401] }), { required: true }),
  'x-ratelimit-day-limit': header(Type.Integer({ description: 'Authorised requests per UTC day (10,000 unless the key has its own).',
    examples: [10000] }), { required: true }),
  'x-ratelimit-day-remaining': header(Type.Integer({ description: 'Authorised requests left for the current UTC day.', examples: [9876] }),
    { required: true }),
  'x-ratelimit-day-reset': header(Type.Integer({ description: 'Unix time (s) of the next 00:00 UTC.', examples: [1781654400] }),
    { required: true }),
  'ratelimit-policy': header(Type.String({ description: 'IETF draft RateLimit-Policy: the bucket (`burst`, its window the time '
    + 'it takes to refill) and the day.', examples: ['"burst";q=60;w=60, "daily";q=10000;w=86400'] }), { required: true }),
  'ratelimit': header(Type.String({ description: 'IETF draft RateLimit: remaining (r) and seconds to reset (t) of each policy.',
    examples: ['"burst";r=59;t=1, "daily";r=9876;t=36000'] }), { required: true }),
}

/** An answer without a body (204): `type: null` is how @fastify/swagger leaves the content out. */
export function noContent(description: string) {
  return { type: 'null', description } as const
}
