/** The messages of webhook events and their deliveries as a change queues them, in its transaction. */
import { randomUUID } from 'node:crypto'
import type { CompiledQuery, Kysely } from 'kysely'
import { compiledOnce } from '../compiled.js'
import type { Database } from '../schema.js'
import { isoForDb } from '../values.js'

const subscribersQuery = compiledOnce((db, clubId: string) => db.selectFrom('webhook_endpoints').select(['id', 'event_types'])
  .where('club_id', '=', clubId).where('enabled', '=', true))

/** The enabled endpoints of a club, with the types each receives. */
export async function subscribers(db: Kysely<Database>, clubId: string): Promise<{ id: string, types: ReadonlySet<string> }[]> {
  const rows = await subscribersQuery.execute(db, clubId)
  return rows.map((row) => ({ id: row.id, types: new Set(JSON.parse(row.event_types) as string[]) }))
}

export interface NewMessage {
  readonly id: string
  readonly clubId: string
  readonly type: string
  readonly subjectId: string
  /** The body every delivery of the message sends. */
  readonly payload: string
}

// Compiled once (compiled.ts): a unit of work sends them with its other inserts (src/db/insert-batch.ts).
const insertMessageQuery = compiledOnce((db, id: string, clubId: string, type: string, subjectId: string, payload: string,
  createdAt: string) => db.insertInto('webhook_messages').values({ id, club_id: clubId, type, subject_id: subjectId, payload,
  created_at: createdAt }))

const insertDeliveryQuery = compiledOnce((db, id: string, messageId: string, endpointId: string, clubId: string, at: string,
  createdAt: string) => db.insertInto('webhook_deliveries').values({ id, message_id: messageId, endpoint_id: endpointId,
  club_id: clubId, trigger: 'event', status: 'pending', attempts: 0, next_attempt_at: at, created_at: createdAt }))

/** The insert of an event's message. */
export function messageInsert(db: Kysely<Database>, message: NewMessage, now: number): CompiledQuery {
  return insertMessageQuery.compile(db, message.id, message.clubId, message.type, message.subjectId, message.payload,
    isoForDb(now))
}

export async function insertMessage(db: Kysely<Database>, message: NewMessage, now: number): Promise<void> {
  await db.executeQuery(messageInsert(db, message, now))
}

/** The inserts of one pending delivery of an event's message to each endpoint, due at `at`. */
export function eventDeliveryInserts(db: Kysely<Database>, messageId: string, clubId: string,
  endpointIds: readonly string[], at: number, now: number): CompiledQuery[] {
  return endpointIds.map((endpointId) => insertDeliveryQuery.compile(db, randomUUID(), messageId, endpointId, clubId,
    isoForDb(at), isoForDb(now)))
}

/** Deletes the deliveries of a record's messages of `type` that are due after `now` and not yet tried. */
export async function withdrawDueLater(db: Kysely<Database>, now: number, clubId: string, subjectId: string,
  type: string): Promise<void> {
  const messages = db.selectFrom('webhook_messages').select('id')
    .where('club_id', '=', clubId).where('subject_id', '=', subjectId).where('type', '=', type)
  await db.deleteFrom('webhook_deliveries')
    .where('message_id', 'in', messages).where('status', '=', 'pending').where('attempts', '=', 0)
    .where('next_attempt_at', '>', isoForDb(now))
    .execute()
}
