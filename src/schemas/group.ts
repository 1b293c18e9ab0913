import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable, Uuid } from './common.js'

export const Group = Type.Object({
  id: Uuid(),
  name: Type.String(),
  sport: Type.String(),
  age_min: Nullable(Type.Integer({ description: 'Youngest age admitted.' })),
  age_max: Nullable(Type.Integer({ description: 'Oldest age admitted.' })),
  level: Nullable(Type.String({ description: 'Performance level.' })),
  description: Nullable(Type.String()),
}, { $id: 'Group', additionalProperties: false, description: 'An active training group.' })
export type Group = Static<typeof Group>
