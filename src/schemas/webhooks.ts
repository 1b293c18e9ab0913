/**
 * Webhooks: the dashboard API's endpoint and delivery resources, and the payload of every event
 * type, which the public API description lists in its OpenAPI 3.1 `webhooks` section.
 */
import { Type } from '@sinclair/typebox'
import type { Static, TSchema } from '@sinclair/typebox'
import { EVENT_TYPES, TEST_EVENT } from '../domain/webhook-events.js'
import type { EventType } from '../domain/webhook-events.js'
import { DateTime, Nullable, Reference, Uuid } from './common.js'
import { CompetitionResult } from './competition-result.js'
import { Event } from './event.js'
import { Group } from './group.js'
import { News } from './news.js'

const Instant = (description: string) => Type.String({ format: 'date-time', description })
const EventTypeName = Type.Unsafe<EventType>({ type: 'string', enum: [...EVENT_TYPES], description: 'An event type (docs/webhooks.md).' })

export const WebhookEndpoint = Type.Object({
  id: Uuid(),
  url: Type.String({ description: 'Where deliveries are POSTed.' }),
  description: Type.String(),
  event_types: Type.Array(EventTypeName, { description: 'The event types it receives.' }),
  enabled: Type.Boolean(),
  disabled_reason: Type.Unsafe<'gone' | 'failing' | null>({ type: ['string', 'null'], enum: ['gone', 'failing', null],
    description: 'Why the service disabled it: it answered 410 Gone, or nothing reached it for 3 days; null otherwise.' }),
  previous_secret_valid_until: Nullable(Instant('During a rotation\'s overlap: until when the previous secret signs too.')),
  failing_since: Nullable(Instant('Since when every delivery has failed; null while it works.')),
  created_at: Instant('When it was added.'),
  updated_at: Instant('When it was last changed.'),
}, { $id: 'WebhookEndpoint', additionalProperties: false, description: 'A receiver of the club\'s webhooks, without its secret.' })
export type WebhookEndpoint = Static<typeof WebhookEndpoint>

export const WebhookEndpointList = Type.Object({ items: Type.Array(Reference(WebhookEndpoint)) }, {
  $id: 'WebhookEndpointList', additionalProperties: false, description: 'The club\'s webhook endpoints, oldest first.',
})

export const WebhookEndpointSave = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2000,
    description: 'An https:// URL whose host resolves to public addresses only (the operator may allow http and private '
      + 'networks for testing).' }),
  description: Type.Optional(Type.String({ maxLength: 200, description: 'What receives it, for the club\'s own records.' })),
  event_types: Type.Array(EventTypeName, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true }),
  enabled: Type.Optional(Type.Boolean({ default: true, description: 'False: it receives nothing until enabled.' })),
}, { $id: 'WebhookEndpointSave', additionalProperties: false, description: 'An endpoint as it is to be.' })

const Secret = Type.String({ pattern: '^whsec_', description: 'The signing secret (Standard Webhooks), shown in this answer only.' })

export const WebhookEndpointCreated = Type.Object({ secret: Secret, endpoint: Reference(WebhookEndpoint) }, {
  $id: 'WebhookEndpointCreated', additionalProperties: false, description: 'The new endpoint and its secret, shown once.',
})

export const WebhookSecretRotation = Type.Object({
  overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, default: 24,
    description: 'How long the previous secret keeps signing alongside the new one (0: it stops now).' })),
}, { $id: 'WebhookSecretRotation', additionalProperties: false, description: 'A new signing secret.' })

export const WebhookSecretRotated = Type.Object({ secret: Secret, endpoint: Reference(WebhookEndpoint) }, {
  $id: 'WebhookSecretRotated', additionalProperties: false, description: 'The new secret, shown once, and the endpoint.',
})

