/** Building blocks for route response schemas, shared by every route's OpenAPI description. */
import { Type } from '@sinclair/typebox'
import type { TSchema } from '@sinclair/typebox'
import { Reference } from '../schemas/common.js'
import { Problem } from '../schemas/problem.js'
import { PROBLEM_CONTENT_TYPE } from './problems.js'

export const REQUEST_ID_HEADER = {
  'x-request-id': Type.String({ description: 'Identifies the request; the same value is in error bodies and logs.' }),
}

export function jsonResponse<T extends TSchema>(description: string, schema: T, headers: Record<string, TSchema> = {}) {
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { 'application/json': { schema } },
  } as const
}

export function problemResponse(description: string, headers: Record<string, TSchema> = {}) {
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { [PROBLEM_CONTENT_TYPE]: { schema: Reference(Problem) } },
  } as const
}

export const RETRY_AFTER_HEADER = {
  'retry-after': Type.Integer({ minimum: 0, description: 'Seconds to wait before retrying.' }),
}

export const WWW_AUTHENTICATE_HEADER = {
  'www-authenticate': Type.String({ description: 'Bearer challenge (RFC 6750).' }),
}

/** Sent on 200, 400 and 429 of the authenticated endpoints (contract §8), all integers; plus the IETF draft's two. */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': Type.Integer({ description: 'Token bucket capacity (60 unless the key has its own).' }),
  'x-ratelimit-remaining': Type.Integer({ description: 'Whole tokens available right after this request.' }),
  'x-ratelimit-reset': Type.Integer({ description: 'Unix time (s) when the bucket would be full again without further requests.' }),
  'x-ratelimit-day-limit': Type.Integer({ description: 'Authorised requests per UTC day (10,000 unless the key has its own).' }),
  'x-ratelimit-day-remaining': Type.Integer({ description: 'Authorised requests left for the current UTC day.' }),
  'x-ratelimit-day-reset': Type.Integer({ description: 'Unix time (s) of the next 00:00 UTC.' }),
  'ratelimit-policy': Type.String({ description: 'IETF draft RateLimit-Policy: `"burst";q=60;w=60, "daily";q=10000;w=86400`.' }),
  'ratelimit': Type.String({ description: 'IETF draft RateLimit: remaining (r) and seconds to reset (t) of each policy.' }),
}
