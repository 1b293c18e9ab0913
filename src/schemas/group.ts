import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { ListEnvelope, Nullable, Uuid } from './common.js'

export const Group = Type.Object({
  id: Uuid(),
  name: Type.String(),
  sport: Type.String(),
  age_min: Nullable(Type.Integer({ description: 'Youngest age admitted.' })),
  age_max: Nullable(Type.Integer({ description: 'Oldest age admitted.' })),
  level: Nullable(Type.String({ description: 'Performance level.' })),
  description: Nullable(Type.String()),
}, {
  $id: 'Group',
  additionalProperties: false,
  description: 'An active training group.',
  examples: [{
    id: '6f1c2a4e-8b3d-4f7a-9c21-5e0d7b8a9f13', name: 'Junior squad U14', sport: 'tennis', age_min: 10, age_max: 14,
    level: 'regional league', description: 'Match practice for players in the regional junior league. Tuesdays and Thursdays, 17:00.',
  }],
})
export type Group = Static<typeof Group>

/** A page of training groups with the number that match. */
export const GroupList = ListEnvelope(Group, 'A page of training groups and the number of records that match.')
