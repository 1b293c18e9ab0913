/**
 * Why a request was refused, as a client can tell without reading words: the `code` of a problem
 * document and of each of its `invalid_params` (docs/api.md, "Refusals"). A code is stable; its texts,
 * in the six languages, are the guest's (src/i18n/guest) and the widget's (widget/src/i18n.ts).
 */

/** A field of the request was missing, malformed or too long (the request's schema). */
export const FIELD_CODES = ['required', 'blank', 'unknown_field', 'invalid_type', 'invalid_email', 'invalid_date_time',
  'invalid_date', 'invalid_id', 'too_long', 'invalid_characters', 'out_of_range', 'invalid_value', 'repeated'] as const

/** A booking (or a wait for a time) that breaks the club's rules, or that meets another booking. */
export const BOOKING_CODES = ['court_unknown', 'end_before_start', 'start_in_past', 'beyond_horizon', 'court_closed',
  'outside_opening_hours', 'past_midnight', 'off_grid', 'too_many_slots', 'name_with_link', 'address_refused',
  'idempotency_key_invalid', 'idempotency_key_reused', 'slot_booked', 'slot_reserved', 'slot_blocked'] as const

/** The waiting list's own refusals. */
export const WAITING_CODES = ['not_one_slot', 'no_waiting_list', 'slot_free', 'address_cannot_wait'] as const

/** Refusals of the request as a whole: its body, its rate, the club, the service. */
export const REQUEST_CODES = ['invalid_body', 'rate_limited', 'club_not_found', 'payload_too_large', 'unsupported_media_type',
  'service_unavailable', 'internal_error'] as const

/**
 * Codes the public endpoints never answer with: the rest of the API's kinds of problem (each its
 * kind, spelt with underscores) and the club's own limits, which its staff are told.
 */
export const OTHER_CODES = ['invalid_request', 'invalid_api_key', 'insufficient_scope', 'daily_quota_exhausted', 'not_found',
  'method_not_allowed', 'request_timeout', 'not_signed_in', 'forbidden', 'cross_site_request', 'invalid_token', 'conflict',
  'edit_conflict', 'address_open_limit', 'address_daily_limit', 'override_reason_required'] as const

/** What the public booking and waiting-list endpoints can answer with: each has a text in every language. */
export const PUBLIC_REFUSAL_CODES = [...FIELD_CODES, ...BOOKING_CODES, ...WAITING_CODES, ...REQUEST_CODES] as const

export const REFUSAL_CODES = [...PUBLIC_REFUSAL_CODES, ...OTHER_CODES] as const

export type PublicRefusalCode = (typeof PUBLIC_REFUSAL_CODES)[number]
export type RefusalCode = (typeof REFUSAL_CODES)[number]

/** One reason of a refusal: its code, the field it concerns (if one), and the values its texts name. */
export interface Refusal {
  readonly code: RefusalCode
  /** A body field, query parameter or header, as the client named it (`booker_email`, `Idempotency-Key`). */
  readonly field?: string
  /** What the texts fill in: a court's name, a count (plural forms follow it), a date, opening hours. */
  readonly params?: Readonly<Record<string, string | number>>
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && (REFUSAL_CODES as readonly string[]).includes(value)
}
