/**
 * The booking rules, pure: the times a booking may have on a court (grid, hours, horizon, length),
 * what occupies a court on given dates, and how a conflict is worded. Typed on plain shapes, so the
 * rules know nothing of where courts and bookings are stored.
 */
import { parseDateTime } from './date-time.js'
import { InvalidBooking } from './errors.js'
import { slotsCovering, weeklyHoldOn } from './slots.js'
import type { CourtGrid, Interval, Occupancy, SlotStatus, WeeklyHold } from './slots.js'

const DAY = 86_400_000

/** A court as the rules see it. */
export interface BookableCourt extends CourtGrid {
  readonly name: string
  readonly bookingHorizonDays: number
  readonly maxSlotsPerBooking: number
}

/** The times a booking asks for, as sent (RFC 3339). */
export interface RequestedTimes {
  readonly start_time: string
  readonly end_time: string
}

/** What occupies a court as stored: one-off holds and bookings as intervals, weekly holds as patterns. */
export interface StoredOccupancy {
  readonly blocks: Interval[]
  readonly reservations: Interval[]
  readonly weeklyBlocks: WeeklyHold[]
  readonly weeklyReservations: WeeklyHold[]
  readonly bookings: Interval[]
}

/** How a slot-conflict names what is in the way. */
export const CONFLICT_WORDING: Readonly<Record<Exclude<SlotStatus, 'available'>, string>> = {
  blocked: 'blocked', reserved: 'reserved by the club', booked: 'already booked',
}

/** What occupies a court on the local dates given: one-off holds and bookings as stored, weekly holds on each of the dates. */
export function occupancyOn(stored: StoredOccupancy | undefined, dates: readonly string[], timeZone: string): Occupancy {
  if (stored === undefined) return { blocks: [], reservations: [], bookings: [] }
  const weekly = (holds: StoredOccupancy['weeklyBlocks']) =>
    dates.flatMap((date) => holds.map((hold) => weeklyHoldOn(hold, date, timeZone))).filter((hold) => hold !== undefined)
  return {
    blocks: [...stored.blocks, ...weekly(stored.weeklyBlocks)],
    reservations: [...stored.reservations, ...weekly(stored.weeklyReservations)],
    bookings: stored.bookings,
  }
}

/** The rules a booking's times must meet; returns the interval or throws InvalidBooking saying what is wrong. */
export function checkBookingTimes(court: BookableCourt, timeZone: string, input: RequestedTimes, now: number,
  options: { readonly horizon: boolean } = { horizon: true }): Interval {
  const start = parseDateTime(input.start_time)
  const end = parseDateTime(input.end_time)
  // Validation checks the same format; this keeps the rules safe when called without it.
  if (start === undefined) throw new InvalidBooking('start_time must be an RFC 3339 date-time with an offset.')
  if (end === undefined) throw new InvalidBooking('end_time must be an RFC 3339 date-time with an offset.')
  if (end <= start) throw new InvalidBooking('end_time must be after start_time.')
  if (start <= now) throw new InvalidBooking('start_time is in the past; book a slot that has not started yet.')
  if (options.horizon && start >= now + court.bookingHorizonDays * DAY) {
    throw new InvalidBooking(`start_time is beyond the booking horizon: ${court.name} can be booked at most `
      + `${String(court.bookingHorizonDays)} days ahead.`)
  }
  const coverage = slotsCovering(court, { start, end }, timeZone, court.maxSlotsPerBooking)
  switch (coverage.kind) {
    case 'slots':
      return { start, end }
    case 'closed':
      throw new InvalidBooking(`${court.name} is closed on ${coverage.date}.`)
    case 'outside-hours':
      throw new InvalidBooking(`The booking lies outside the opening hours of ${court.name} on ${coverage.date} `
        + `(${coverage.hours.open}–${coverage.hours.close}).`)
    case 'outside-hours-after-midnight':
      throw new InvalidBooking(`The booking lies outside the opening hours of ${court.name}: it runs past 24:00 on `
        + `${coverage.date} into ${coverage.next}, when ${court.name} `
        + `${coverage.hours === undefined ? 'is closed' : `is open ${coverage.hours.open}–${coverage.hours.close}`}.`)
    case 'off-grid':
      throw new InvalidBooking(`The times are not on the slot grid of ${court.name}: slots last ${String(court.slotMinutes)} `
        + `minutes from ${coverage.hours.open} on ${coverage.date}; start_time and end_time must be slot boundaries.`)
    case 'too-many':
      throw new InvalidBooking(`A booking of ${court.name} may cover at most ${String(coverage.limit)} slots; this one covers `
        + `${coverage.covered === undefined ? 'more' : String(coverage.covered)}.`)
  }
}
