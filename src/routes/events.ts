import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { listEvents } from '../db/repositories/listings.js'
import { Event, EventList } from '../schemas/event.js'
import { registerListEndpoint } from './list-route.js'

export function eventsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/events',
    operationId: 'listEvents',
    summary: 'Public events',
    description: 'The club\'s events released for public booking and not assigned to any group, ordered by start, then id.',
    scope: 'read:events',
    item: Event,
    envelope: EventList,
    area: 'events',
    list: (db, clubId, page, _now, knownTotal) => listEvents(db, clubId, page, knownTotal),
  })
}
