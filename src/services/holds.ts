/**
 * Blocks and reservations laid over bookings. A hold that covers a booking would hide it: the
 * listing shows the slot blocked or reserved and nobody tells the guest. So whoever adds or moves
 * a hold (an import, the command line) decides: refuse the hold while it covers upcoming bookings
 * (the default, naming them), or cancel those bookings with it, each guest mailed. The check runs
 * under the courts' booking locks, so a booking made at the same moment is either seen here or
 * sees the hold — never a confirmed booking under a hold.
 */
import type { Kysely, Transaction } from 'kysely'
import { findBooking, upcomingBookingsOf } from '../db/repositories/bookings.js'
import { lockCourtForBooking } from '../db/dialect.js'
import type { Database } from '../db/schema.js'
import { InvalidInput } from '../domain/errors.js'
import { localDatesOf, weeklyHoldOn } from '../domain/slots.js'
import type { Interval } from '../domain/slots.js'
import { formatInZone } from '../domain/zoned-time.js'
import { cancelInTransaction } from './booking-cancellation.js'
import type { CancellationSettings } from './booking-cancellation.js'

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

/** What to do with upcoming bookings under a new or moved hold. */
export type BookingsUnderHolds
  = | { readonly policy: 'refuse' }
    | { readonly policy: 'cancel', readonly settings: CancellationSettings }

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

/**
 * Applies the policy to the upcoming confirmed bookings the holds cover (in the caller's
 * transaction, after the courts are locked). Returns the ids of the bookings cancelled; refuses
 * with InvalidInput naming each hold's bookings.
 */
export async function settleBookingsUnderHolds(
  trx: Kysely<Database>,
  club: { readonly id: string, readonly timezone: string },
  holds: readonly HoldShape[],
  now: number,
  under: BookingsUnderHolds,
): Promise<string[]> {
  const problems: string[] = []
  const covered = new Set<string>()
  const byCourt = new Map<string, Awaited<ReturnType<typeof upcomingBookingsOf>>>()
  for (const [i, hold] of holds.entries()) {
    let bookings = byCourt.get(hold.court_id)
    if (bookings === undefined) {
      bookings = await upcomingBookingsOf(trx, club.id, hold.court_id, now)
      byCourt.set(hold.court_id, bookings)
    }
    const hit = bookings.filter((booking) => covers(hold, booking, club.timezone))
    for (const booking of hit) covered.add(booking.id)
    if (hit.length > 0 && under.policy === 'refuse') {
      problems.push(`court_holds[${String(i)}]: covers ${String(hit.length)} upcoming booking${hit.length === 1 ? '' : 's'} (`
        + hit.slice(0, 5).map((booking) => `${formatInZone(booking.start, club.timezone)}, booking ${booking.id}`).join('; ')
        + `${hit.length > 5 ? '; …' : ''}); move the hold, or cancel the bookings with it`)
    }
  }
  if (problems.length > 0) throw new InvalidInput(`the holds cover upcoming bookings, nothing was changed:\n  ${problems.join('\n  ')}`,
    problems)
  if (under.policy === 'refuse') return []
  const cancelled: string[] = []
  for (const id of covered) {
    const booking = await findBooking(trx, club.id, id)
    if (booking === undefined) continue
    // The hold's reason is for the club's records: the guest's mail says only that the court is not available.
    if (await cancelInTransaction(trx, now, under.settings, booking, { by: 'hold', reason: null })) cancelled.push(id)
  }
  return cancelled
}