export const WebhookDelivery = Type.Object({
  id: Uuid(),
  webhook_id: Type.String({ description: 'The message\'s `webhook-id`: the same for every attempt and replay of it.' }),
  event_type: Type.String({ description: `An event type, or ${TEST_EVENT}.` }),
  trigger: Type.Unsafe<'event' | 'test' | 'replay'>({ type: 'string', enum: ['event', 'test', 'replay'],
    description: 'Why it was sent: an event, "send test event", or a replay.' }),
  status: Type.Unsafe<'pending' | 'sending' | 'delivered' | 'failed'>({ type: 'string',
    enum: ['pending', 'sending', 'delivered', 'failed'] }),
  attempts: Type.Integer({ minimum: 0 }),
  next_attempt_at: Nullable(Instant('While pending: when it is attempted (next).')),
  last_attempt_at: Nullable(Instant('When it was last attempted.')),
  response_status: Nullable(Type.Integer({ description: 'The status of the last answer; null: none came.' })),
  response_body: Nullable(Type.String({ description: 'The first bytes (at most 1 KiB) of the last answer.' })),
  latency_ms: Nullable(Type.Integer({ description: 'How long the last attempt took.' })),
  error: Nullable(Type.String({ description: 'Why the last attempt failed.' })),
  created_at: Instant('When it was queued.'),
  finished_at: Nullable(Instant('When it was delivered or failed for good.')),
  payload: Type.String({ description: 'The body sent: the event as JSON.' }),
}, { $id: 'WebhookDelivery', additionalProperties: false, description: 'One message sent (or to be sent) to an endpoint.' })
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const WebhookDeliveryList = Type.Object({ items: Type.Array(Reference(WebhookDelivery)) }, {
  $id: 'WebhookDeliveryList', additionalProperties: false, description: 'The endpoint\'s most recent deliveries, newest first.',
})

export const ClubWebhookParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  endpoint: Uuid('A webhook endpoint id.'),
}, { additionalProperties: false })

export const ClubWebhookDeliveryParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  endpoint: Uuid('A webhook endpoint id.'),
  delivery: Uuid('A delivery id.'),
}, { additionalProperties: false })

