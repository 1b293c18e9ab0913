/**
 * The booking rules, pure: the times a booking may have on a court (grid, hours, horizon, length),
 * what occupies a court on given dates, and how a conflict is worded. Typed on plain shapes, so the
 * rules know nothing of where courts and bookings are stored.
 */
import { parseDateTime } from './date-time.js'
import { InvalidBooking, SlotConflict } from './errors.js'
import { containsLink } from './links.js'
import type { RefusalCode } from './refusals.js'
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
  const refused = (message: string, code: RefusalCode, field: 'start_time' | 'end_time',
    params: Readonly<Record<string, string | number>> = {}) => new InvalidBooking(message, [{ code, field, params }])
  // Validation checks the same format; this keeps the rules safe when called without it.
  if (start === undefined) throw refused('start_time must be an RFC 3339 date-time with an offset.', 'invalid_date_time', 'start_time')
  if (end === undefined) throw refused('end_time must be an RFC 3339 date-time with an offset.', 'invalid_date_time', 'end_time')
  if (end <= start) throw refused('end_time must be after start_time.', 'end_before_start', 'end_time')
  if (start <= now) throw refused('start_time is in the past; book a slot that has not started yet.', 'start_in_past', 'start_time')
  const named = { court: court.name }
  if (options.horizon && start >= now + court.bookingHorizonDays * DAY) {
    throw refused(`start_time is beyond the booking horizon: ${court.name} can be booked at most `
      + `${String(court.bookingHorizonDays)} days ahead.`, 'beyond_horizon', 'start_time',
    { ...named, count: court.bookingHorizonDays })
  }
  const coverage = slotsCovering(court, { start, end }, timeZone, court.maxSlotsPerBooking)
  switch (coverage.kind) {
    case 'slots':
      return { start, end }
    case 'closed':
      throw refused(`${court.name} is closed on ${coverage.date}.`, 'court_closed', 'start_time', { ...named, date: coverage.date })
    case 'outside-hours':
      throw refused(`The booking lies outside the opening hours of ${court.name} on ${coverage.date} `
        + `(${coverage.hours.open}–${coverage.hours.close}).`, 'outside_opening_hours', 'start_time',
      { ...named, date: coverage.date, hours: `${coverage.hours.open}–${coverage.hours.close}` })
    case 'outside-hours-after-midnight':
      throw refused(`The booking lies outside the opening hours of ${court.name}: it runs past 24:00 on `
        + `${coverage.date} into ${coverage.next}, when ${court.name} `
        + `${coverage.hours === undefined ? 'is closed' : `is open ${coverage.hours.open}–${coverage.hours.close}`}.`,
      'past_midnight', 'end_time', { ...named, date: coverage.next })
    case 'off-grid':
      throw refused(`The times are not on the slot grid of ${court.name}: slots last ${String(court.slotMinutes)} `
        + `minutes from ${coverage.hours.open} on ${coverage.date}; start_time and end_time must be slot boundaries.`, 'off_grid',
      'start_time', { ...named, count: court.slotMinutes, open: coverage.hours.open })
    case 'too-many':
      throw refused(`A booking of ${court.name} may cover at most ${String(coverage.limit)} slots; this one covers `
        + `${coverage.covered === undefined ? 'more' : String(coverage.covered)}.`, 'too_many_slots', 'end_time',
      { ...named, count: coverage.limit })
  }
}

/** The codes of the slot conflicts, by what is in the way. */
export const CONFLICT_CODES: Readonly<Record<Exclude<SlotStatus, 'available'>, RefusalCode>> = {
  blocked: 'slot_blocked', reserved: 'slot_reserved', booked: 'slot_booked',
}

/** A slot that is not free: a SlotConflict naming what is in the way, in words and by code. */
export function slotConflict(courtName: string, status: Exclude<SlotStatus, 'available'>): SlotConflict {
  return new SlotConflict(`The requested time on ${courtName} is ${CONFLICT_WORDING[status]}.`,
    { code: CONFLICT_CODES[status], params: { court: courtName } })
}

/**
 * The booker's name as the rules take it: something besides spaces, and no web or e-mail address
 * (mails repeat the name; a link there would be a stranger's). Each refusal names the field as sent.
 */
export function nameRefusals(name: string, field: string): InvalidBooking[] {
  if (name.trim() === '') return [new InvalidBooking(`${field}: give a name, not only spaces.`, [{ code: 'blank', field }])]
  if (containsLink(name)) {
    return [new InvalidBooking(`${field}: give a name without web or e-mail addresses (write "St. Pauli", not "St.Pauli").`,
      [{ code: 'name_with_link', field }])]
  }
  return []
}

/** The court a request names is no active court of the club. */
export function unknownCourt(courtId: string): InvalidBooking {
  return new InvalidBooking(`court_id: ${courtId} is not an active court of this club.`,
    [{ code: 'court_unknown', field: 'court_id' }])
}

/**
 * The times and the name of a request together: every refusal among them at once (InvalidBooking
 * with each of them), else the interval.
 */
export function checkTimesAndName(court: BookableCourt, timeZone: string, input: RequestedTimes, now: number,
  name: { readonly value: string, readonly field: string }, options: { readonly horizon: boolean } = { horizon: true }):
Interval {
  const refused = nameRefusals(name.value, name.field)
  let interval: Interval | undefined
  try {
    interval = checkBookingTimes(court, timeZone, input, now, options)
  } catch (error) {
    if (!(error instanceof InvalidBooking)) throw error
    refused.unshift(error)
  }
  if (interval === undefined || refused.length > 0) throw InvalidBooking.all(refused)
  return interval
}
