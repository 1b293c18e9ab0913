/**
 * Changes that leave bookings without a place. A hold that covers a booking would hide it: the
 * listing shows the slot blocked or reserved and nobody tells the guest. A court made inactive, or
 * given hours or a slot length its booked slots no longer fit, would orphan them the same way. So
 * whoever makes such a change (the dashboard, an import, the command line) decides: refuse it while
 * it displaces upcoming bookings (the default, naming them), or cancel those bookings with it, each
 * guest mailed. The check runs under the courts' booking locks, so a booking made at the same
 * moment is either seen here or sees the change — never a confirmed booking without its slot.
 */
import type { Kysely, Transaction } from 'kysely'
import { findBookings, upcomingBookingsOf } from '../db/repositories/bookings.js'
import { lockCourtForBooking } from '../db/dialect.js'
import type { Database } from '../db/schema.js'
import { InvalidInput } from '../domain/errors.js'
import { localDatesOf, slotsCovering, weeklyHoldOn } from '../domain/slots.js'
import type { CourtGrid, Interval } from '../domain/slots.js'
import { formatInZone } from '../domain/zoned-time.js'
import { cancelIn } from './booking-cancellation.js'
import type { CancellationSettings } from './booking-cancellation.js'
import type { Actor } from './audit.js'
import type { UnitOfWork } from './unit-of-work.js'

/** A hold as the import states it: one-off (instants) or weekly (local times). */
export interface HoldShape {
  readonly court_id: string
  readonly starts_at?: string | undefined
  readonly ends_at?: string | undefined
  readonly weekday?: number | undefined
  readonly start_time?: string | undefined
  readonly end_time?: string | undefined
  readonly valid_from?: string | null | undefined
  readonly valid_until?: string | null | undefined
}

/** A court as the import writes it: its grid and whether it is in use. */
export interface CourtShape extends CourtGrid {
  readonly id: string
  readonly active: boolean
}

/**
 * What to do with upcoming bookings that a change (a hold laid over them, a court's new grid) leaves
 * without a place: refuse the change, or cancel them — with the reason the person gave, which each
 * guest's mail carries, recorded in the audit log by `actor` with what caused it.
 */
export type DisplacedBookings = { readonly policy: 'refuse' } | CancelDisplaced

/** Cancel the bookings in the way: each guest mailed the reason; recorded in the audit log by `actor`, with the `cause`. */
export interface CancelDisplaced {
  readonly policy: 'cancel'
  readonly settings: CancellationSettings
  readonly reason?: string | null
  readonly actor?: Actor
  readonly cause?: string
}

/** Takes the booking lock of every court, in a fixed order (no deadlock between two such transactions). */
export async function lockCourts(trx: Transaction<Database>, courtIds: readonly string[]): Promise<void> {
  for (const courtId of [...new Set(courtIds)].sort()) await lockCourtForBooking(trx, courtId)
}

function covers(hold: HoldShape, booking: Interval, timeZone: string): boolean {
  if (hold.starts_at !== undefined && hold.ends_at !== undefined) {
    return Date.parse(hold.starts_at) < booking.end && Date.parse(hold.ends_at) > booking.start
  }
  if (hold.weekday === undefined || hold.start_time === undefined || hold.end_time === undefined) return false
  const weekly = { weekday: hold.weekday, startTime: hold.start_time, endTime: hold.end_time, validFrom: hold.valid_from ?? null,
    validUntil: hold.valid_until ?? null }
  return localDatesOf(booking, timeZone).some((date) => {
    const on = weeklyHoldOn(weekly, date, timeZone)
    return on !== undefined && on.start < booking.end && on.end > booking.start
  })
}

/** A booking keeps its place on a court that is in use and whose grid still has its slots (any number of them). */
function fits(court: CourtShape, booking: Interval, timeZone: string): boolean {
  return court.active && slotsCovering(court, booking, timeZone, Number.POSITIVE_INFINITY).kind === 'slots'
}

/** The courts and holds a change writes; either list may be empty. */
export interface CourtChange {
  readonly courts?: readonly CourtShape[]
  readonly holds?: readonly HoldShape[]
}

interface Displacement {
  /** Where, in the import's terms: `courts[0]`, `court_holds[2]`. */
  readonly at: string
  readonly what: string
  readonly bookings: readonly (Interval & { readonly id: string })[]
}

