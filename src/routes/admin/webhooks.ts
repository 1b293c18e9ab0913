/**
 * A club's webhook endpoints in the dashboard API (admins and owners, Developer access): list,
 * add (the secret is in that answer only), change, remove, rotate the secret, send a test event,
 * and each endpoint's delivery log with replay. Every query is scoped to the club of the path.
 */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { findEndpoint, listDeliveries, listEndpoints } from '../../services/webhooks.js'
import type { DeliveryRecord, EndpointRecord } from '../../services/webhooks.js'
import { NotFound } from '../../domain/errors.js'
import { memberOf } from '../../http/dashboard-access.js'
import { jsonResponse, noContent, problemResponse } from '../../http/responses.js'
import { ClubParams } from '../../schemas/admin.js'
import { Reference } from '../../schemas/common.js'
import {
  ClubWebhookDeliveryParams, ClubWebhookParams, DeliveriesQuery, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint,
  WebhookEndpointCreated, WebhookEndpointList, WebhookEndpointSave, WebhookSecretRotated, WebhookSecretRotation,
} from '../../schemas/webhooks.js'
import type { EventType } from '../../webhooks/events.js'
import {
  addEndpoint, changeEndpoint, removeEndpoint, replayDelivery, rotateSecret, sendTestEvent,
} from '../../services/webhooks.js'
import { CLUB, FORBIDDEN, INVALID, NOT_SIGNED_IN, NO_CLUB, actorOf } from './common.js'

const AT_LIMIT = problemResponse('The club has as many endpoints as it may.')
const ENDPOINTS = `${CLUB}/webhook-endpoints`
const TAGS = ['Webhooks']

export function endpointBody(record: EndpointRecord, now: number): WebhookEndpoint {
  return {
    id: record.id, url: record.url, description: record.description, event_types: record.eventTypes as EventType[],
    enabled: record.enabled, disabled_reason: record.disabledReason,
    previous_secret_valid_until: record.previousSecret !== null && (record.previousSecretUntil ?? 0) > now
      ? new Date(record.previousSecretUntil ?? 0).toISOString()
      : null,
    failing_since: record.failingSince === null ? null : new Date(record.failingSince).toISOString(),
    created_at: record.createdAt, updated_at: record.updatedAt,
  }
}

export function deliveryBody(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.id, webhook_id: record.messageId, event_type: record.eventType, trigger: record.trigger, status: record.status,
    attempts: record.attempts, next_attempt_at: record.nextAttemptAt, last_attempt_at: record.lastAttemptAt,
    response_status: record.responseStatus, response_body: record.responseBody, latency_ms: record.latencyMs, error: record.error,
    created_at: record.createdAt, finished_at: record.finishedAt, payload: record.payload,
  }
}

/** The club the access guard admitted the request to. */
function clubId(request: Parameters<typeof memberOf>[0]): string {
  return memberOf(request).membership.clubId
}

/** The routes' access: admins and owners. */
type Access = { readonly access: { readonly dashboard: 'admin' } }

export function webhookRoutes(app: FastifyInstance, context: AppContext): void {
  const access = { access: { dashboard: 'admin' } } as const
  registerEndpoints(app, context, access)
  registerEndpointActions(app, context, access)
}

