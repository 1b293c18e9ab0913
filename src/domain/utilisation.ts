/**
 * Utilisation, pure (docs/utilisation.md): how much of the courts' open time was booked, by weekday
 * and hour at the club; how many bookings each week had and who cancelled them; the busiest and
 * emptiest hours. Typed on plain shapes, in the club's local time.
 */
import { openingInterval } from './slots.js'
import type { CourtGrid, Interval } from './slots.js'
import { addDays, formatInZone, isoWeekday, localDateOf, mondayOf } from './zoned-time.js'

const MINUTE = 60_000

/** One hour of one weekday (1 Monday … 7 Sunday; hour 0–23 at the club): open and booked minutes over the range. */
export interface HeatCell {
  readonly weekday: number
  readonly hour: number
  readonly openMinutes: number
  readonly bookedMinutes: number
}

/** A week (its Monday, at the club) and its bookings by start, with how many were cancelled and by whom. */
export interface WeekCount {
  readonly weekStart: string
  readonly bookings: number
  readonly cancelledByGuest: number
  readonly cancelledByClub: number
  readonly cancelledByHold: number
}

/** A booking as utilisation counts it. */
export interface CountedBooking extends Interval {
  readonly courtId: string
  readonly cancelledBy: 'guest' | 'club' | 'hold' | null
}

/** Adds each local hour's share of an interval to `add(weekday, hour, minutes)`. */
function byLocalHour(interval: Interval, timeZone: string, add: (weekday: number, hour: number, minutes: number) => void): void {
  let at = interval.start
  while (at < interval.end) {
    const local = formatInZone(at, timeZone)
    const minute = Number(local.slice(14, 16))
    const second = Number(local.slice(17, 19))
    const next = Math.min(interval.end, at + ((60 - minute) * 60 - second) * 1000)
    add(isoWeekday(local.slice(0, 10)), Number(local.slice(11, 13)), (next - at) / MINUTE)
    at = next
  }
}

/**
 * The heat map over the local dates `from`–`to`: each court's opening hours as open minutes, the
 * confirmed bookings of those courts as booked minutes, in every (weekday, hour) the courts are open.
 */
export function heatMap(courts: readonly (CourtGrid & { readonly id: string })[], bookings: readonly CountedBooking[],
  from: string, to: string, timeZone: string): HeatCell[] {
  const open = new Map<number, number>()
  const booked = new Map<number, number>()
  const adder = (into: Map<number, number>) => (weekday: number, hour: number, minutes: number) => {
    into.set(weekday * 24 + hour, (into.get(weekday * 24 + hour) ?? 0) + minutes)
  }
  for (let date = from; date <= to; date = addDays(date, 1)) {
    for (const court of courts) {
      const opening = openingInterval(court, date, timeZone)
      if (opening !== undefined) byLocalHour(opening, timeZone, adder(open))
    }
  }
  const counted = new Set(courts.map((court) => court.id))
  for (const booking of bookings) {
    if (booking.cancelledBy === null && counted.has(booking.courtId)) byLocalHour(booking, timeZone, adder(booked))
  }
  return [...open.entries()].sort(([a], [b]) => a - b).map(([cell, minutes]) => ({ weekday: Math.floor(cell / 24),
    hour: cell % 24, openMinutes: minutes, bookedMinutes: Math.min(minutes, booked.get(cell) ?? 0) }))
}

/** Every week that the local dates `from`–`to` touch, with the bookings that start in it (within the range). */
export function weekCounts(bookings: readonly CountedBooking[], from: string, to: string, timeZone: string): WeekCount[] {
  const weeks = new Map<string, { bookings: number, guest: number, club: number, hold: number }>()
  for (let week = mondayOf(from); week <= to; week = addDays(week, 7)) {
    weeks.set(week, { bookings: 0, guest: 0, club: 0, hold: 0 })
  }
  for (const booking of bookings) {
    const counts = weeks.get(mondayOf(localDateOf(booking.start, timeZone)))
    if (counts === undefined) continue
    counts.bookings += 1
    if (booking.cancelledBy !== null) counts[booking.cancelledBy] += 1
  }
  return [...weeks.entries()].map(([weekStart, counts]) => ({ weekStart, bookings: counts.bookings,
    cancelledByGuest: counts.guest, cancelledByClub: counts.club, cancelledByHold: counts.hold }))
}

/** The cells with the highest and the lowest booked share (ties: earlier in the week first), `count` each. */
export function extremes(cells: readonly HeatCell[], count: number): { busiest: HeatCell[], emptiest: HeatCell[] } {
  const share = (cell: HeatCell) => cell.bookedMinutes / cell.openMinutes
  const order = (a: HeatCell, b: HeatCell) => a.weekday - b.weekday || a.hour - b.hour
  const open = cells.filter((cell) => cell.openMinutes > 0)
  return {
    busiest: [...open].sort((a, b) => share(b) - share(a) || order(a, b)).slice(0, count),
    emptiest: [...open].sort((a, b) => share(a) - share(b) || order(a, b)).slice(0, count),
  }
}
