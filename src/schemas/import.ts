/**
 * The import file: one club's data in one JSON document. Ids are the file's own and are kept, so
 * importing the same file again updates the records instead of duplicating them. The JSON Schema
 * published in docs/import-format.schema.json is generated from this definition.
 */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'

const Id = Type.String({ format: 'uuid', description: 'Stable id of the record; keep it across imports.' })
const Text = (maxLength: number, description?: string) =>
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

export const ImportDocument = Type.Object({
  $schema: Type.Optional(Type.String()),
  members: Type.Optional(Type.Array(ImportMember)),
  groups: Type.Optional(Type.Array(ImportGroup)),
  events: Type.Optional(Type.Array(ImportEvent)),
  news: Type.Optional(Type.Array(ImportNews)),
  competition_results: Type.Optional(Type.Array(ImportCompetitionResult)),
}, {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://club-platform.invalid/schemas/import-format.schema.json',
  title: 'Club Platform import file',
  description: 'One club\'s members, groups, events, news and competition results. Records are matched by id: '
    + 'a new id is inserted, a known id of the same club is updated. Nothing is deleted.',
  additionalProperties: false,
})
export type ImportDocument = Static<typeof ImportDocument>
