/**
 * A club's courts and their blocks and reservations, as the dashboard and the command line change
 * them: one function per operation, each through the import (src/services/import.ts), so that a
 * court or hold entered anywhere obeys the same rules, and a change that would leave upcoming
 * bookings without a place is refused or cancels them (src/services/holds.ts), with the reason the
 * person gave in each guest's mail. Each change is recorded in the audit log, named as the club
 * knows it (the court's name, the hold's time), with the fields a court's change changed, and each
 * booking it cancelled.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { findCourt, findHold, deleteHold } from '../db/repositories/courts.js'
import type { Court, CourtHold } from '../db/repositories/courts.js'
import type { Database } from '../db/schema.js'
import { findClubById } from '../db/repositories/clubs.js'
import { WEEKDAYS, weeklyHoldOn } from '../domain/slots.js'
import type { Interval } from '../domain/slots.js'
import { addDays, formatInZone, localDateOf } from '../domain/zoned-time.js'
import type { Actor } from './audit.js'
import type { DisplacedBookings } from './holds.js'
import { importWithin, previewDisplacedBookings } from './import.js'
import { write } from './unit-of-work.js'
import { slotsFreed } from './waiting-list.js'
import type { FreedSettings } from './waiting-list.js'

/** Read as stored: a club's courts and holds. */
export { findCourt, findHold, listCourts, listHolds } from '../db/repositories/courts.js'
export type { Court, CourtHold } from '../db/repositories/courts.js'

/** A court or hold in the import format (docs/import-format.md); the import checks it whole, as it checks a file's entries. */
export interface Entry {
  readonly id: string
}

export interface CourtChangeOptions {
  readonly actor: Actor
  /**
   * Upcoming bookings the change leaves without a place: refuse the change (BookingsDisplaced), or
   * cancel them (with the policy's reason in each guest's mail).
   */
  readonly displaced: DisplacedBookings
}

/** A court's fields as the API names them, in the order a change lists them. */
const COURT_FIELDS: readonly [string, (court: Court) => unknown][] = [
  ['name', (court) => court.name], ['sport', (court) => court.sport], ['active', (court) => court.active],
  ['slot_minutes', (court) => court.slotMinutes],
  ['opening_hours', (court) => WEEKDAYS.map((day) => court.openingHours[day] ?? null)],
  ['booking_horizon_days', (court) => court.bookingHorizonDays], ['max_slots_per_booking', (court) => court.maxSlotsPerBooking],
]

/** Creates or changes a court; returns how many bookings were cancelled with it. */
export async function saveCourt(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  court: Entry,
  options: CourtChangeOptions,
): Promise<number> {
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const before = await findCourt(trx, clubId, court.id)
    const summary = await importWithin(work, clubId, { courts: [court] }, { displacedBookings: withCause(options.displaced,
      before === undefined ? undefined : `${before.name} changed`) })
    const after = await findCourt(trx, clubId, court.id)
    const fields = after === undefined
      ? []
      : COURT_FIELDS.filter(([, value]) => before === undefined
        || JSON.stringify(value(before)) !== JSON.stringify(value(after))).map(([name]) => name)
    await work.audit(options.actor, clubId, { action: before === undefined ? 'court.created' : 'court.changed',
      target: court.id.toLowerCase(), targetName: after?.name ?? before?.name ?? null, fields,
      detail: cancelledDetail(summary.bookings_cancelled) })
    return summary.bookings_cancelled
  })
}

/** Adds or changes a block or reservation; returns how many bookings were cancelled with it. */
export async function saveHold(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  hold: Entry & { readonly court_id: string },
  options: CourtChangeOptions,
): Promise<number> {
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const before = await findHold(trx, clubId, hold.id)
    const court = await findCourt(trx, clubId, hold.court_id)
    const cause = court === undefined ? undefined : `a block or reservation of ${court.name}`
    const summary = await importWithin(work, clubId, { court_holds: [hold] },
      { displacedBookings: withCause(options.displaced, cause) })
    const after = await findHold(trx, clubId, hold.id)
    const timezone = (await findClubById(trx, clubId))?.timezone ?? 'UTC'
    await work.audit(options.actor, clubId, { action: before === undefined ? 'hold.added' : 'hold.changed',
      target: hold.id.toLowerCase(), targetName: after === undefined ? null : holdLabel(after, court?.name ?? 'a court', timezone),
      detail: cancelledDetail(summary.bookings_cancelled) })
    return summary.bookings_cancelled
  })
}

