/**
 * The front desk's day: every active court of a club with its slots on a local date (the statuses
 * the public listing shows, and how many addresses wait for each) and the bookings on it, with their
 * guests, for staff. Four indexed reads: the courts, their holds and bookings of the day, the day's
 * bookings with names, and the day's waiting list counts.
 */
import type { Kysely } from 'kysely'
import type { Club } from '../db/repositories/clubs.js'
import { listActiveCourts, occupancyOf } from '../db/repositories/courts.js'
import type { Court } from '../db/repositories/courts.js'
import { listBookings } from '../db/repositories/bookings.js'
import type { ClubBooking } from '../db/repositories/bookings.js'
import type { Database } from '../db/schema.js'
import { waitingCounts } from '../db/repositories/waiting-list.js'
import { occupancyOn } from '../domain/booking-rules.js'
import { daySlots, slotStatus } from '../domain/slots.js'
import type { Interval, SlotStatus } from '../domain/slots.js'
import { localToInstant } from '../domain/zoned-time.js'

export interface PlannerCourt {
  readonly court: Court
  /** Its slots, with how many addresses wait for each (docs/waiting-list.md). */
  readonly slots: readonly (Interval & { readonly status: SlotStatus, readonly waiting: number })[]
  /** The court's active bookings that start on the date, by start. */
  readonly bookings: readonly ClubBooking[]
}

export async function plannerDay(db: Kysely<Database>, club: Club, date: string): Promise<PlannerCourt[]> {
  const courts = await listActiveCourts(db, club.id)
  const window = { start: localToInstant(date, 0, club.timezone), end: localToInstant(date, 1440, club.timezone) }
  const ids = courts.map((court) => court.id)
  const [stored, bookings, waiting] = await Promise.all([
    occupancyOf(db, club.id, ids, window),
    listBookings(db, club.id, window),
    waitingCounts(db, club.id, ids, window),
  ])
  return courts.map((court) => {
    const occupancy = occupancyOn(stored.get(court.id), [date], club.timezone)
    return {
      court,
      slots: daySlots(court, date, club.timezone).map((slot) => ({ ...slot, status: slotStatus(slot, occupancy),
        waiting: waiting.find((count) => count.courtId === court.id && count.start === slot.start)?.count ?? 0 })),
      bookings: bookings.filter((booking) => booking.courtId === court.id && booking.status === 'confirmed'),
    }
  })
}
