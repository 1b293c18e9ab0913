/** A booking as its webhook events carry it: what the public listing shows of it, without the guest's name or address. */
import { formatInZone } from '../domain/zoned-time.js'
import type { CancelledBy } from '../db/schema.js'

export interface BookingFacts {
  readonly id: string
  readonly courtId: string
  readonly courtName: string
  readonly timezone: string
  readonly start: number
  readonly end: number
  readonly createdAt: number
  readonly cancelledAt: number | null
  readonly cancelledBy: CancelledBy | null
}

export function bookingData(booking: BookingFacts): object {
  const local = (instant: number) => formatInZone(instant, booking.timezone)
  return {
    id: booking.id,
    court_id: booking.courtId,
    court_name: booking.courtName,
    start_time: local(booking.start),
    end_time: local(booking.end),
    status: booking.cancelledAt === null ? 'confirmed' : 'cancelled',
    created_at: local(booking.createdAt),
    cancelled_at: booking.cancelledAt === null ? null : local(booking.cancelledAt),
    cancelled_by: booking.cancelledBy,
  }
}
