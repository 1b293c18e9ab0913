import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { ListEnvelope, DateTime, Nullable, Uuid } from './common.js'

export const CompetitionResult = Type.Object({
  id: Uuid(),
  member_id: Uuid(),
  group_id: Uuid(),
  competition_name: Type.String(),
  discipline: Nullable(Type.String()),
  placement: Nullable(Type.String()),
  points: Nullable(Type.Number()),
  competition_date: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD.' })),
  created_at: Type.Optional(DateTime('When the result was recorded, in UTC.')),
}, {
  $id: 'CompetitionResult',
  additionalProperties: false,
  description: 'A competition result of a member.',
  examples: [{
    id: 'e7f0a3b6-1c2d-4e5f-8a9b-0c1d2e3f4a5b', member_id: '5c8b1f2d-7e4a-4b3c-9d6e-0a1f2b3c4d5e',
    group_id: '6f1c2a4e-8b3d-4f7a-9c21-5e0d7b8a9f13', competition_name: 'Regional junior championship', discipline: 'U14 singles',
    placement: '2', points: 340.5, competition_date: '2026-06-07', created_at: '2026-06-08T09:15:00.000Z',
  }],
})
export type CompetitionResult = Static<typeof CompetitionResult>

/** A page of competition results with the number that match. */
export const CompetitionResultList = ListEnvelope(CompetitionResult, 'A page of competition results and the number of records that match.')
