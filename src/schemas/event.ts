import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { DateTime, Nullable, Uuid } from './common.js'

export const Event = Type.Object({
  id: Uuid(),
  title: Type.String(),
  starts_at: DateTime('Start, in UTC.'),
  ends_at: Nullable(DateTime('End, in UTC.')),
  location: Nullable(Type.String()),
}, {
  $id: 'Event',
  additionalProperties: false,
  description: 'A public event: released for public booking and not assigned to any group.',
})
export type Event = Static<typeof Event>
