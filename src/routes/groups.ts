import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { registerListEndpoint } from './list-route.js'

export function groupsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/groups',
    operationId: 'listGroups',
    summary: 'Training groups',
    description: 'The club\'s active training groups, ordered by name, then id.',
    scope: 'read:groups',
    area: 'groups',
  })
}
