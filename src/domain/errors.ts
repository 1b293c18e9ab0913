import type { Refusal, RefusalCode } from './refusals.js'
import type { Scope } from './scopes.js'

/**
 * Errors of the service's own rules. Thrown anywhere below HTTP; mapped to problem documents in
 * one place (src/http/problems.ts).
 */
/**
 * An error that is an answer, not a fault: its stack says nothing useful, and capturing one was
 * most of the cost of a refusal (the 429 path), so none is captured.
 */
export class StacklessError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = limit
  }
}

/** An outcome the client caused (a bad key, a full bucket, a taken slot). */
export abstract class DomainError extends StacklessError {
  abstract readonly kind: DomainErrorKind
}

export type DomainErrorKind = InvalidApiKey['kind'] | InsufficientScope['kind'] | InvalidRequest['kind'] | InvalidBooking['kind']
  | SlotConflict['kind'] | ClubNotFound['kind'] | RateLimited['kind'] | QuotaExceeded['kind'] | NotSignedIn['kind']
  | Forbidden['kind'] | CrossSiteRequest['kind'] | InvalidToken['kind'] | Conflict['kind'] | EditConflict['kind'] | NotFound['kind']

export type InvalidApiKeyReason = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked'

export class InvalidApiKey extends DomainError {
  readonly kind = 'invalid-api-key'
  constructor(readonly reason: InvalidApiKeyReason) {
    super(INVALID_KEY_DETAIL[reason])
  }
}

const INVALID_KEY_DETAIL: Record<InvalidApiKeyReason, string> = {
  missing: 'This endpoint needs an API key: send it as "Authorization: Bearer <key>".',
  malformed: 'The Authorization header does not hold a well-formed API key.',
  unknown: 'The API key is not valid.',
  expired: 'The API key has expired.',
  revoked: 'The API key has been revoked.',
}

export class InsufficientScope extends DomainError {
  readonly kind = 'insufficient-scope'
  constructor(readonly required: Scope) {
    super(`The API key lacks the scope "${required}" that this endpoint requires.`)
  }
}

export type ParameterLocation = 'query parameter' | 'path parameter' | 'field' | 'header'

/** A request whose parameters break the contract; `parameter` names the offender, `code` says how. */
export class InvalidRequest extends DomainError {
  readonly kind = 'validation-error'
  constructor(readonly location: ParameterLocation, readonly parameter: string, readonly reason: string,
    readonly code: RefusalCode = 'invalid_value') {
    super(`${location.charAt(0).toUpperCase()}${location.slice(1)} "${parameter}" ${reason}.`)
  }
}

/**
 * A booking request that can never succeed as sent: unknown court, off the grid, in the past, …
 * The message says it to the club's staff and developers; `refusals` give each reason's code, field
 * and values, which the public endpoints say in the guest's language.
 */
export class InvalidBooking extends DomainError {
  readonly kind = 'invalid-booking'
  constructor(message: string, readonly refusals: readonly Refusal[]) {
    super(message)
  }

  /** Several refusals of one request, answered at once. */
  static all(refused: readonly InvalidBooking[]): InvalidBooking {
    return refused.length === 1 && refused[0] !== undefined
      ? refused[0]
      : new InvalidBooking(refused.map((error) => error.message).join(' '), refused.flatMap((error) => error.refusals))
  }
}

/** A booking request for time that is already booked, reserved or blocked (`refusal` says which). */
export class SlotConflict extends DomainError {
  readonly kind = 'slot-conflict'
  constructor(message: string, readonly refusal: Refusal) {
    super(message)
  }
}

export class ClubNotFound extends DomainError {
  readonly kind = 'club-not-found'
  constructor(slug: string) {
    super(`No club with the slug "${slug}".`)
  }
}

/**
 * A client used up its request budget, or an address or club its mails of a day; `retryAfterSeconds`
 * until the next is admitted, `detail` what was limited (default: requests).
 */
export class RateLimited extends DomainError {
  readonly kind = 'rate-limited'
  constructor(readonly retryAfterSeconds: number, detail?: string) {
    super(detail ?? `Too many requests; retry in ${String(retryAfterSeconds)} s.`)
  }
}

/** An API key's token bucket is empty or its daily quota used; `headers` carry the budget and Retry-After. */
export class QuotaExceeded extends DomainError {
  readonly kind: 'rate-limited' | 'daily-quota-exhausted'
  constructor(refusal: 'burst' | 'daily', readonly headers: Readonly<Record<string, string>>) {
    super(refusal === 'daily'
      ? 'This API key has used its requests for today (UTC); the quota renews at 00:00 UTC.'
      : 'This API key sent requests faster than its limit allows; retry after the time in Retry-After.')
    this.kind = refusal === 'daily' ? 'daily-quota-exhausted' : 'rate-limited'
  }
}

/** Dashboard API: no live session. */
export class NotSignedIn extends DomainError {
  readonly kind = 'not-signed-in'
  constructor() {
    super('Sign in to use the dashboard: no session cookie was sent, or the session has ended.')
  }
}

/** Dashboard API: the person's role in the club does not allow the action. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden'
}

/** Dashboard API: a state-changing request from another origin. */
export class CrossSiteRequest extends DomainError {
  readonly kind = 'cross-site-request'
}

/** A sign-in link or invitation that is unknown, used, withdrawn or expired. */
export class InvalidToken extends DomainError {
  readonly kind = 'invalid-token'
}

/** A change that would break a rule of the current state (no owner left, a member invited again). */
export class Conflict extends DomainError {
  readonly kind = 'conflict'
}

/**
 * A change that started from a version of a record that has changed since (someone else saved it
 * meanwhile): nothing was written. `current` is the record as it is now, as the caller shows it.
 */
export class EditConflict extends DomainError {
  readonly kind = 'edit-conflict'
  constructor(message: string, readonly current?: unknown) {
    super(message)
  }
}

/** A record that does not exist for this club (or belongs to another: the answer is the same). */
export class NotFound extends DomainError {
  readonly kind = 'not-found'
}

/** Bad input to an administrative operation (command line, import file); never reaches HTTP. */
export class InvalidInput extends Error {
  constructor(message: string, readonly problems: readonly string[] = [message]) {
    super(message)
    this.name = 'InvalidInput'
  }
}
