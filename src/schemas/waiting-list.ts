/** The waiting list's public endpoint (docs/waiting-list.md): a guest asks to be told when a taken slot frees. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { NO_CONTROL_CHARACTERS, Uuid } from './common.js'

const EXAMPLE_COURT = 'c0a8f3d2-5b1e-4c7a-8f20-3d9e6b1a7c44'

export const WaitingRequest = Type.Object({
  court_id: Uuid('The court, as listed by GET …/courts.'),
  start_time: Type.String({ format: 'date-time', description: 'Start of the slot, RFC 3339 with an offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the slot (one slot of the court\'s grid).' }),
  name: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'Greets the guest in the mails.' }),
  email: Type.String({ format: 'email', maxLength: 254, description: 'Where the mails go: one now, saying the address waits, and '
    + 'one when the slot frees; each has a link that stops them.' }),
}, {
  $id: 'WaitingRequest',
  additionalProperties: false,
  description: 'One slot of a court that is taken now (booked, reserved or blocked) and starts within the court\'s booking window.',
  examples: [{ court_id: EXAMPLE_COURT, start_time: '2026-06-16T19:00:00+02:00', end_time: '2026-06-16T20:00:00+02:00',
    name: 'Jana Weber', email: 'jana.weber@example.org' }],
})
export type WaitingRequest = Static<typeof WaitingRequest>

export const WaitingCreated = Type.Object({
  success: Type.Boolean({ description: 'Always true: a refusal is a problem document.' }),
  court_id: Uuid(),
  start_time: Type.String({ format: 'date-time', description: 'Start of the slot, in the club\'s offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the slot, in the club\'s offset.' }),
}, {
  $id: 'WaitingCreated',
  additionalProperties: false,
  description: 'The address waits for the slot; a mail saying so is on its way (none when it waited for it already).',
  examples: [{ success: true, court_id: EXAMPLE_COURT, start_time: '2026-06-16T19:00:00+02:00', end_time: '2026-06-16T20:00:00+02:00' }],
})
