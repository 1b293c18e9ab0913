/** The events a club's webhook endpoints can receive (src/webhooks/events.ts records them). */

/** Every event type, in the order the dashboard lists them. */
export const EVENT_TYPES = [
  'booking.created', 'booking.cancelled', 'booking.rescheduled', 'slot.freed',
  'group.created', 'group.updated', 'group.deleted',
  'event.created', 'event.updated', 'event.deleted',
  'news.published', 'news.updated', 'news.unpublished',
  'competition_result.created', 'competition_result.updated', 'competition_result.deleted',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** Sent only by "send test event", to one endpoint, whatever types it receives. */
export const TEST_EVENT = 'webhook.test'

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value)
}
