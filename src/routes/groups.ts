import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { listGroups } from '../db/repositories/listings.js'
import { Group } from '../schemas/group.js'
import { registerListEndpoint } from './list-route.js'

export function groupsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, {
    path: '/groups',
    operationId: 'listGroups',
    summary: 'Training groups',
    description: 'The club\'s active training groups, ordered by name, then id.',
    scope: 'read:groups',
    item: Group,
    list: (clubId, page) => listGroups(context.db, clubId, page),
  })
}
