/**
 * Webhook endpoints, messages and deliveries. Every function a request reaches takes the club id
 * and scopes by it; the worker's functions go by delivery and endpoint ids it claimed.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable, Transaction } from 'kysely'
import { claiming } from '../dialect.js'
import type { Database, WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable, WebhookTrigger } from '../schema.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'

export interface EndpointRecord {
  readonly id: string
  readonly clubId: string
  readonly url: string
  readonly description: string
  readonly eventTypes: readonly string[]
  readonly enabled: boolean
  readonly disabledReason: 'gone' | 'failing' | null
  readonly secret: string
  readonly previousSecret: string | null
  readonly previousSecretUntil: number | null
  readonly failingSince: number | null
  readonly createdAt: string
  readonly updatedAt: string
}

const instantOrNull = (value: Date | string | null) => (value === null ? null : Date.parse(isoFromDb(value)))

function toEndpoint(row: Selectable<WebhookEndpointsTable>): EndpointRecord {
  return {
    id: row.id, clubId: row.club_id, url: row.url, description: row.description,
    eventTypes: JSON.parse(row.event_types) as string[], enabled: Boolean(row.enabled), disabledReason: row.disabled_reason,
    secret: row.secret, previousSecret: row.previous_secret, previousSecretUntil: instantOrNull(row.previous_secret_until),
    failingSince: instantOrNull(row.failing_since), createdAt: isoFromDb(row.created_at), updatedAt: isoFromDb(row.updated_at),
  }
}

export async function listEndpoints(db: Kysely<Database>, clubId: string): Promise<EndpointRecord[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('club_id', '=', clubId).orderBy('created_at').orderBy('id')
    .execute()
  return rows.map(toEndpoint)
}

export async function findEndpoint(db: Kysely<Database>, clubId: string, id: string): Promise<EndpointRecord | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('club_id', '=', clubId).where('id', '=', id)
    .executeTakeFirst()
  return row === undefined ? undefined : toEndpoint(row)
}

export async function countEndpoints(db: Kysely<Database>, clubId: string): Promise<number> {
  const row = await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('club_id', '=', clubId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface EndpointFields {
  readonly url: string
  readonly description: string
  readonly eventTypes: readonly string[]
  readonly enabled: boolean
}

export async function insertEndpoint(db: Kysely<Database>, clubId: string, fields: EndpointFields, secret: string,
  now: number): Promise<EndpointRecord> {
  const row = await db.insertInto('webhook_endpoints').values({
    id: randomUUID(), club_id: clubId, url: fields.url, description: fields.description,
    event_types: JSON.stringify(fields.eventTypes), enabled: fields.enabled, disabled_reason: null, secret,
    created_at: isoForDb(now), updated_at: isoForDb(now),
  }).returningAll().executeTakeFirstOrThrow()
  return toEndpoint(row)
}

/** Changes an endpoint; enabling it clears why it was disabled and its failure streak. */
export async function updateEndpoint(db: Kysely<Database>, clubId: string, id: string, fields: EndpointFields,
  now: number): Promise<EndpointRecord | undefined> {
  const row = await db.updateTable('webhook_endpoints').set({
    url: fields.url, description: fields.description, event_types: JSON.stringify(fields.eventTypes), enabled: fields.enabled,
    ...(fields.enabled ? { disabled_reason: null, failing_since: null } : {}), updated_at: isoForDb(now),
  }).where('club_id', '=', clubId).where('id', '=', id).returningAll().executeTakeFirst()
  return row === undefined ? undefined : toEndpoint(row)
}

export async function deleteEndpoint(db: Kysely<Database>, clubId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('club_id', '=', clubId).where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** A new current secret; the one it replaces stays valid until `previousUntil` (none if that is now). */
export async function replaceSecret(db: Kysely<Database>, clubId: string, id: string, secret: string, previousUntil: number,
  now: number): Promise<EndpointRecord | undefined> {
  const row = await db.updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: previousUntil > now ? eb.ref('secret') : null,
      previous_secret_until: previousUntil > now ? isoForDb(previousUntil) : null,
      secret, updated_at: isoForDb(now),
    }))
    .where('club_id', '=', clubId).where('id', '=', id).returningAll().executeTakeFirst()
  return row === undefined ? undefined : toEndpoint(row)
}

export async function endpointsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, EndpointRecord>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', [...ids]).execute()
  return new Map(rows.map((row) => [row.id, toEndpoint(row)]))
}

/** After a delivery arrived: the endpoint works. */
export async function endpointSucceeded(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null)
    .execute()
}

/** After a failed attempt: since when the endpoint has failed without a success in between. */
export async function endpointFailed(db: Kysely<Database>, id: string, now: number): Promise<number> {
  await db.updateTable('webhook_endpoints').set({ failing_since: isoForDb(now) }).where('id', '=', id).where('failing_since', 'is', null)
    .execute()
  const row = await db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', id).executeTakeFirst()
  return instantOrNull(row?.failing_since ?? null) ?? now
}

