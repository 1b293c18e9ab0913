import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { registerListEndpoint } from './list-route.js'

export function newsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/news',
    operationId: 'listNews',
    summary: 'News',
    description: 'The club\'s published news (publication time set and not in the future), newest first, then by id.',
    scope: 'read:news',
    area: 'news',
  })
}
