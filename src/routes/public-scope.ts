/**
 * What the public endpoints share (src/routes/public-courts.ts, src/routes/waiting-list.ts): their
 * prefix, the CORS they answer with, how a malformed request to a booking endpoint is answered, and
 * the slug of the club-not-found examples.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '../http/problem-types.js'
import { ProblemError, problemOf, sendProblem } from '../http/problems.js'
import { header } from '../http/responses.js'

export const PUBLIC_PREFIX = `${API_PREFIX}/public`

export const CORS = {
  origin: '*',
  exposedHeaders: ['Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'ETag'],
} as const

/**
 * Written by @fastify/cors on every answer of the public endpoints, whether or not the request has
 * an Origin; only requests refused before routing (a malformed URL) go without. Not `required`.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': header(Type.String({ description: 'Always `*`: a page on any origin may read the answer '
    + '(credentials are never involved). Sent on this endpoint\'s answers; a browser needs it on cross-origin requests.',
  examples: [CORS.origin] })),
  'access-control-expose-headers': header(Type.String({ description: 'The headers a cross-origin page may read, sent with '
    + 'Access-Control-Allow-Origin.', examples: [CORS.exposedHeaders.join(', ')] })),
}

/** A mistyped slug, for the examples of club-not-found. */
export const UNKNOWN_SLUG = 'tc-rivreside'

/** On the booking endpoints every malformed request is an invalid booking (contract §4). */
export function bookingErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problem = problemOf(error, request)
  void sendProblem(request, reply, problem.kind === 'validation-error'
    ? new ProblemError('invalid-booking', problem.message, {}, problem.invalidParams)
    : problem)
}
