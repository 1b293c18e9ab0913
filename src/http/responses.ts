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