/** The club's endpoints: list, add, change and remove. */
function registerEndpoints(parent: FastifyInstance, context: AppContext, access: Access): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const policy = { ...context.webhookTargets, maxEndpointsPerClub: context.config.webhooks.maxEndpointsPerClub }

  app.get(ENDPOINTS, {
    config: access,
    schema: {
      operationId: 'listWebhookEndpoints', summary: 'The club\'s webhook endpoints', tags: TAGS,
      description: 'Every endpoint, enabled or not, without its secret.',
      params: ClubParams,
      response: { 200: jsonResponse('The endpoints.', Reference(WebhookEndpointList)), 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const now = context.clock.now()
    return { items: (await listEndpoints(context.db, clubId(request))).map((record) => endpointBody(record, now)) }
  })

  app.post(ENDPOINTS, {
    config: access,
    schema: {
      operationId: 'createWebhookEndpoint', summary: 'Add a webhook endpoint', tags: TAGS,
      description: 'Adds an endpoint for the given event types. Its signing secret is in this answer only: store it now.',
      params: ClubParams,
      body: Reference(WebhookEndpointSave),
      response: { 201: jsonResponse('Added.', Reference(WebhookEndpointCreated)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB, 409: AT_LIMIT },
    },
  }, async (request, reply) => {
    const { record, secret } = await addEndpoint(context.db, context.clock, policy, { clubId: clubId(request),
      endpoint: { url: request.body.url, description: request.body.description, eventTypes: request.body.event_types,
        enabled: request.body.enabled }, actor: actorOf(request) })
    return reply.code(201).send({ secret, endpoint: endpointBody(record, context.clock.now()) })
  })

  app.put(`${ENDPOINTS}/:endpoint`, {
    config: access,
    schema: {
      operationId: 'changeWebhookEndpoint', summary: 'Change a webhook endpoint', tags: TAGS,
      description: 'Changes the URL, description, event types, or whether it is enabled. Disabling it fails its waiting '
        + 'deliveries (they can be replayed); enabling it clears why the service disabled it.',
      params: ClubWebhookParams,
      body: Reference(WebhookEndpointSave),
      response: { 200: jsonResponse('Changed.', Reference(WebhookEndpoint)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const record = await changeEndpoint(context.db, context.clock, policy, { clubId: clubId(request),
      endpointId: request.params.endpoint, endpoint: { url: request.body.url, description: request.body.description,
        eventTypes: request.body.event_types, enabled: request.body.enabled }, actor: actorOf(request) })
    return endpointBody(record, context.clock.now())
  })

  app.delete(`${ENDPOINTS}/:endpoint`, {
    config: access,
    schema: {
      operationId: 'removeWebhookEndpoint', summary: 'Remove a webhook endpoint', tags: TAGS,
      description: 'Removes the endpoint with its delivery log; nothing more is sent to it.',
      params: ClubWebhookParams,
      response: { 204: noContent('Removed.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    await removeEndpoint(context.db, context.clock, { clubId: clubId(request), endpointId: request.params.endpoint,
      actor: actorOf(request) })
    return reply.code(204).send()
  })
}

/** What is done with one endpoint: rotating its secret, a test event, its delivery log and a replay. */
function registerEndpointActions(parent: FastifyInstance, context: AppContext, access: Access): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${ENDPOINTS}/:endpoint/secret`, {
    config: access,
    schema: {
      operationId: 'rotateWebhookSecret', summary: 'Rotate the signing secret', tags: TAGS,
      description: 'Makes a new secret, in this answer only. For `overlap_hours` (default 24) deliveries carry a signature '
        + 'under each secret, so the receiver can switch without missing one.',
      params: ClubWebhookParams,
      body: Reference(WebhookSecretRotation),
      response: { 200: jsonResponse('Rotated.', Reference(WebhookSecretRotated)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const { record, secret } = await rotateSecret(context.db, context.clock, { clubId: clubId(request),
      endpointId: request.params.endpoint, overlapHours: request.body.overlap_hours ?? 24, actor: actorOf(request) })
    return { secret, endpoint: endpointBody(record, context.clock.now()) }
  })

  app.post(`${ENDPOINTS}/:endpoint/test`, {
    config: access,
    schema: {
      operationId: 'sendWebhookTest', summary: 'Send a test event', tags: TAGS,
      description: 'Queues a `webhook.test` event for the endpoint (enabled or not) and answers with its delivery; the '
        + 'delivery log shows how it went a moment later.',
      params: ClubWebhookParams,
      response: { 202: jsonResponse('Queued.', Reference(WebhookDelivery)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const delivery = await sendTestEvent(context.db, context.clock, { clubId: clubId(request),
      endpointId: request.params.endpoint, actor: actorOf(request) })
    return reply.code(202).send(deliveryBody(delivery))
  })

  app.get(`${ENDPOINTS}/:endpoint/deliveries`, {
    config: access,
    schema: {
      operationId: 'listWebhookDeliveries', summary: 'An endpoint\'s delivery log', tags: TAGS,
      description: 'The most recent deliveries (kept 30 days after they finish), newest first, with the last attempt\'s '
        + 'status code, latency, and first bytes of the answer.',
      params: ClubWebhookParams,
      querystring: DeliveriesQuery,
      response: { 200: jsonResponse('The deliveries.', Reference(WebhookDeliveryList)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const club = clubId(request)
    if (await findEndpoint(context.db, club, request.params.endpoint) === undefined) throw new NotFound('No such webhook endpoint.')
    const { limit = 50, status } = request.query
    const records = await listDeliveries(context.db, club, request.params.endpoint, limit, status)
    return { items: records.map(deliveryBody) }
  })

  app.post(`${ENDPOINTS}/:endpoint/deliveries/:delivery/replay`, {
    config: access,
    schema: {
      operationId: 'replayWebhookDelivery', summary: 'Replay a delivery', tags: TAGS,
      description: 'Sends the delivery\'s message again as it was, with the same `webhook-id` (a receiver that already '
        + 'processed it may skip it), as a new delivery.',
      params: ClubWebhookDeliveryParams,
      response: { 202: jsonResponse('Queued.', Reference(WebhookDelivery)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const delivery = await replayDelivery(context.db, context.clock, { clubId: clubId(request),
      endpointId: request.params.endpoint, deliveryId: request.params.delivery, actor: actorOf(request) })
    return reply.code(202).send(deliveryBody(delivery))
  })
}
