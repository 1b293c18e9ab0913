/**
 * The events a club's endpoints can receive, and how one is recorded: in the transaction of the
 * change it reports, as a message (the body every delivery of it sends, under one `webhook-id`)
 * and one delivery per enabled endpoint that receives its type. A change that rolls back takes its
 * event with it; a change that commits has its deliveries queued. A club without an endpoint for
 * the type records nothing.
 */
import { randomUUID } from 'node:crypto'
import type { CompiledQuery, Kysely } from 'kysely'
import type { EventType } from '../domain/webhook-events.js'
import { eventDeliveryInserts, messageInsert, subscribers, withdrawDueLater } from '../db/repositories/webhook-messages.js'
import type { Database } from '../db/schema.js'
import { isoForDb } from '../db/values.js'

export { EVENT_TYPES, TEST_EVENT, isEventType } from '../domain/webhook-events.js'
export type { EventType } from '../domain/webhook-events.js'

export interface NewEvent {
  readonly type: EventType
  readonly data: object
  /** The record the event is about (for a news item, so a scheduled publication can be withdrawn). */
  readonly subjectId: string
  /** Deliver no earlier than this (a scheduled news item's publication); default: now. */
  readonly at?: number
}

/** The body of every delivery: the Standard Webhooks envelope. */
export function envelope(type: string, at: number, data: object): string {
  return JSON.stringify({ type, timestamp: isoForDb(at), data })
}

/** A Standard Webhooks message id: `msg_` and 32 hex digits. */
export function messageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`
}

/** Whether any enabled endpoint of the club receives one of the types (the caller may skip preparing events). */
export async function anySubscriber(db: Kysely<Database>, clubId: string, types: readonly EventType[]): Promise<boolean> {
  return (await subscribers(db, clubId)).some((endpoint) => types.some((type) => endpoint.types.has(type)))
}

/** A club's enabled endpoints and the types each receives. */
export type Subscribers = Awaited<ReturnType<typeof subscribers>>

/** The rows that record events: their messages and deliveries, and how many deliveries those are. */
export interface EventRows {
  readonly inserts: CompiledQuery[]
  readonly deliveries: number
}

/**
 * The inserts that record events in the caller's transaction (a unit of work sends them with its
 * other inserts). `endpoints`: the club's, if the change read them with its other reads, or read here.
 */
export async function eventInserts(trx: Kysely<Database>, now: number, clubId: string,
  events: readonly NewEvent[], endpoints?: Subscribers): Promise<EventRows> {
  if (events.length === 0) return { inserts: [], deliveries: 0 }
  endpoints ??= await subscribers(trx, clubId)
  const inserts: CompiledQuery[] = []
  let deliveries = 0
  for (const event of events) {
    const targets = endpoints.filter((endpoint) => endpoint.types.has(event.type))
    if (targets.length === 0) continue
    const at = Math.max(now, event.at ?? now)
    const id = messageId()
    inserts.push(messageInsert(trx, { id, clubId, type: event.type, subjectId: event.subjectId,
      payload: envelope(event.type, at, event.data) }, now))
    inserts.push(...eventDeliveryInserts(trx, id, clubId, targets.map((endpoint) => endpoint.id), at, now))
    deliveries += targets.length
  }
  return { inserts, deliveries }
}

/**
 * Withdraws the deliveries of a record's events of `type` that are due after `now` and not yet
 * tried (a scheduled news item's publication, when the item changes before it is due).
 */
export async function withdrawScheduled(trx: Kysely<Database>, now: number, clubId: string, subjectId: string,
  type: EventType): Promise<void> {
  await withdrawDueLater(trx, now, clubId, subjectId, type)
}
