/**
 * A club's days at a glance: for each of a run of local dates, how many of its courts' free times
 * can be booked now and which is the first — what a booking page's date strip shows, and where its
 * "next free time" jumps. The statuses and booking windows are the day listing's (courtDay), read
 * for the whole run in one statement.
 */
import type { Kysely } from 'kysely'
import type { Club } from '../db/repositories/clubs.js'
import { listActiveCourts, occupancyOf } from '../db/repositories/courts.js'
import type { StoredOccupancy } from '../domain/booking-rules.js'
import { occupancyOn } from '../domain/booking-rules.js'
import type { Database } from '../db/schema.js'
import { bookingWindowChangesAt, daySlots, overlaps, slotStatus } from '../domain/slots.js'
import type { Interval } from '../domain/slots.js'
import { addDays, formatInZone, localToInstant, mondayOf } from '../domain/zoned-time.js'
import type { Court } from '../db/repositories/courts.js'
import type { SlotStatus } from '../domain/slots.js'
import type { CourtSlot } from './bookings.js'

const DAY = 86_400_000

export interface CourtDaySummary {
  readonly date: string
  /** Some court's booking window holds a start on this date now: not past, not beyond every court's horizon. */
  readonly bookable: boolean
  /** The free times of the date that can be booked now, over all active courts. */
  readonly free_slots: number
  /** The earliest of them (by start, then court name); null when there is none. */
  readonly first_free: CourtSlot | null
}

export interface CourtDays {
  readonly days: CourtDaySummary[]
  /** When a day's figures next change by the clock alone (Infinity: only a write changes them). */
  readonly validUntil: number
}

/** What of the stored occupancy overlaps a day: the run's bookings and one-off holds are checked against one day's slots. */
function within(stored: StoredOccupancy | undefined, day: Interval): StoredOccupancy | undefined {
  if (stored === undefined) return undefined
  const touching = (list: readonly Interval[]) => list.filter((entry) => overlaps(entry, day))
  return { ...stored, blocks: touching(stored.blocks), reservations: touching(stored.reservations),
    bookings: touching(stored.bookings) }
}

/** `count` local dates from `from`: each with its free, bookable times now, of every active court or of `only` that one. */
export async function courtDays(db: Kysely<Database>, club: Club, from: string, count: number, now: number, only?: string):
Promise<CourtDays> {
  const courts = (await listActiveCourts(db, club.id)).filter((court) => only === undefined || court.id === only)
  const dates = Array.from({ length: count }, (_, index) => addDays(from, index))
  const window = { start: localToInstant(from, 0, club.timezone), end: localToInstant(addDays(from, count), 0, club.timezone) }
  const stored = await occupancyOf(db, club.id, courts.map((court) => court.id), window)
  let validUntil = Number.POSITIVE_INFINITY
  const days = dates.map((date) => {
    // The date's slots, and a day more for a court open past midnight.
    const day = { start: localToInstant(date, 0, club.timezone), end: localToInstant(addDays(date, 2), 0, club.timezone) }
    let bookable = false
    let free = 0
    let first: CourtSlot | null = null
    for (const court of courts) {
      const grid = daySlots(court, date, club.timezone)
      const horizon = court.bookingHorizonDays * DAY
      validUntil = Math.min(validUntil, bookingWindowChangesAt(grid, now, horizon))
      const open = grid.filter((slot) => slot.start > now && slot.start < now + horizon)
      if (open.length === 0) continue
      bookable = true
      const occupancy = occupancyOn(within(stored.get(court.id), day), [date], club.timezone)
      for (const slot of open) {
        if (slotStatus(slot, occupancy) !== 'available') continue
        free += 1
        if (first === null || slot.start < Date.parse(first.start_time)) {
          first = { court_id: court.id, court_name: court.name, start_time: formatInZone(slot.start, club.timezone),
            end_time: formatInZone(slot.end, club.timezone), status: 'available' }
        }
      }
    }
    return { date, bookable, free_slots: free, first_free: first }
  })
  return { days, validUntil }
}

export interface WeekDay {
  readonly date: string
  readonly slots: { start_time: string, end_time: string, status: SlotStatus }[]
}

/**
 * One court's slots from the Monday of `date`'s week to the Sunday, with status — an inactive
 * court's too, for the dashboard's week view. The statuses are those of the public listing.
 */
export async function courtWeek(db: Kysely<Database>, club: Club, court: Court, date: string): Promise<WeekDay[]> {
  const monday = mondayOf(date)
  const dates = Array.from({ length: 7 }, (_, i) => addDays(monday, i))
  const window = { start: localToInstant(monday, 0, club.timezone), end: localToInstant(addDays(monday, 7), 0, club.timezone) }
  const stored = (await occupancyOf(db, club.id, [court.id], window)).get(court.id)
  return dates.map((day) => {
    const occupancy = occupancyOn(stored, [day], club.timezone)
    return { date: day, slots: daySlots(court, day, club.timezone).map((slot) => ({
      start_time: formatInZone(slot.start, club.timezone), end_time: formatInZone(slot.end, club.timezone),
      status: slotStatus(slot, occupancy),
    })) }
  })
}
