/**
 * The catalogue of problem types (`type` of every error body). Each entry is documented in the
 * OpenAPI description and served as a page at its own URI.
 */
import type { RefusalCode } from '../domain/refusals.js'

export const API_PREFIX = '/api/v1'
export const PROBLEMS_PATH = `${API_PREFIX}/problems`

export const PROBLEM_TYPES = {
  'validation-error': {
    status: 400,
    title: 'Invalid request',
    description: 'A query parameter, path parameter or body field breaks the contract: unknown, repeated, '
      + 'malformed or out of range. `detail` and `invalid_params` name the parameter. After authorisation it '
      + 'still counts as a call.',
  },
  'invalid-api-key': {
    status: 401,
    title: 'Missing or invalid API key',
    description: 'No API key was sent, or the key is malformed, unknown, expired or revoked. Send '
      + '`Authorization: Bearer <key>` with a key created by your club administrator.',
  },
  'insufficient-scope': {
    status: 403,
    title: 'Insufficient scope',
    description: 'The API key is valid but was not granted the scope this endpoint requires. Ask your club '
      + 'administrator for a key with that scope.',
  },
  'invalid-booking': {
    status: 400,
    title: 'Invalid booking request',
    description: 'The booking can never succeed as sent: unknown or inactive court, times off the court\'s slot grid, '
      + 'outside opening hours, in the past, beyond the booking horizon, longer than allowed, or the booker already has '
      + 'the most open bookings allowed. `detail` says which.',
  },
  'slot-conflict': {
    status: 400,
    title: 'Slot not available',
    description: 'The requested time overlaps a booking, a club reservation or a block of that court. Choose another '
      + 'slot; GET /api/v1/public/{clubSlug}/courts shows which are available.',
  },
  'club-not-found': {
    status: 404,
    title: 'Club not found',
    description: 'No club has this slug.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No resource exists at this path.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but does not accept this HTTP method; the `Allow` header lists the methods it accepts.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Request body too large',
    description: 'The request body exceeds the size limit.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body has a content type this endpoint does not accept; send application/json.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request timeout',
    description: 'The request (its headers, or its body) did not arrive in time; the connection is closed. Send the whole '
      + 'request promptly.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description: 'The token bucket is empty: the API key (or, on public endpoints, the client) sent requests faster than '
      + 'its refill. Retry after the number of seconds in `Retry-After`; the X-RateLimit-* headers show the budget.',
  },
  'daily-quota-exhausted': {
    status: 429,
    title: 'Daily quota exhausted',
    description: 'The API key has used all its authorised requests for the current UTC day. `Retry-After` counts the seconds '
      + 'to 00:00 UTC, when the quota is available again.',
  },
  'not-signed-in': {
    status: 401,
    title: 'Not signed in',
    description: 'Dashboard API: no session cookie was sent, or the session has ended (signed out, revoked, idle or '
      + 'past its maximum age). Sign in again.',
    admin: true,
  },
  'forbidden': {
    status: 403,
    title: 'Not allowed',
    description: 'Dashboard API: the signed-in person\'s role in this club does not allow this action '
      + '(docs/dashboard.md, "Roles").',
    admin: true,
  },
  'cross-site-request': {
    status: 403,
    title: 'Cross-site request refused',
    description: 'Dashboard API: a request that changes something must come from the dashboard\'s own origin '
      + '(`Origin` equal to the service\'s public URL, or `Sec-Fetch-Site: same-origin`).',
    admin: true,
  },
  'invalid-token': {
    status: 400,
    title: 'Link not valid',
    description: 'Dashboard API: the sign-in link or invitation is unknown, used already, withdrawn or expired. '
      + 'Ask for a new one.',
    admin: true,
  },
  'conflict': {
    status: 409,
    title: 'Conflict',
    description: 'Dashboard API: the change would break a rule of the club\'s current state, such as leaving it '
      + 'without an owner, or inviting someone who is a member already.',
    admin: true,
  },
  'edit-conflict': {
    status: 409,
    title: 'Changed meanwhile',
    description: 'Dashboard API: the record was changed by someone else since the version the change started from; nothing '
      + 'was saved. The member `current` holds the record as it is now: show it, and send the change again with its version.',
    admin: true,
  },
  'internal-error': {
    status: 500,
    title: 'Internal server error',
    description: 'The service failed unexpectedly. The error has been logged under the request id; retrying may help.',
  },
  'service-unavailable': {
    status: 503,
    title: 'Service temporarily unavailable',
    description: 'A dependency of the service (such as its database) is unavailable or the service is shutting '
      + 'down. Retry after the number of seconds in `Retry-After`. Such a response is not charged to the daily quota.',
  },
} as const satisfies Record<string, { status: number, title: string, description: string, admin?: true }>

export type ProblemKind = keyof typeof PROBLEM_TYPES
export const PROBLEM_KINDS = Object.keys(PROBLEM_TYPES) as ProblemKind[]
/** The kinds the public API answers with (the dashboard's own are left out of its description). */
export const PUBLIC_PROBLEM_KINDS = PROBLEM_KINDS.filter((kind) => !('admin' in PROBLEM_TYPES[kind]))

export function problemTypeUri(kind: ProblemKind): string {
  return `${PROBLEMS_PATH}/${kind}`
}

/** The `code` of a problem of each kind when nothing finer says why (src/domain/refusals.ts). */
export const PROBLEM_CODES: Readonly<Record<ProblemKind, RefusalCode>> = {
  'validation-error': 'invalid_request',
  'invalid-api-key': 'invalid_api_key',
  'insufficient-scope': 'insufficient_scope',
  'invalid-booking': 'invalid_value',
  'slot-conflict': 'slot_booked',
  'club-not-found': 'club_not_found',
  'not-found': 'not_found',
  'method-not-allowed': 'method_not_allowed',
  'payload-too-large': 'payload_too_large',
  'unsupported-media-type': 'unsupported_media_type',
  'request-timeout': 'request_timeout',
  'rate-limited': 'rate_limited',
  'daily-quota-exhausted': 'daily_quota_exhausted',
  'not-signed-in': 'not_signed_in',
  'forbidden': 'forbidden',
  'cross-site-request': 'cross_site_request',
  'invalid-token': 'invalid_token',
  'conflict': 'conflict',
  'edit-conflict': 'edit_conflict',
  'internal-error': 'internal_error',
  'service-unavailable': 'service_unavailable',
}