export const DeliveriesQuery = Type.Object({
  status: Type.Optional(Type.Unsafe<'pending' | 'sending' | 'delivered' | 'failed'>({ type: 'string',
    enum: ['pending', 'sending', 'delivered', 'failed'], description: 'Only deliveries in this state.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
}, { additionalProperties: false })

export const WEBHOOK_ADMIN_SCHEMAS = [WebhookEndpoint, WebhookEndpointList, WebhookEndpointSave, WebhookEndpointCreated,
  WebhookSecretRotation, WebhookSecretRotated, WebhookDelivery, WebhookDeliveryList]

/* The payloads. */

const BOOKING_FIELDS = {
  id: Uuid('The booking.'),
  court_id: Uuid(),
  court_name: Type.String(),
  start_time: DateTime('Start, in the club\'s offset.'),
  end_time: DateTime('End, in the club\'s offset.'),
  status: Type.Unsafe<'confirmed' | 'cancelled'>({ type: 'string', enum: ['confirmed', 'cancelled'] }),
  created_at: DateTime('When it was booked, in the club\'s offset.'),
  cancelled_at: Nullable(DateTime('When it was cancelled, in the club\'s offset.')),
  cancelled_by: Type.Unsafe<'guest' | 'club' | 'hold' | null>({ type: ['string', 'null'], enum: ['guest', 'club', 'hold', null],
    description: 'Who cancelled: the guest (with the link of the confirmation mail), the club, or a block laid over the booking.' }),
}

export const WebhookBooking = Type.Object(BOOKING_FIELDS, { $id: 'WebhookBooking', additionalProperties: false,
  description: 'A booking as the public courts listing knows it: court and times, never the guest\'s name or address.' })

export const WebhookBookingMove = Type.Object({
  ...BOOKING_FIELDS,
  previous: Type.Object({
    court_id: Uuid(),
    court_name: Type.String(),
    start_time: DateTime('Start before the move, in the club\'s offset.'),
    end_time: DateTime('End before the move, in the club\'s offset.'),
  }, { additionalProperties: false, description: 'Where and when the booking was before the move.' }),
  moved_by: Type.Unsafe<'guest' | 'club'>({ type: 'string', enum: ['guest', 'club'],
    description: 'Who moved it: the guest (from the booking\'s page) or the club.' }),
}, { $id: 'WebhookBookingMove', additionalProperties: false,
  description: 'A booking after a move, and where it was before: court and times, never the guest\'s name or address.' })

export const WebhookFreedSlot = Type.Object({
  court_id: Uuid(),
  court_name: Type.String(),
  start_time: DateTime('Start of the slot, in the club\'s offset.'),
  end_time: DateTime('End of the slot, in the club\'s offset.'),
  freed_by: Type.Unsafe<'cancellation' | 'move' | 'hold_removed'>({ type: 'string', enum: ['cancellation', 'move', 'hold_removed'],
    description: 'What freed it: a booking cancelled, a booking moved elsewhere, or a block or reservation removed.' }),
  waiting: Type.Integer({ minimum: 0, description: 'How many addresses were waiting for it; each was mailed (docs/waiting-list.md) '
    + 'unless the club has switched its waiting list off.' }),
}, { $id: 'WebhookFreedSlot', additionalProperties: false,
  description: 'A slot of a court that was taken and is free to book now: court and times, never who waits for it.' })

export const WebhookTest = Type.Object({
  endpoint_id: Uuid('The endpoint the test was sent to.'),
  message: Type.String(),
}, { $id: 'WebhookTest', additionalProperties: false, description: 'The data of a test event.' })

const DATA: Readonly<Record<string, TSchema>> = {
  'booking.rescheduled': WebhookBookingMove,
  'slot.freed': WebhookFreedSlot,
  'booking': WebhookBooking, 'group': Group, 'event': Event, 'news': News, 'competition_result': CompetitionResult,
}

const MEANING: Readonly<Record<EventType, string>> = {
  'booking.created': 'A court was booked (on the public endpoint, the widget or the booking page).',
  'booking.cancelled': 'A booking was cancelled: by its guest, by the club, or by a block laid over it.',
  'booking.rescheduled': 'A booking was moved to another time or court: by its guest (from the booking\'s page) or by the club. '
    + 'The same booking (same id); `previous` says where it was.',
  'slot.freed': 'A slot that was taken became free to book before its start: a booking was cancelled or moved, or a block or '
    + 'reservation removed (those within the court\'s booking horizon). One event per slot of the court\'s grid, whether or not '
    + 'anyone waits for it; `waiting` says how many do.',
  'group.created': 'A training group appeared in GET /api/v1/groups: added, or made active again.',
  'group.updated': 'A listed training group changed.',
  'group.deleted': 'A training group left GET /api/v1/groups: made inactive. `data` is the group as it was listed.',
  'event.created': 'An event appeared in GET /api/v1/events: added, or released for public booking without a group.',
  'event.updated': 'A listed event changed.',
  'event.deleted': 'An event left GET /api/v1/events: deleted, withdrawn from public booking, or given a group. `data` is the '
    + 'event as it was listed.',
  'news.published': 'A news item appeared in GET /api/v1/news: published now, or its scheduled time came (delivered then).',
  'news.updated': 'A published news item changed.',
  'news.unpublished': 'A news item left GET /api/v1/news: deleted, made a draft, or scheduled for later. `data` is the item as '
    + 'it was listed.',
  'competition_result.created': 'A competition result was recorded.',
  'competition_result.updated': 'A competition result changed.',
  'competition_result.deleted': 'A competition result was deleted. `data` is the result as it was.',
}

const schemaId = (type: string) => `${type.split(/[._]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}Event`

function payload(type: string, data: TSchema, description: string) {
  return Type.Object({
    type: Type.Literal(type),
    timestamp: DateTime('When the event happened, in UTC.'),
    data: Reference(data),
  }, { $id: schemaId(type), additionalProperties: false, description })
}

/** One schema per event type (and the test event), by type. */
export const WEBHOOK_PAYLOADS: ReadonlyMap<string, TSchema> = new Map([
  ...EVENT_TYPES.map((type) => [type, payload(type, DATA[type] ?? DATA[type.split('.')[0] ?? ''] ?? WebhookTest, MEANING[type])] as const),
  [TEST_EVENT, payload(TEST_EVENT, WebhookTest, 'Sent by "send test event" to one endpoint, whatever types it receives.')],
])

export const WEBHOOK_PAYLOAD_SCHEMAS = [WebhookBooking, WebhookBookingMove, WebhookFreedSlot, WebhookTest,
  ...WEBHOOK_PAYLOADS.values()]