/**
 * Disables an endpoint (410, or failing for days); its deliveries still waiting fail with the
 * reason, to be replayed once it works (in the caller's transaction). False when it was disabled already (by another attempt).
 */
export async function disableEndpoint(trx: Transaction<Database>, id: string, reason: 'gone' | 'failing', note: string,
  now: number): Promise<boolean> {
  const result = await trx.updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: isoForDb(now) })
    .where('id', '=', id).where('enabled', '=', true).executeTakeFirst()
  if (result.numUpdatedRows === 0n) return false
  await failWaiting(trx, id, note, now)
  return true
}

/** The deliveries of an endpoint that wait for an attempt fail with `note` (the endpoint no longer receives events). */
export async function failWaiting(db: Kysely<Database>, endpointId: string, note: string, now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'failed', last_error: note, locked_until: null, finished_at: isoForDb(now) })
    .where('endpoint_id', '=', endpointId).where('status', '=', 'pending').where('trigger', '=', 'event').execute()
}

export type DeliveryRow = Selectable<WebhookDeliveriesTable>

/**
 * Marks up to `limit` due deliveries as being attempted by this instance until `leaseUntil`, as
 * the mail outbox does (src/db/repositories/outbox.ts): PostgreSQL skips rows another instance is
 * claiming, and the update re-checks the condition. Deliveries of clubs at their per-minute limit wait.
 */
export async function claimDueDeliveries(db: Kysely<Database>, now: number, leaseUntil: number, limit: number,
  perClubPerMinute: number): Promise<DeliveryRow[]> {
  const at = isoForDb(now)
  return db.transaction().execute(async (trx) => {
    const busy = trx.selectFrom('webhook_deliveries').select('club_id').where('last_attempt_at', '>', isoForDb(now - 60_000))
      .groupBy('club_id').having((eb) => eb.fn.countAll(), '>=', perClubPerMinute)
    const due = claiming(trx, trx.selectFrom('webhook_deliveries').select('id')
      .where((eb) => eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', at)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<=', at)]),
      ]))
      .where('club_id', 'not in', busy)
      .orderBy('next_attempt_at').limit(limit))
    const ids = (await due.execute()).map((row) => row.id)
    if (ids.length === 0) return []
    return trx.updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'sending', locked_until: isoForDb(leaseUntil), attempts: eb('attempts', '+', 1), last_attempt_at: at }))
      .where('id', 'in', ids)
      .where((eb) => eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', at)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<=', at)]),
      ]))
      .returningAll()
      .execute()
  })
}

export interface MessageRecord {
  readonly type: string
  readonly payload: string
}

export async function messagesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, MessageRecord>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('webhook_messages').select(['id', 'type', 'payload']).where('id', 'in', [...ids]).execute()
  return new Map(rows.map((row) => [row.id, row]))
}

export interface AttemptRecord {
  readonly status: 'delivered' | 'failed' | 'pending'
  readonly nextAttemptAt?: number
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly latencyMs: number | null
  readonly error: string | null
}

/** Records an attempt's outcome, if this instance still holds the delivery's lease. */
export async function recordAttempt(db: Kysely<Database>, id: string, heldUntil: number, outcome: AttemptRecord,
  now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({
    status: outcome.status, locked_until: null, response_status: outcome.responseStatus, response_body: outcome.responseBody,
    latency_ms: outcome.latencyMs, last_error: outcome.error,
    ...(outcome.status === 'pending' ? { next_attempt_at: isoForDb(outcome.nextAttemptAt ?? now) } : { finished_at: isoForDb(now) }),
  }).where('id', '=', id).where('status', '=', 'sending').where('locked_until', '=', isoForDb(heldUntil)).execute()
}

/** Hands claimed deliveries back untried (the worker is stopping), due at once for the next instance. */
export async function releaseDeliveries(db: Kysely<Database>, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'pending', next_attempt_at: isoForDb(now), locked_until: null, attempts: eb('attempts', '-', 1) }))
    .where('id', 'in', [...ids]).where('status', '=', 'sending').execute()
}

export interface DeliveryRecord {
  readonly id: string
  readonly messageId: string
  readonly eventType: string
  readonly trigger: WebhookTrigger
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: string | null
  readonly lastAttemptAt: string | null
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly latencyMs: number | null
  readonly error: string | null
  readonly createdAt: string
  readonly finishedAt: string | null
  readonly payload: string
}

function deliveries(db: Kysely<Database>) {
  return db.selectFrom('webhook_deliveries')
    .innerJoin('webhook_messages', 'webhook_messages.id', 'webhook_deliveries.message_id')
    .selectAll('webhook_deliveries').select(['webhook_messages.type', 'webhook_messages.payload'])
}

