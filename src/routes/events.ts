import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { registerListEndpoint } from './list-route.js'

export function eventsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/events',
    operationId: 'listEvents',
    summary: 'Public events',
    description: 'The club\'s events released for public booking and not assigned to any group, ordered by start, then id.',
    scope: 'read:events',
    area: 'events',
  })
}
