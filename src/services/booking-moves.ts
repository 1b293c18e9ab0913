/**
 * Moving a booking to another time or court of its club: by the club (dashboard, admin API,
 * command line) or by its guest (the booking's page, within the club's cancellation deadline). The
 * booking stays the same booking — its id, its guest, its manage link and its calendar event's
 * UID — and its calendar sequence rises, so that the guest's mail (an iCalendar REQUEST of the same
 * event) updates the event in their calendar rather than adding one.
 *
 * The target is checked and locked as a new booking's slot is (src/services/bookings.ts): in one
 * transaction the target court's row is locked on PostgreSQL, its holds and bookings (the moved
 * one aside) are read, and the booking is updated — on PostgreSQL an exclusion constraint refuses
 * any overlap that a concurrent transaction committed meanwhile, so a move racing a public booking
 * of the same slot never leaves two active bookings. The move, its `booking.rescheduled` event and
 * its mail are written together or not at all.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { isExclusionViolation, isTransientConflict } from '../db/dialect.js'
import { findBooking, markMoved } from '../db/repositories/bookings.js'
import type { BookingDetails } from '../db/repositories/bookings.js'
import { courtForBooking, findCourt, occupancyOf } from '../db/repositories/courts.js'
import type { Database } from '../db/schema.js'
import { checkBookingTimes, occupancyOn, slotConflict, unknownCourt } from '../domain/booking-rules.js'
import { Conflict, InvalidBooking, NotFound, SlotConflict } from '../domain/errors.js'
import { daySlots, localDatesOf, slotStatus } from '../domain/slots.js'
import { formatInZone } from '../domain/zoned-time.js'
import { renderBookingMove } from '../mail/booking-mail.js'
import { bookingData } from '../webhooks/booking-events.js'
import type { Actor } from './audit.js'
import { bookingLabel, cancellationDeadline } from './booking-cancellation.js'
import { write } from './unit-of-work.js'
import { slotsFreed } from './waiting-list.js'

/** Where a booking is to go: a court of its club and times as the public API takes them (RFC 3339 with an offset). */
export interface MoveTarget {
  readonly court_id: string
  readonly start_time: string
  readonly end_time: string
}

export interface MoveSettings {
  readonly mailFrom: string
  /** The service's public base URL: the mails to those waiting for the time the booking leaves link it. */
  readonly publicUrl: URL
}

/** Who moves the booking: the club (with the actor the audit log names, and whether the guest is mailed) or its guest. */
export type Mover
  = | { readonly by: 'club', readonly actor: Actor, readonly notifyGuest: boolean }
    | { readonly by: 'guest', readonly manageUrl: string }

/** The booking after the move, and where it was before. */
export interface MovedBooking {
  readonly booking: BookingDetails
  readonly previous: { readonly courtId: string, readonly courtName: string, readonly start: number, readonly end: number }
}

/**
 * Moves a booking of the club. Refused: a booking of another club or none (NotFound), a cancelled
 * or ended one (Conflict), a target that is no active court of the club or not a bookable slot
 * (InvalidBooking; the club may move past the booking horizon, the guest may not), a taken target
 * (SlotConflict), and for the guest, a booking past the club's cancellation deadline (Conflict).
 * Moving a booking to where it is changes nothing and mails nothing.
 */