function toDelivery(row: DeliveryRow & { type: string, payload: string }): DeliveryRecord {
  return {
    id: row.id, messageId: row.message_id, eventType: row.type, trigger: row.trigger, status: row.status, attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? isoFromDb(row.next_attempt_at) : null, lastAttemptAt: isoFromDbOrNull(row.last_attempt_at),
    responseStatus: row.response_status, responseBody: row.response_body, latencyMs: row.latency_ms, error: row.last_error,
    createdAt: isoFromDb(row.created_at), finishedAt: isoFromDbOrNull(row.finished_at), payload: row.payload,
  }
}

/** An endpoint's most recent deliveries (of one status, if given), newest first. */
export async function listDeliveries(db: Kysely<Database>, clubId: string, endpointId: string, limit: number,
  status?: WebhookDeliveryStatus): Promise<DeliveryRecord[]> {
  let query = deliveries(db).where('webhook_deliveries.club_id', '=', clubId).where('webhook_deliveries.endpoint_id', '=', endpointId)
  if (status !== undefined) query = query.where('webhook_deliveries.status', '=', status)
  const rows = await query.orderBy('webhook_deliveries.created_at', 'desc').orderBy('webhook_deliveries.id', 'desc').limit(limit)
    .execute()
  return rows.map(toDelivery)
}

export async function findDelivery(db: Kysely<Database>, clubId: string, endpointId: string, id: string):
Promise<DeliveryRecord | undefined> {
  const row = await deliveries(db).where('webhook_deliveries.club_id', '=', clubId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId).where('webhook_deliveries.id', '=', id).executeTakeFirst()
  return row === undefined ? undefined : toDelivery(row)
}

/** A delivery of an existing message to one endpoint, due now (a replay, or a test event's). */
export interface NewDelivery {
  readonly messageId: string
  readonly endpointId: string
  readonly clubId: string
  readonly trigger: WebhookTrigger
}

export async function insertDelivery(db: Kysely<Database>, input: NewDelivery, now: number): Promise<string> {
  const id = randomUUID()
  await db.insertInto('webhook_deliveries').values({
    id, message_id: input.messageId, endpoint_id: input.endpointId, club_id: input.clubId, trigger: input.trigger, status: 'pending',
    attempts: 0, next_attempt_at: isoForDb(now), created_at: isoForDb(now),
  }).execute()
  return id
}

/** Deletes at most `limit` deliveries that finished (delivered or given up) before `before`, through their index by end. */
export async function deleteFinishedDeliveries(db: Kysely<Database>, before: number, limit: number): Promise<number> {
  const ids = await db.selectFrom('webhook_deliveries').select('id').where('finished_at', '<', isoForDb(before))
    .where('status', 'in', ['delivered', 'failed']).limit(limit).execute()
  if (ids.length === 0) return 0
  const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', ids.map((row) => row.id)).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Where a walk over old webhook messages goes on: after this message, in the order of creation. */
export interface MessageCursor {
  readonly createdAt: string
  readonly id: string
}

/**
 * Reads at most `limit` messages created before `before` (after `cursor`, oldest first) and deletes
 * those that no delivery refers to any more. A message is referred to by its deliveries alone, and a
 * delivery is made only of a message that has one (a replay) or is new: none can appear meanwhile.
 */
export async function deleteUndeliveredMessages(
  db: Kysely<Database>,
  before: number,
  cursor: MessageCursor | null,
  limit: number,
): Promise<{ read: number, deleted: number, next: MessageCursor | null }> {
  let query = db.selectFrom('webhook_messages').select(['id', 'created_at']).where('created_at', '<', isoForDb(before))
  if (cursor !== null) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(cursor.createdAt, cursor.id)))
  }
  const rows = await query.orderBy('created_at').orderBy('id').limit(limit).execute()
  const last = rows.at(-1)
  if (last === undefined) return { read: 0, deleted: 0, next: null }
  const ids = rows.map((row) => row.id)
  const referred = new Set((await db.selectFrom('webhook_deliveries').select('message_id').distinct()
    .where('message_id', 'in', ids).execute()).map((row) => row.message_id))
  const unreferred = ids.filter((id) => !referred.has(id))
  const deleted = unreferred.length === 0
    ? 0
    : Number((await db.deleteFrom('webhook_messages').where('id', 'in', unreferred).executeTakeFirst()).numDeletedRows)
  return { read: rows.length, deleted, next: { createdAt: isoForDb(last.created_at), id: last.id } }
}

/** The club's owners' addresses, for the mail that an endpoint was disabled. */
export interface ClubOwner {
  readonly email: string
  readonly clubName: string
  readonly clubSlug: string
}

export async function ownerAddresses(db: Kysely<Database>, clubId: string): Promise<ClubOwner[]> {
  return db.selectFrom('club_admins').innerJoin('admins', 'admins.id', 'club_admins.admin_id')
    .innerJoin('clubs', 'clubs.id', 'club_admins.club_id')
    .select(['admins.email', 'clubs.name as clubName', 'clubs.slug as clubSlug'])
    .where('club_admins.club_id', '=', clubId).where('club_admins.role', '=', 'owner').execute()
}
