import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { ListEnvelope, DateTime, Nullable, Uuid } from './common.js'

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
  examples: [{
    id: '2b7d9e41-0c3f-4a8e-b5d6-7f1a2c3e4d50', title: 'Summer open day', starts_at: '2026-06-20T08:00:00.000Z',
    ends_at: '2026-06-20T14:00:00.000Z', location: 'Clubhouse and courts 1–4',
  }],
})
export type Event = Static<typeof Event>

/** A page of public events with the number that match. */
export const EventList = ListEnvelope(Event, 'A page of public events and the number of records that match.')
