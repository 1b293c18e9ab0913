/** The dashboard API's weekly series (src/services/booking-series.ts). */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { NO_CONTROL_BUT_NEWLINES, NO_CONTROL_CHARACTERS, Nullable, Uuid } from '../common.js'
import { ClockTime } from '../import.js'
import { Instant, LocalDate } from './fields.js'

const seriesFields = {
  court_id: Uuid('The court.'),
  start_time: ClockTime('Local start time, HH:MM, on the court\'s grid.'),
  end_time: ClockTime('Local end time, HH:MM.'),
  first_date: LocalDate('The first date; the series repeats on its weekday.'),
  last_date: LocalDate('The last date the series may reach (at most 53 weekly dates).'),
  booker_name: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'The member, group or guest.' }),
  booker_email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
    description: 'Optional. A member\'s address links every booking of the series to the member.' })),
  notes: Type.Optional(Type.String({ maxLength: 500, pattern: NO_CONTROL_BUT_NEWLINES, description: 'On every booking.' })),
}

export const SeriesRequest = Type.Object(seriesFields, { $id: 'SeriesRequest', additionalProperties: false,
  description: 'A weekly booking of one court at one local time from a first date to a last.',
  examples: [{ court_id: '0190a3b4-7c2d-7e5f-8a9b-0c1d2e3f4a5b', start_time: '18:00', end_time: '19:00', first_date: '2026-09-01',
    last_date: '2026-11-17', booker_name: 'Juniors A', notes: 'Coach: Tim' }] })
export type SeriesRequest = Static<typeof SeriesRequest>

export const SeriesCreate = Type.Object({
  ...seriesFields,
  collisions: Type.Union([Type.Literal('skip'), Type.Literal('refuse')], { description: '`skip`: book the free dates and leave '
    + 'the others; `refuse`: book every date or nothing (`slot-conflict` naming the dates in the way).' }),
}, { $id: 'SeriesCreate', additionalProperties: false, description: 'A weekly series to book.' })
export type SeriesCreate = Static<typeof SeriesCreate>

const Occurrence = Type.Object({
  date: LocalDate('The date.'),
  start_time: Instant('Start, in the club\'s offset.'),
  end_time: Instant('End, in the club\'s offset.'),
  status: Type.String({ enum: ['free', 'booked', 'reserved', 'blocked', 'invalid'], description: '`free`, what is in the way '
    + 'as the listing names it, or `invalid`: not bookable at all (closed, off the grid, in the past; `reason` says which).' }),
  reason: Nullable(Type.String()),
}, { additionalProperties: false })

export const SeriesPreview = Type.Object({
  court_id: Uuid(),
  court_name: Type.String(),
  timezone: Type.String(),
  occurrences: Type.Array(Occurrence),
}, { $id: 'SeriesPreview', additionalProperties: false, description: 'Every date of the series and what stands in its way.' })

export const SeriesCreated = Type.Object({
  id: Uuid('The series.'),
  booking_ids: Type.Array(Uuid(), { description: 'Its bookings, by date.' }),
  skipped: Type.Array(Occurrence, { description: 'The dates not booked, and why.' }),
}, { $id: 'SeriesCreated', additionalProperties: false, description: 'A series booked.' })

export const SeriesCancel = Type.Object({
  from: LocalDate('Cancel its bookings on this date and after (those not ended yet).'),
  reason: Type.Optional(Type.String({ maxLength: 500, description: 'Kept with each booking and in the audit log.' })),
}, { $id: 'SeriesCancel', additionalProperties: false, description: 'The rest of a series, cancelled for the club.' })

export const SeriesCancelled = Type.Object({
  cancelled: Type.Integer({ minimum: 0, description: 'How many bookings were cancelled.' }),
}, { $id: 'SeriesCancelled', additionalProperties: false, description: 'The rest of a series, cancelled.' })

export const ClubSeriesParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  series: Uuid('A series id.'),
}, { additionalProperties: false })
