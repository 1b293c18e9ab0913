/**
 * What the public endpoints share (src/routes/public-courts.ts, src/routes/waiting-list.ts): their
 * prefix, the CORS they answer with, how a malformed request to a booking endpoint is answered, and
 * the slug of the club-not-found examples.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '../http/problem-types.js'
import { ProblemError, problemOf, sendProblem } from '../http/problems.js'
import { guestLanguageOf, inGuestLanguage, varyByLanguage } from '../http/guest-problems.js'
import { header, problemResponse, RETRY_AFTER_HEADER } from '../http/responses.js'

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

/** The headers of a public endpoint's refusal: CORS's, and the language it is written in (src/http/guest-problems.ts). */
export const PUBLIC_PROBLEM_HEADERS = {
  ...CORS_HEADERS,
  'content-language': header(Type.String({ description: 'The language of `detail` and of each `invalid_params` reason: the first '
    + 'of `Accept-Language` the service speaks (en, de, fr, es, it, nl), else `en`.', examples: ['de'] })),
}

/** A mistyped slug, for the examples of club-not-found. */
export const UNKNOWN_SLUG = 'tc-rivreside'

/** The answers every public endpoint may give besides its own: no club of the slug (`path` after it), a fault, unavailable. */
export function sharedPublicProblems(path: string) {
  return {
    404: problemResponse('No club has this slug (`club-not-found`).', PUBLIC_PROBLEM_HEADERS,
      [{ kind: 'club-not-found', instance: `${PUBLIC_PREFIX}/${UNKNOWN_SLUG}${path}`, detail: `No club with the slug "${UNKNOWN_SLUG}".` }]),
    500: problemResponse('The service failed unexpectedly.', PUBLIC_PROBLEM_HEADERS),
    503: problemResponse('The service is temporarily unavailable.', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS }),
  }
}

/** The answers of a public endpoint that takes a JSON body, to one too large or not JSON. */
export const PUBLIC_BODY_PROBLEMS = {
  413: problemResponse('The request body is too large (over 16 KiB).', PUBLIC_PROBLEM_HEADERS),
  415: problemResponse('The request body is not application/json.', PUBLIC_PROBLEM_HEADERS),
}

/** Every refusal of a public endpoint in the guest's language (src/http/guest-problems.ts). */
export function publicErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  varyByLanguage(reply)
  void sendProblem(request, reply, inGuestLanguage(problemOf(error, request), guestLanguageOf(request)))
}

/** On the booking endpoints every malformed request is an invalid booking (contract §4), in the guest's language. */
export function bookingErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problem = problemOf(error, request)
  varyByLanguage(reply)
  void sendProblem(request, reply, inGuestLanguage(problem.kind === 'validation-error'
    ? new ProblemError('invalid-booking', problem.message, {}, problem.invalidParams, {}, problem.refusals)
    : problem, guestLanguageOf(request)))
}
