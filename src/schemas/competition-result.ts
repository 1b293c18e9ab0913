import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from './common.js'

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
}, { $id: 'CompetitionResult', additionalProperties: false, description: 'A competition result of a member.' })
export type CompetitionResult = Static<typeof CompetitionResult>