/**
 * Removes a block or reservation of the club; false when the club has none with this id. The times
 * it held from now to the court's horizon are free: whoever waits for one of them is told.
 */
export async function removeHold(
  db: Kysely<Database>,
  clock: Clock,
  settings: FreedSettings,
  input: { readonly clubId: string, readonly holdId: string, readonly actor: Actor },
): Promise<boolean> {
  const { clubId, holdId, actor } = input
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const hold = await findHold(trx, clubId, holdId)
    if (hold === undefined || !await deleteHold(trx, clubId, holdId)) return false
    work.changed(`courts:${clubId}`)
    const court = await findCourt(trx, clubId, hold.courtId)
    const timezone = (await findClubById(trx, clubId))?.timezone ?? 'UTC'
    await work.audit(actor, clubId, { action: 'hold.removed', target: holdId.toLowerCase(),
      targetName: holdLabel(hold, court?.name ?? 'a court', timezone) })
    if (court !== undefined) {
      await slotsFreed(work, settings, { clubId, courtId: court.id, cause: 'hold_removed',
        intervals: heldUntilHorizon(hold, court, timezone, work.now) })
    }
    return true
  })
}

/** The intervals a hold occupied from today to the court's booking horizon: a weekly hold's occurrences, or a one-off's. */
function heldUntilHorizon(hold: CourtHold, court: Court, timeZone: string, now: number): Interval[] {
  if (hold.weekday === null) {
    const { startsAt, endsAt } = hold
    return startsAt === null || endsAt === null ? [] : [{ start: Date.parse(startsAt), end: Date.parse(endsAt) }]
  }
  const weekly = { weekday: hold.weekday, startTime: hold.startTime ?? '', endTime: hold.endTime ?? '', validFrom: hold.validFrom,
    validUntil: hold.validUntil }
  const today = localDateOf(now, timeZone)
  return Array.from({ length: court.bookingHorizonDays + 1 }, (_, i) => weeklyHoldOn(weekly, addDays(today, i), timeZone))
    .filter((interval) => interval !== undefined)
}

/** The ids of the upcoming bookings a court or hold as given would leave without a place, by start; nothing is written. */
export async function displacedBy(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  change: { readonly court: Entry } | { readonly hold: Entry },
): Promise<string[]> {
  return previewDisplacedBookings(db, clock, clubId, 'court' in change ? { courts: [change.court] } : { court_holds: [change.hold] })
}

/**
 * A block or reservation as the audit log names it, in the club's time: `Court 3: reservation,
 * every Tuesday 17:00–19:00 (training)`, `Court 1: block, 2027-05-04 08:00 – 2027-05-04 12:00`.
 */
export function holdLabel(hold: CourtHold, courtName: string, timezone: string): string {
  const local = (instant: string | null) => (instant === null
    ? ''
    : formatInZone(Date.parse(instant), timezone).slice(0, 16)
        .replace('T', ' '))
  const when = hold.weekday === null
    ? `${local(hold.startsAt)} – ${local(hold.endsAt)}`
    : `every ${WEEKDAY_NAMES[hold.weekday - 1] ?? ''} ${hold.startTime ?? ''}–${hold.endTime ?? ''}`
  return `${courtName}: ${hold.kind}, ${when}${hold.reason === null ? '' : ` (${hold.reason})`}`
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

function cancelledDetail(cancelled: number): string | null {
  return cancelled === 0 ? null : `${String(cancelled)} booking${cancelled === 1 ? '' : 's'} cancelled with it, the guests mailed`
}

/** The policy, with what caused a cancellation for the audit log's entry of each booking. */
function withCause(policy: DisplacedBookings, cause: string | undefined): DisplacedBookings {
  return policy.policy === 'cancel' && cause !== undefined ? { ...policy, cause } : policy
}