export async function moveBooking(
  db: Kysely<Database>,
  clock: Clock,
  settings: MoveSettings,
  input: { readonly clubId: string, readonly bookingId: string, readonly target: MoveTarget, readonly mover: Mover },
): Promise<MovedBooking> {
  const { clubId, bookingId, target, mover } = input
  const now = clock.now()
  let result: MovedBooking | undefined
  // Run again (up to three times) when the database aborted it only because of a concurrent transaction.
  for (let attempt = 1; result === undefined; attempt++) {
    try {
      result = await write(db, now, async (work): Promise<MovedBooking> => {
        const trx = work.db
        const booking = await findBooking(trx, clubId, bookingId)
        if (booking === undefined) throw new NotFound(`No booking with the id ${bookingId}.`)
        refuseUnmovable(booking, mover, now)
        const court = await courtForBooking(trx, clubId, target.court_id.toLowerCase())
        if (court?.active !== true) throw unknownCourt(target.court_id)
        // The club may place a booking beyond the horizon its guests book within.
        const interval = checkBookingTimes(court, booking.timezone, target, now, { horizon: mover.by === 'guest' })
        const was = { courtId: booking.courtId, courtName: booking.courtName, start: booking.start, end: booking.end }
        if (court.id === booking.courtId && interval.start === booking.start && interval.end === booking.end) {
          return { booking, previous: was }
        }
        const stored = (await occupancyOf(trx, clubId, [court.id], interval, booking.id)).get(court.id)
        const status = slotStatus(interval, occupancyOn(stored, localDatesOf(interval, booking.timezone), booking.timezone))
        if (status !== 'available') throw slotConflict(court.name, status)
        const sequence = await markMoved(trx, clubId, bookingId, { courtId: court.id, start: interval.start, end: interval.end })
        if (sequence === undefined) throw new Conflict('The booking was cancelled meanwhile: it stays cancelled.')
        const moved = { ...booking, courtId: court.id, courtName: court.name, start: interval.start, end: interval.end }
        if (mover.by === 'club') {
          await work.audit(mover.actor, clubId, { action: 'booking.moved', target: bookingId, targetName: bookingLabel(moved),
            detail: `from ${bookingLabel(booking)}` })
        }
        await work.events(clubId, [{ type: 'booking.rescheduled', subjectId: bookingId, data: {
          ...bookingData({ ...moved, cancelledAt: null, cancelledBy: null }),
          previous: { court_id: booking.courtId, court_name: booking.courtName,
            start_time: formatInZone(booking.start, booking.timezone), end_time: formatInZone(booking.end, booking.timezone) },
          moved_by: mover.by,
        } }])
        // A booking the club took without an address has no one to mail.
        if ((mover.by === 'guest' || mover.notifyGuest) && booking.bookerEmail !== '') {
          const mail = renderBookingMove({ bookingId, clubName: booking.clubName, timezone: booking.timezone,
            courtName: court.name, start: interval.start, end: interval.end, bookerName: booking.bookerName,
            bookerEmail: booking.bookerEmail, language: booking.language,
            contactEmail: booking.contactEmail, contactPhone: booking.contactPhone, clubAddress: booking.clubAddress,
            notes: booking.notes, mailFrom: settings.mailFrom, sequence, movedAt: now, by: mover.by,
            manageUrl: mover.by === 'guest' ? mover.manageUrl : null,
            previous: { courtName: booking.courtName, start: booking.start, end: booking.end } })
          await work.mail({ clubId, bookingId, recipientName: booking.bookerName, recipientEmail: booking.bookerEmail,
            subject: mail.subject, text: mail.text, html: mail.html, ics: mail.ics, senderName: booking.clubName,
            replyTo: booking.contactEmail }, settings.mailFrom)
        }
        // The time the booking leaves: whoever waits for it is told now.
        await slotsFreed(work, settings, { clubId, courtId: booking.courtId, cause: 'move', bookerEmail: booking.bookerEmail,
          intervals: [{ start: booking.start, end: booking.end }] })
        work.changed(`courts:${clubId}`)
        return { booking: moved, previous: was }
      })
    } catch (error) {
      if (isExclusionViolation(error)) throw new SlotConflict('The requested time is already booked.', { code: 'slot_booked' })
      if (attempt >= 3 || !isTransientConflict(error)) throw error
    }
  }
  return result
}

/** A time a booking could move to: its start and end, in the club's offset (as the API writes them). */
export interface FreeTime {
  readonly start_time: string
  readonly end_time: string
}

/**
 * The times on `date` (club-local) that the booking could be moved to by its guest now: on its
 * court, as long as it is, starting on a slot boundary, bookable by the court's rules (hours,
 * horizon, not begun) and free of other bookings, holds and blocks; not where it is. The move
 * itself checks again under the court's lock.
 */
export async function freeTimesFor(db: Kysely<Database>, clock: Clock, booking: BookingDetails, date: string):
Promise<FreeTime[]> {
  const now = clock.now()
  const court = await findCourt(db, booking.clubId, booking.courtId)
  if (court?.active !== true) return []
  const length = booking.end - booking.start
  const tz = booking.timezone
  const candidates = daySlots(court, date, tz).map((slot) => ({ start: slot.start, end: slot.start + length }))
    .filter((slot) => slot.start !== booking.start)
  const [first, last] = [candidates.at(0), candidates.at(-1)]
  if (first === undefined || last === undefined) return []
  const window = { start: first.start, end: last.end }
  const stored = (await occupancyOf(db, booking.clubId, [court.id], window, booking.id)).get(court.id)
  const free: FreeTime[] = []
  for (const slot of candidates) {
    const times = { start_time: formatInZone(slot.start, tz), end_time: formatInZone(slot.end, tz) }
    try {
      checkBookingTimes(court, tz, times, now)
    } catch (error) {
      if (error instanceof InvalidBooking) continue
      throw error
    }
    if (slotStatus(slot, occupancyOn(stored, localDatesOf(slot, tz), tz)) === 'available') free.push(times)
  }
  return free
}

/** A booking that is cancelled or over stays as it is; a guest moves only until the club's cancellation deadline. */
function refuseUnmovable(booking: BookingDetails, mover: Mover, now: number): void {
  if (booking.status === 'cancelled') throw new Conflict('The booking is cancelled: it cannot be moved.')
  if (booking.end <= now) throw new Conflict('The booking has ended: it stays as it was.')
  if (mover.by === 'guest') {
    const until = cancellationDeadline(booking.start, booking)
    if (now >= until) {
      throw new Conflict(`The booking can no longer be changed: changes were possible until ${
        formatInZone(until, booking.timezone).slice(0, 16).replace('T', ' ')} (${booking.timezone}).`)
    }
  }
}
