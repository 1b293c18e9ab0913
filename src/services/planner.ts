/**
 * The front desk's day: every active court of a club with its slots on a local date (the statuses
 * the public listing shows) and the bookings on it, with their guests, for staff. Three indexed
 * reads: the courts, their holds and bookings of the day, and the day's bookings with names.
 */
import type { Kysely } from 'kysely'
import type { Club } from '../db/repositories/clubs.js'
import { listActiveCourts, occupancyOf } from '../db/repositories/courts.js'
import type { Court } from '../db/repositories/courts.js'
import { listBookings } from '../db/repositories/bookings.js'
import type { ClubBooking } from '../db/repositories/bookings.js'
import type { Database } from '../db/schema.js'
import { occupancyOn } from '../domain/booking-rules.js'
import { daySlots, slotStatus } from '../domain/slots.js'
import type { Interval, SlotStatus } from '../domain/slots.js'
import { localToInstant } from '../domain/zoned-time.js'

export interface PlannerCourt {
  readonly court: Court
  readonly slots: readonly (Interval & { readonly status: SlotStatus })[]
  /** The court's active bookings that start on the date, by start. */
  readonly bookings: readonly ClubBooking[]
}

export async function plannerDay(db: Kysely<Database>, club: Club, date: string): Promise<PlannerCourt[]> {
  const courts = await listActiveCourts(db, club.id)
  const window = { start: localToInstant(date, 0, club.timezone), end: localToInstant(date, 1440, club.timezone) }
  const [stored, bookings] = await Promise.all([
    occupancyOf(db, club.id, courts.map((court) => court.id), window),
    listBookings(db, club.id, window),
  ])
  return courts.map((court) => {
    const occupancy = occupancyOn(stored.get(court.id), [date], club.timezone)
    return {
      court,
      slots: daySlots(court, date, club.timezone).map((slot) => ({ ...slot, status: slotStatus(slot, occupancy) })),
      bookings: bookings.filter((booking) => booking.courtId === court.id && booking.status === 'confirmed'),
    }
  })
}
