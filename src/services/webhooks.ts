/**
 * A club's webhook endpoints, as its administrators manage them (dashboard API): add, change,
 * enable or disable, remove, rotate the signing secret, send a test event, replay a delivery. Each
 * operation is scoped to the club and recorded in its audit log; the secret leaves the service
 * only in the answer that made it.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import * as store from '../db/repositories/webhooks.js'
import type { DeliveryRecord, EndpointRecord } from '../db/repositories/webhooks.js'
import { insertMessage } from '../db/repositories/webhook-messages.js'
import type { Database } from '../db/schema.js'
import { Conflict, InvalidRequest, NotFound } from '../domain/errors.js'
import { EVENT_TYPES, TEST_EVENT, envelope, isEventType, messageId } from '../webhooks/events.js'
import { RefusedTarget, checkShape, checkTarget } from '../webhooks/sender.js'
import type { TargetPolicy } from '../webhooks/sender.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

const HOUR = 3_600_000

export interface EndpointPolicy extends TargetPolicy {
  readonly maxEndpointsPerClub: number
}

export interface EndpointInput {
  readonly url: string
  readonly description?: string | undefined
  readonly eventTypes: readonly string[]
  readonly enabled?: boolean | undefined
}

/** An endpoint and its secret, in the one answer that shows it. */
export interface EndpointWithSecret {
  readonly record: EndpointRecord
  readonly secret: string
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/**
 * The fields as they will be stored, or InvalidRequest naming the one refused. The URL's host is
 * resolved and checked unless it is the one already stored (`current`): disabling an endpoint
 * works while its host does not resolve, and the worker checks the address at every delivery.
 */
async function checked(input: EndpointInput, policy: TargetPolicy, current?: string): Promise<store.EndpointFields> {
  let url: URL
  try {
    url = new URL(input.url.trim())
  } catch {
    throw new InvalidRequest('field', 'url', 'must be an absolute URL')
  }
  url.hash = ''
  const unchanged = url.href === current
  try {
    if (unchanged) checkShape(url, policy)
    else await checkTarget(url, policy)
  } catch (error) {
    if (error instanceof RefusedTarget) throw new InvalidRequest('field', 'url', error.message)
    throw error
  }
  const unknown = input.eventTypes.find((type) => !isEventType(type))
  if (unknown !== undefined) throw new InvalidRequest('field', 'event_types', `${unknown} is not one of ${EVENT_TYPES.join(', ')}`)
  return {
    url: url.href,
    description: input.description?.trim() ?? '',
    eventTypes: EVENT_TYPES.filter((type) => input.eventTypes.includes(type)),
    enabled: input.enabled ?? true,
  }
}

export async function addEndpoint(db: Kysely<Database>, clock: Clock, policy: EndpointPolicy,
  input: { clubId: string, endpoint: EndpointInput, actor: Actor }): Promise<EndpointWithSecret> {
  const fields = await checked(input.endpoint, policy)
  const secret = generateSecret()
  const now = clock.now()
  const record = await write(db, now, async (work) => {
    const trx = work.db
    const count = await store.countEndpoints(trx, input.clubId)
    if (count >= policy.maxEndpointsPerClub) {
      throw new Conflict(`The club has ${String(count)} webhook endpoints, the most allowed; remove one first.`)
    }
    const created = await store.insertEndpoint(trx, input.clubId, fields, secret, now)
    await work.audit(input.actor, input.clubId, { action: 'webhook.created', target: created.id, targetName: created.url,
      fields: ['url', 'event_types', 'enabled'] })
    return created
  })
  return { record, secret }
}

/** Changes an endpoint. Disabling it fails its waiting deliveries (they can be replayed); enabling it starts afresh. */
export async function changeEndpoint(db: Kysely<Database>, clock: Clock, policy: TargetPolicy,
  input: { clubId: string, endpointId: string, endpoint: EndpointInput, actor: Actor }): Promise<EndpointRecord> {
  const stored = await store.findEndpoint(db, input.clubId, input.endpointId)
  if (stored === undefined) throw new NotFound('No such webhook endpoint.')
  const fields = await checked(input.endpoint, policy, stored.url)
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const before = await store.findEndpoint(trx, input.clubId, input.endpointId)
    const after = await store.updateEndpoint(trx, input.clubId, input.endpointId, fields, now)
    if (before === undefined || after === undefined) throw new NotFound('No such webhook endpoint.')
    if (before.enabled && !after.enabled) await store.failWaiting(trx, after.id, 'not sent: the endpoint was disabled', now)
    const changed = [
      before.url === after.url ? undefined : 'url',
      before.description === after.description ? undefined : 'description',
      before.eventTypes.join() === after.eventTypes.join() ? undefined : 'event_types',
      before.enabled === after.enabled ? undefined : 'enabled',
    ].filter((field) => field !== undefined)
    await work.audit(input.actor, input.clubId, { action: 'webhook.changed', target: after.id, targetName: after.url,
      fields: changed })
    return after
  })
}

