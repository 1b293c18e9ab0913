/** The dashboard API's courts: their settings, blocks and reservations, and the week of slots. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { MAX_SLOTS_PER_BOOKING, SLOT_LENGTHS } from '../../domain/court.js'
import { WEEKDAYS } from '../../domain/slots.js'
import { Nullable, Reference, Uuid } from '../common.js'
import { ClockTime, DayHours, Text, WeekdayName } from '../import.js'
import { ClubBooking } from './bookings.js'
import { Instant, LocalDate } from './fields.js'

const OpeningWeek = Type.Object({ mon: DayHours, tue: DayHours, wed: DayHours, thu: DayHours, fri: DayHours, sat: DayHours,
  sun: DayHours }, { additionalProperties: false, description: 'Club-local hours per weekday; null: closed that day.' })
const CourtFields = {
  name: Text(200, 'Unique within the club, ignoring case and spacing.'),
  sport: Text(100),
  active: Type.Boolean({ description: 'Inactive courts are not listed and cannot be booked.' }),
  slot_minutes: Type.Unsafe<(typeof SLOT_LENGTHS)[number]>({ type: 'integer', enum: [...SLOT_LENGTHS],
    description: `Slot length in minutes: ${SLOT_LENGTHS.join(', ')}.` }),
  opening_hours: OpeningWeek,
  booking_horizon_days: Type.Integer({ minimum: 0, maximum: 366, description: 'How many days ahead it can be booked.' }),
  max_slots_per_booking: Type.Integer({ minimum: 1, maximum: MAX_SLOTS_PER_BOOKING, description: 'Most slots one booking may cover.' }),
}
const CancelDisplaced = Type.Optional(Type.Boolean({ description: 'Cancel the upcoming bookings the change leaves without a '
  + 'place (each guest is mailed). Without it, such a change is refused (409) and nothing changes; the preview lists them.' }))
const CancellationReason = Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'With `cancel_displaced_bookings`: '
  + 'why; each guest reads it in the cancellation mail, and the audit log records it with each booking.' })))

export const AdminCourt = Type.Object({ id: Uuid(), ...CourtFields }, {
  $id: 'AdminCourt', additionalProperties: false, description: 'A court of the club, active or not.',
})
export type AdminCourt = Static<typeof AdminCourt>

const BookingsCancelled = Type.Integer({ minimum: 0, description: 'How many upcoming bookings the change cancelled (with '
  + '`cancel_displaced_bookings`), each guest mailed; 0 when it left every booking its place.' })

export const CourtChanged = Type.Composite([Type.Omit(AdminCourt, []), Type.Object({ bookings_cancelled: BookingsCancelled })], {
  $id: 'CourtChanged', additionalProperties: false, description: 'The court as it is now, and what its change did to bookings.',
})

export const AdminCourtList = Type.Object({ items: Type.Array(Reference(AdminCourt)) }, {
  $id: 'AdminCourtList', additionalProperties: false, description: 'The club\'s courts by name.',
})

export const CourtSave = Type.Object({ ...CourtFields, cancel_displaced_bookings: CancelDisplaced,
  cancellation_reason: CancellationReason }, {
  $id: 'CourtSave', additionalProperties: false, description: 'A court as it is to be.',
})
export type CourtSave = Static<typeof CourtSave>

export const ClubCourtParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  court: Uuid('A court id.'),
}, { additionalProperties: false })

export const ClubHoldParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  court: Uuid('A court id.'),
  hold: Uuid('A block or reservation id.'),
}, { additionalProperties: false })

const HoldKind = Type.Union([Type.Literal('block'), Type.Literal('reservation')], {
  description: 'block: the court is closed (slots show `blocked`); reservation: the club uses it (slots show `reserved`).',
})
export const AdminHold = Type.Object({
  id: Uuid(),
  court_id: Uuid(),
  kind: HoldKind,
  reason: Nullable(Type.String({ description: 'For the club\'s records; never shown publicly.' })),
  starts_at: Nullable(Instant('One-off: start, in the club\'s offset.')),
  ends_at: Nullable(Instant('One-off: end, in the club\'s offset.')),
  weekday: Type.Unsafe<Static<typeof WeekdayName> | null>({ type: ['string', 'null'], enum: [...WEEKDAYS, null],
    description: 'Weekly: the local weekday.' }),
  start_time: Nullable(ClockTime('Weekly: local start time.')),
  end_time: Nullable(ClockTime('Weekly: local end time.')),
  valid_from: Nullable(LocalDate('Weekly: first local date (null: always).')),
  valid_until: Nullable(LocalDate('Weekly: last local date (null: always).')),
}, { $id: 'AdminHold', additionalProperties: false, description: 'A block or reservation: one-off, or weekly.' })
export type AdminHold = Static<typeof AdminHold>

export const HoldChanged = Type.Composite([Type.Omit(AdminHold, []), Type.Object({ bookings_cancelled: BookingsCancelled })], {
  $id: 'HoldChanged', additionalProperties: false, description: 'The block or reservation as it is now, and what it did to bookings.',
})

export const AdminHoldList = Type.Object({ items: Type.Array(Reference(AdminHold)) }, {
  $id: 'AdminHoldList', additionalProperties: false, description: 'A court\'s holds: weekly ones by weekday, then one-off ones by start.',
})

export const HoldSave = Type.Object({
  kind: HoldKind,
  reason: Type.Optional(Nullable(Text(200, 'For the club\'s records; never shown publicly.'))),
  starts_at: Type.Optional(Instant('One-off: start.')),
  ends_at: Type.Optional(Instant('One-off: end.')),
  weekday: Type.Optional(WeekdayName),
  start_time: Type.Optional(ClockTime('Weekly: local start time.')),
  end_time: Type.Optional(ClockTime('Weekly: local end time.')),
  valid_from: Type.Optional(Nullable(LocalDate('Weekly: first local date.'))),
  valid_until: Type.Optional(Nullable(LocalDate('Weekly: last local date.'))),
  cancel_displaced_bookings: CancelDisplaced,
  cancellation_reason: CancellationReason,
}, { $id: 'HoldSave', additionalProperties: false,
  description: 'A block or reservation as it is to be: starts_at and ends_at (one-off), or weekday, start_time and end_time (weekly).' })
export type HoldSave = Static<typeof HoldSave>

export const DisplacedBookingList = Type.Object({ items: Type.Array(Reference(ClubBooking)) }, {
  $id: 'DisplacedBookingList', additionalProperties: false,
  description: 'The upcoming bookings the change would leave without a place, by start: saving it with '
    + '`cancel_displaced_bookings` cancels them.',
})

export const WeekQuery = Type.Object({
  date: Type.Optional(LocalDate('Any local date of the week (YYYY-MM-DD); default: today at the club. The week begins on Monday.')),
}, { additionalProperties: false })

export const CourtWeek = Type.Object({
  court_id: Uuid(),
  timezone: Type.String(),
  days: Type.Array(Type.Object({
    date: LocalDate('The local date.'),
    slots: Type.Array(Type.Object({
      start_time: Instant('Start, in the club\'s offset.'),
      end_time: Instant('End, in the club\'s offset.'),
      status: Type.String({ enum: ['available', 'booked', 'reserved', 'blocked'] }),
    }, { additionalProperties: false })),
  }, { additionalProperties: false })),
}, { $id: 'CourtWeek', additionalProperties: false, description: 'A court\'s slots from Monday to Sunday, with status.' })
export type CourtWeek = Static<typeof CourtWeek>
