import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { listGroups } from '../db/repositories/listings.js'
import { Group, GroupList } from '../schemas/group.js'
import { registerListEndpoint } from './list-route.js'

export function groupsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/groups',
    operationId: 'listGroups',
    summary: 'Training groups',
    description: 'The club\'s active training groups, ordered by name, then id.',
    scope: 'read:groups',
    item: Group,
    envelope: GroupList,
    area: 'groups',
    list: (db, clubId, page, _now, knownTotal) => listGroups(db, clubId, page, knownTotal),
  })
}
