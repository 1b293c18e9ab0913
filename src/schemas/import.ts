/**
 * The import file: one club's data in one JSON document. Ids are the file's own and are kept, so
 * importing the same file again updates the records instead of duplicating them. The JSON Schema
 * published in docs/import-format.schema.json is generated from this definition.
 */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { DEFAULT_SLOT_MINUTES, MAX_SLOTS_PER_BOOKING, SLOT_LENGTHS } from '../domain/court.js'

const Id = Type.String({ format: 'uuid', description: 'Stable id of the record; keep it across imports.' })
export const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description === undefined ? {} : { description }) })
const OptionalNullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]))
const Instant = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} RFC 3339 with an offset, e.g. 2026-05-01T18:00:00+02:00.` })

export const ImportMember = Type.Object({
  id: Id,
  name: Text(200),
  email: Type.String({ format: 'email', maxLength: 254, description: 'Unique within the club; never exposed by the API.' }),
}, { additionalProperties: false })

export const ImportGroup = Type.Object({
  id: Id,
  name: Text(200),
  sport: Text(100),
  age_min: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 150 }), Type.Null()])),
  age_max: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 150 }), Type.Null()])),
  level: OptionalNullable(Text(100, 'Performance level.')),
  description: OptionalNullable(Text(5000)),
  active: Type.Optional(Type.Boolean({ default: true, description: 'Inactive groups are not listed. Default true.' })),
}, { additionalProperties: false })

export const ImportEvent = Type.Object({
  id: Id,
  title: Text(200),
  starts_at: Instant('Start.'),
  ends_at: Type.Optional(Type.Union([Instant('End.'), Type.Null()])),
  location: OptionalNullable(Text(500)),
  public_booking: Type.Optional(Type.Boolean({ default: false, description: 'Released for public booking. Default false.' })),
  group_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'A group of this club; grouped events are not listed.' })),
}, { additionalProperties: false })

export const ImportNews = Type.Object({
  id: Id,
  title: Text(300),
  content: Type.String({ maxLength: 100_000 }),
  published_at: Type.Optional(Type.Union([Instant('Publication instant; listed from then on.'), Type.Null()],
    { description: 'null or absent: a draft, never listed.' })),
  group_id: Type.Optional(Type.Union([Id, Type.Null()])),
  created_by: Type.Optional(Type.Union([Id, Type.Null()], { description: 'A member of this club.' })),
}, { additionalProperties: false })

export const ImportCompetitionResult = Type.Object({
  id: Id,
  member_id: Id,
  group_id: Id,
  competition_name: Text(300),
  discipline: OptionalNullable(Text(200)),
  placement: OptionalNullable(Text(100)),
  points: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  competition_date: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()])),
  created_at: Type.Optional(Instant('When the result was recorded; defaults to the time of the first import.')),
}, { additionalProperties: false })

export const ClockTime = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description })
export const DayHours = Type.Union([
  Type.Object({ open: ClockTime('Opening time, HH:MM local.'), close: ClockTime('Closing time, HH:MM local (24:00 for midnight).') },
    { additionalProperties: false }),
  Type.Null(),
], { description: 'null: closed that day.' })
export const WeekdayName = Type.Union([Type.Literal('mon'), Type.Literal('tue'), Type.Literal('wed'), Type.Literal('thu'), Type.Literal('fri'),
  Type.Literal('sat'), Type.Literal('sun')], { description: 'Weekly: the local weekday.' })

export const ImportCourt = Type.Object({
  id: Id,
  name: Text(200, 'Unique within the club, ignoring case and spacing: "Court 1" and " court  1" are one name.'),
  sport: Type.Optional(Text(100, 'Default tennis.')),
  active: Type.Optional(Type.Boolean({ description: 'Inactive courts are not listed and cannot be booked. Default true.' })),
  slot_minutes: Type.Optional(Type.Unsafe<(typeof SLOT_LENGTHS)[number]>({ type: 'integer', enum: [...SLOT_LENGTHS],
    description: `Slot length in minutes, one that divides a day evenly: ${SLOT_LENGTHS.join(', ')}. `
      + `Default ${String(DEFAULT_SLOT_MINUTES)}.` })),
  opening_hours: Type.Optional(Type.Object({
    mon: Type.Optional(DayHours), tue: Type.Optional(DayHours), wed: Type.Optional(DayHours), thu: Type.Optional(DayHours),
    fri: Type.Optional(DayHours), sat: Type.Optional(DayHours), sun: Type.Optional(DayHours),
  }, { additionalProperties: false, description: 'Club-local hours per weekday; a missing day is closed. Default 08:00–22:00 daily.' })),
  booking_horizon_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 366, description: 'How far ahead it can be booked. Default 14.' })),
  max_slots_per_booking: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SLOTS_PER_BOOKING, description: 'Default 2.' })),
}, { additionalProperties: false })

export const ImportCourtHold = Type.Object({
  id: Id,
  court_id: Id,
  kind: Type.Union([Type.Literal('block'), Type.Literal('reservation')], {
    description: 'block: the court is closed (slots show `blocked`); reservation: the club uses it (slots show `reserved`).',
  }),
  reason: OptionalNullable(Text(200, 'For the club\'s own records; never shown publicly.')),
  starts_at: Type.Optional(Instant('One-off: start.')),
  ends_at: Type.Optional(Instant('One-off: end.')),
  weekday: Type.Optional(WeekdayName),
  start_time: Type.Optional(ClockTime('Weekly: local start time.')),
  end_time: Type.Optional(ClockTime('Weekly: local end time.')),
  valid_from: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Weekly: first local date.' })),
  valid_until: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Weekly: last local date.' })),
}, { additionalProperties: false, description: 'Either one-off (starts_at, ends_at) or weekly (weekday, start_time, end_time).' })

export const ImportDocument = Type.Object({
  $schema: Type.Optional(Type.String()),
  members: Type.Optional(Type.Array(ImportMember)),
  groups: Type.Optional(Type.Array(ImportGroup)),
  events: Type.Optional(Type.Array(ImportEvent)),
  news: Type.Optional(Type.Array(ImportNews)),
  competition_results: Type.Optional(Type.Array(ImportCompetitionResult)),
  courts: Type.Optional(Type.Array(ImportCourt)),
  court_holds: Type.Optional(Type.Array(ImportCourtHold)),
}, {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://club-platform.invalid/schemas/import-format.schema.json',
  title: 'Club Platform import file',
  description: 'One club\'s members, groups, events, news, competition results, courts and court holds. Records are matched '
    + 'by id: a new id is inserted, a known id of the same club is updated. Nothing is deleted.',
  additionalProperties: false,
})
export type ImportDocument = Static<typeof ImportDocument>
export type ImportCourt = Static<typeof ImportCourt>
export type ImportCourtHold = Static<typeof ImportCourtHold>
