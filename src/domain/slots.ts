/**
 * The slot grid of a court and the status of each slot: pure functions of the court, the date,
 * what occupies the court, and the club's time zone.
 */
import { addDays, isoWeekday, localDateOf, localToInstant, parseClockTime } from './zoned-time.js'

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Club-local opening hours per weekday; null or absent: closed that day. close may be "24:00". */
export type OpeningHours = Partial<Record<Weekday, { open: string, close: string } | null>>

export const DEFAULT_OPENING_HOURS: OpeningHours = Object.fromEntries(WEEKDAYS.map((day) => [day, { open: '08:00', close: '22:00' }]))

/**
 * Parses "mon-fri=08:00-22:00,sat-sun=09:00-20:00" (days not named are closed) into opening hours;
 * returns an error message for anything else.
 */
export function parseOpeningHours(spec: string): OpeningHours | string {
  const hours: OpeningHours = {}
  for (const part of spec.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^([a-z]{3})(?:-([a-z]{3}))?=(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(part)
    const first = WEEKDAYS.indexOf(match?.[1] as Weekday)
    const last = match?.[2] === undefined ? first : WEEKDAYS.indexOf(match[2] as Weekday)
    if (match === null || first === -1 || last === -1 || last < first) {
      return `"${part}" is not of the form mon-fri=08:00-22:00 (days mon…sun)`
    }
    for (let day = first; day <= last; day++) hours[WEEKDAYS[day] ?? 'mon'] = { open: match[3] ?? '', close: match[4] ?? '' }
  }
  return Object.keys(hours).length === 0 ? 'give the hours of at least one day, e.g. mon-sun=08:00-22:00' : hours
}

/** The most dates one summary of free times by day covers, and how many it covers when not told. */
export const MAX_SUMMARY_DAYS = 31
export const DEFAULT_SUMMARY_DAYS = 14

export type SlotStatus = 'available' | 'reserved' | 'booked' | 'blocked'

export interface Interval {
  readonly start: number
  readonly end: number
}

export interface CourtGrid {
  readonly slotMinutes: number
  readonly openingHours: OpeningHours
}

export interface DayHours {
  readonly open: string
  readonly close: string
}

/** A court's opening and closing time on a local date ("08:00", "24:00"), or undefined when it is closed. */
export function hoursOn(court: CourtGrid, date: string): DayHours | undefined {
  const hours = court.openingHours[WEEKDAYS[isoWeekday(date) - 1] ?? 'mon']
  if (hours == null) return undefined
  const open = parseClockTime(hours.open)
  const close = parseClockTime(hours.close)
  if (open === undefined || close === undefined || close <= open) return undefined
  return hours
}

function instantsOf(date: string, hours: DayHours, timeZone: string): Interval {
  return {
    start: localToInstant(date, parseClockTime(hours.open) ?? 0, timeZone),
    end: localToInstant(date, parseClockTime(hours.close) ?? 0, timeZone),
  }
}

/** Opening and closing instants of a court on a local date, or undefined when it is closed. */
export function openingInterval(court: CourtGrid, date: string, timeZone: string): Interval | undefined {
  const hours = hoursOn(court, date)
  return hours === undefined ? undefined : instantsOf(date, hours, timeZone)
}

/**
 * The day's slots: from opening, every slot length of real time, as long as a whole slot fits
 * before closing. A day with a DST change has one slot more or fewer when the court is open
 * across the change.
 */
export function daySlots(court: CourtGrid, date: string, timeZone: string): Interval[] {
  const opening = openingInterval(court, date, timeZone)
  if (opening === undefined) return []
  const length = court.slotMinutes * 60_000
  const slots: Interval[] = []
  for (let start = opening.start; start + length <= opening.end; start += length) slots.push({ start, end: start + length })
  return slots
}

/** What a booking covers on the grid (slotsCovering), or the one rule it breaks, with what a message needs. */
export type Coverage
  = { readonly kind: 'slots', readonly slots: readonly Interval[] }
    | { readonly kind: 'closed', readonly date: string }
    | { readonly kind: 'outside-hours', readonly date: string, readonly hours: DayHours }
    | AfterMidnight
    | { readonly kind: 'off-grid', readonly date: string, readonly hours: DayHours }
    | TooMany

/** It runs past 24:00 of `date` into `next`, which is closed (no hours) or whose grid does not begin at that midnight. */
export interface AfterMidnight {
  readonly kind: 'outside-hours-after-midnight'
  readonly date: string
  readonly next: string
  readonly hours: DayHours | undefined
}

/** More slots than `limit`; `covered` counts them when that count is known (the walk stops one slot past the limit). */
export interface TooMany {
  readonly kind: 'too-many'
  readonly limit: number
  readonly covered: number | undefined
}

/**
 * The grid slots a booking of `interval` covers, or the rule it breaks. Every slot is a slot of its
 * own day's grid and each ends where the next begins, so a booking crosses midnight only from a day
 * whose grid runs until 24:00 into a day whose grid begins then. The walk stops one slot past
 * `limit`, so a far-away end costs no more than a booking one slot too long.
 */
export function slotsCovering(court: CourtGrid, interval: Interval, timeZone: string, limit: number): Coverage {
  let date = localDateOf(interval.start, timeZone)
  let hours = hoursOn(court, date)
  if (hours === undefined) return { kind: 'closed', date }
  let opening = instantsOf(date, hours, timeZone)
  const startsOutside = interval.start < opening.start || interval.start >= opening.end
  if (startsOutside || (interval.end > opening.end && hours.close !== '24:00')) return { kind: 'outside-hours', date, hours }

  let grid = daySlots(court, date, timeZone)
  const slots: Interval[] = []
  let cursor = interval.start
  while (cursor < interval.end && slots.length <= limit) {
    let slot = grid.find((candidate) => candidate.start === cursor)
    if (slot === undefined && slots.length > 0 && interval.end > opening.end) {
      // The day's grid is used up and the booking goes on: only into a next day whose grid begins where this one ends.
      if (hours.close !== '24:00' || cursor !== opening.end) return { kind: 'outside-hours', date, hours }
      const next = addDays(date, 1)
      const nextHours = hoursOn(court, next)
      grid = daySlots(court, next, timeZone)
      slot = grid.find((candidate) => candidate.start === cursor)
      if (nextHours === undefined || slot === undefined) return { kind: 'outside-hours-after-midnight', date, next, hours: nextHours }
      date = next
      hours = nextHours
      opening = instantsOf(next, nextHours, timeZone)
    }
    if (slot === undefined) return { kind: 'off-grid', date, hours }
    slots.push(slot)
    cursor = slot.end
  }
  if (slots.length > limit) return { kind: 'too-many', limit, covered: cursor === interval.end ? slots.length : undefined }
  if (cursor !== interval.end) return { kind: 'off-grid', date, hours }
  return { kind: 'slots', slots }
}

/** The local dates an interval touches; its end is exclusive, so a booking that ends at midnight touches one date. */
export function localDatesOf(interval: Interval, timeZone: string): string[] {
  const last = localDateOf(interval.end - 1, timeZone)
  const dates: string[] = []
  for (let date = localDateOf(interval.start, timeZone); date <= last; date = addDays(date, 1)) dates.push(date)
  return dates
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end
}

export interface Occupancy {
  readonly blocks: readonly Interval[]
  readonly reservations: readonly Interval[]
  readonly bookings: readonly Interval[]
}

/** blocked > reserved > booked > available. */
export function slotStatus(slot: Interval, occupancy: Occupancy): SlotStatus {
  if (occupancy.blocks.some((hold) => overlaps(slot, hold))) return 'blocked'
  if (occupancy.reservations.some((hold) => overlaps(slot, hold))) return 'reserved'
  if (occupancy.bookings.some((booking) => overlaps(slot, booking))) return 'booked'
  return 'available'
}

export interface WeeklyHold {
  readonly weekday: number
  readonly startTime: string
  readonly endTime: string
  readonly validFrom: string | null
  readonly validUntil: string | null
}

/** The interval a weekly hold occupies on a local date, if it applies that day. */
export function weeklyHoldOn(hold: WeeklyHold, date: string, timeZone: string): Interval | undefined {
  if (isoWeekday(date) !== hold.weekday) return undefined
  if (hold.validFrom !== null && date < hold.validFrom) return undefined
  if (hold.validUntil !== null && date > hold.validUntil) return undefined
  const start = parseClockTime(hold.startTime)
  const end = parseClockTime(hold.endTime)
  if (start === undefined || end === undefined || end <= start) return undefined
  return { start: localToInstant(date, start, timeZone), end: localToInstant(date, end, timeZone) }
}

/** The first and last start of a court's slots on a date that a booking may have at a moment. */
export interface BookingWindow {
  readonly earliest: number
  readonly latest: number
}

/**
 * Of a day's slots, the starts a booking may have at `now`: after now (a slot that has started is
 * never bookable) and before the horizon (`now + horizonMs`), as the booking rules check them.
 * `undefined` when none is.
 */
export function bookingWindow(slots: readonly Interval[], now: number, horizonMs: number): BookingWindow | undefined {
  const starts = slots.map((slot) => slot.start).filter((start) => start > now && start < now + horizonMs)
  const [earliest, latest] = [starts.at(0), starts.at(-1)]
  return earliest === undefined || latest === undefined ? undefined : { earliest, latest }
}

/**
 * When the window of these slots next changes by the clock alone: when the next slot starts (it
 * leaves), or when the horizon reaches the next slot beyond it (it enters). Infinity: never.
 */
export function bookingWindowChangesAt(slots: readonly Interval[], now: number, horizonMs: number): number {
  let next = Number.POSITIVE_INFINITY
  for (const { start } of slots) {
    if (start > now) next = Math.min(next, start)
    if (start >= now + horizonMs) next = Math.min(next, start - horizonMs + 1)
  }
  return next
}
