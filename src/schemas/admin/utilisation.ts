/** The dashboard API's utilisation (docs/utilisation.md): the booked share by weekday and hour, bookings per week, extremes. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable, Uuid } from '../common.js'
import { LocalDate } from './fields.js'

export const UtilisationQuery = Type.Object({
  from: LocalDate('The first local date (YYYY-MM-DD).'),
  to: LocalDate('The last local date (YYYY-MM-DD), at most 366 days after from.'),
  court: Type.Optional(Uuid('One court alone; without it, every active court.')),
}, { additionalProperties: false })

const HeatCell = Type.Object({
  weekday: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday … 7 Sunday.' }),
  hour: Type.Integer({ minimum: 0, maximum: 23, description: 'The hour at the club (its time zone).' }),
  open_minutes: Type.Number({ minimum: 0, description: 'Minutes the courts were open in this hour of this weekday, over the range.' }),
  booked_minutes: Type.Number({ minimum: 0, description: 'Of those, minutes booked (confirmed bookings).' }),
  share: Type.Number({ minimum: 0, maximum: 1, description: 'booked_minutes / open_minutes.' }),
}, { additionalProperties: false })

export const Utilisation = Type.Object({
  from: LocalDate('The first local date.'),
  to: LocalDate('The last local date.'),
  timezone: Type.String({ description: 'The club\'s IANA time zone: weekdays, hours and weeks are local to it.' }),
  court_id: Nullable(Uuid('The one court counted, or null for every active court.')),
  heat_map: Type.Array(HeatCell, { description: 'Every hour of every weekday in which a counted court was open, by weekday and hour.' }),
  weeks: Type.Array(Type.Object({
    week_start: LocalDate('The Monday of the week.'),
    bookings: Type.Integer({ minimum: 0, description: 'Bookings starting in the week (within the range), whatever became of them.' }),
    cancelled_by_guest: Type.Integer({ minimum: 0 }),
    cancelled_by_club: Type.Integer({ minimum: 0 }),
    cancelled_by_hold: Type.Integer({ minimum: 0, description: 'Cancelled by a block or reservation laid over them.' }),
  }, { additionalProperties: false }), { description: 'Every week the range touches, in order.' }),
  busiest: Type.Array(HeatCell, { description: 'The three hours with the highest booked share.' }),
  emptiest: Type.Array(HeatCell, { description: 'The three hours with the lowest booked share.' }),
}, { $id: 'Utilisation', additionalProperties: false,
  description: 'How much of the courts\' open time was booked, and how bookings and cancellations went week by week.' })
export type Utilisation = Static<typeof Utilisation>

export const UTILISATION_SCHEMAS = [Utilisation]
