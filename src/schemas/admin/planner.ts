/** The dashboard API's front desk: a day of all the club's courts. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable, Uuid } from '../common.js'
import { Instant, LocalDate } from './fields.js'

export const PlannerQuery = Type.Object({
  date: Type.Optional(LocalDate('The local date (YYYY-MM-DD); default: today at the club.')),
}, { additionalProperties: false })

const PlannerSlot = Type.Object({
  start_time: Instant('Start, in the club\'s offset.'),
  end_time: Instant('End, in the club\'s offset.'),
  status: Type.String({ enum: ['available', 'booked', 'reserved', 'blocked'],
    description: 'As the public listing shows it: blocked over reserved over booked.' }),
  waiting: Type.Integer({ minimum: 0, description: 'How many addresses wait for the slot to free (docs/waiting-list.md).' }),
}, { additionalProperties: false })

const PlannerBooking = Type.Object({
  id: Uuid(),
  start_time: Instant('Start, in the club\'s offset.'),
  end_time: Instant('End, in the club\'s offset.'),
  booker_name: Type.String({ description: 'Empty once removed (retention or erasure).' }),
  notes: Nullable(Type.String()),
  series_id: Nullable(Uuid('The weekly series it belongs to, if any.')),
  has_address: Type.Boolean({ description: 'Whether the guest has an address the club\'s changes are mailed to (never shown).' }),
}, { additionalProperties: false })

export const PlannerDay = Type.Object({
  date: LocalDate('The local date.'),
  timezone: Type.String({ description: 'The club\'s IANA time zone: every time is local to it.' }),
  courts: Type.Array(Type.Object({
    id: Uuid(),
    name: Type.String(),
    slot_minutes: Type.Integer({ minimum: 1 }),
    slots: Type.Array(PlannerSlot, { description: 'The court\'s slots of the day within its opening hours; none when closed.' }),
    bookings: Type.Array(PlannerBooking, { description: 'Its active bookings that start on the date, by start.' }),
  }, { additionalProperties: false })),
}, { $id: 'PlannerDay', additionalProperties: false,
  description: 'Every active court of the club on one day: its slots with status and its bookings with the guest\'s name.' })
export type PlannerDay = Static<typeof PlannerDay>