async function displacements(
  db: Kysely<Database>,
  club: { readonly id: string, readonly timezone: string },
  change: CourtChange,
  now: number,
): Promise<Displacement[]> {
  const byCourt = new Map<string, Awaited<ReturnType<typeof upcomingBookingsOf>>>()
  const upcoming = async (courtId: string) => {
    let bookings = byCourt.get(courtId)
    if (bookings === undefined) {
      bookings = await upcomingBookingsOf(db, club.id, courtId, now)
      byCourt.set(courtId, bookings)
    }
    return bookings
  }
  const found: Displacement[] = []
  for (const [i, court] of (change.courts ?? []).entries()) {
    const bookings = (await upcoming(court.id)).filter((booking) => !fits(court, booking, club.timezone))
    if (bookings.length > 0) {
      found.push({ at: `courts[${String(i)}]`, what: court.active ? 'its new hours or slot length leave' : 'being inactive leaves', bookings })
    }
  }
  for (const [i, hold] of (change.holds ?? []).entries()) {
    const bookings = (await upcoming(hold.court_id)).filter((booking) => covers(hold, booking, club.timezone))
    if (bookings.length > 0) found.push({ at: `court_holds[${String(i)}]`, what: 'covers', bookings })
  }
  return found
}

/** The ids of the upcoming confirmed bookings a change would leave without a place, by start. */
export async function displacedBookingIds(
  db: Kysely<Database>,
  club: { readonly id: string, readonly timezone: string },
  change: CourtChange,
  now: number,
): Promise<string[]> {
  const found = await displacements(db, club, change, now)
  const bookings = new Map(found.flatMap((displacement) => displacement.bookings.map((booking) => [booking.id, booking])))
  return [...bookings.values()].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id)).map((booking) => booking.id)
}

/** A change refused because it would leave upcoming bookings without a place; `bookingIds` names them. */
export class BookingsDisplaced extends InvalidInput {
  constructor(message: string, problems: readonly string[], readonly bookingIds: readonly string[]) {
    super(message, problems)
  }
}

/**
 * Applies the policy to the upcoming confirmed bookings that the change leaves without a place: a
 * hold covering them, a court now inactive, or a court whose new hours or slot length no longer
 * have their slots (in the caller's transaction, after the courts are locked and the change is
 * written). Returns the ids of the bookings cancelled; refuses with BookingsDisplaced naming them.
 */
export async function settleDisplacedBookings(
  work: UnitOfWork,
  club: { readonly id: string, readonly timezone: string },
  change: CourtChange,
  policy: DisplacedBookings,
): Promise<string[]> {
  const { db: trx, now } = work
  const found = await displacements(trx, club, change, now)
  const ids = [...new Set(found.flatMap((displacement) => displacement.bookings.map((booking) => booking.id)))]
  if (ids.length === 0) return []
  if (policy.policy === 'refuse') {
    const problems = found.map(({ at, what, bookings }) => `${at}: ${what} ${String(bookings.length)} upcoming `
      + `booking${bookings.length === 1 ? '' : 's'} (`
      + bookings.slice(0, 5).map((booking) => `${formatInZone(booking.start, club.timezone)}, booking ${booking.id}`).join('; ')
      + `${bookings.length > 5 ? '; …' : ''}); ${at.startsWith('courts') ? 'keep their slots' : 'move the hold'}, `
      + `or cancel the bookings with the change`)
    throw new BookingsDisplaced(`the change leaves upcoming bookings without a place, nothing was changed:\n  ${problems.join('\n  ')}`,
      problems, ids)
  }
  const underHolds = new Set(found.filter(({ at }) => at.startsWith('court_holds'))
    .flatMap((displacement) => displacement.bookings.map((booking) => booking.id)))
  const cancelled: string[] = []
  for (const booking of await findBookings(trx, club.id, ids)) {
    const { id } = booking
    // The hold's own reason is for the club's records: the guest's mail says that the court is not available, and the
    // reason given for cancelling, if any.
    const by = underHolds.has(id) ? 'hold' : 'club'
    const reason = policy.reason?.trim() === '' ? null : policy.reason ?? null
    if (await cancelIn(work, policy.settings, booking, { by, reason }, policy.actor, policy.cause)) {
      cancelled.push(id)
    }
  }
  return cancelled
}