export async function removeEndpoint(db: Kysely<Database>, clock: Clock,
  input: { clubId: string, endpointId: string, actor: Actor }): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    const endpoint = await store.findEndpoint(trx, input.clubId, input.endpointId)
    if (endpoint === undefined || !await store.deleteEndpoint(trx, input.clubId, input.endpointId)) {
      throw new NotFound('No such webhook endpoint.')
    }
    await work.audit(input.actor, input.clubId, { action: 'webhook.removed', target: input.endpointId,
      targetName: endpoint.url })
  })
}

/**
 * A new secret. The old one keeps signing alongside it for `overlapHours` (0: it stops at once), so
 * that a receiver can switch over without losing a delivery; a rotation within the overlap ends
 * the older secret's overlap.
 */
export async function rotateSecret(db: Kysely<Database>, clock: Clock,
  input: { clubId: string, endpointId: string, overlapHours: number, actor: Actor }): Promise<EndpointWithSecret> {
  const secret = generateSecret()
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const record = await store.replaceSecret(trx, input.clubId, input.endpointId, secret, now + input.overlapHours * HOUR, now)
    if (record === undefined) throw new NotFound('No such webhook endpoint.')
    await work.audit(input.actor, input.clubId, { action: 'webhook.secret-rotated', target: record.id, targetName: record.url,
      detail: input.overlapHours === 0
        ? 'the old secret ended at once'
        : `the old secret signs for ${String(input.overlapHours)} `
          + 'more hours' })
    return { record, secret }
  })
}

/** Queues a `webhook.test` event for one endpoint, enabled or not; returns its delivery. */
export async function sendTestEvent(db: Kysely<Database>, clock: Clock,
  input: { clubId: string, endpointId: string, actor: Actor }): Promise<DeliveryRecord> {
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const endpoint = await store.findEndpoint(trx, input.clubId, input.endpointId)
    if (endpoint === undefined) throw new NotFound('No such webhook endpoint.')
    const id = messageId()
    await insertMessage(trx, { id, clubId: input.clubId, type: TEST_EVENT, subjectId: endpoint.id,
      payload: envelope(TEST_EVENT, now, { endpoint_id: endpoint.id, message: 'A test event from Club Platform.' }) }, now)
    const deliveryId = await store.insertDelivery(trx, { messageId: id, endpointId: endpoint.id, clubId: input.clubId,
      trigger: 'test' }, now)
    work.queuedDeliveries(1)
    await work.audit(input.actor, input.clubId, { action: 'webhook.tested', target: endpoint.id, targetName: endpoint.url })
    const delivery = await store.findDelivery(trx, input.clubId, endpoint.id, deliveryId)
    if (delivery === undefined) throw new Error('the test delivery was not written')
    return delivery
  })
}

/** Sends a past delivery's message again, as it was (same `webhook-id` and body), signed anew. */
export async function replayDelivery(db: Kysely<Database>, clock: Clock,
  input: { clubId: string, endpointId: string, deliveryId: string, actor: Actor }): Promise<DeliveryRecord> {
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const original = await store.findDelivery(trx, input.clubId, input.endpointId, input.deliveryId)
    if (original === undefined) throw new NotFound('No such delivery.')
    const id = await store.insertDelivery(trx, { messageId: original.messageId, endpointId: input.endpointId,
      clubId: input.clubId,
      trigger: 'replay' }, now)
    work.queuedDeliveries(1)
    const endpoint = await store.findEndpoint(trx, input.clubId, input.endpointId)
    await work.audit(input.actor, input.clubId, { action: 'webhook.replayed', target: original.messageId,
      targetName: endpoint?.url ?? null, detail: `message ${original.messageId}` })
    const delivery = await store.findDelivery(trx, input.clubId, input.endpointId, id)
    if (delivery === undefined) throw new Error('the replayed delivery was not written')
    return delivery
  })
}
