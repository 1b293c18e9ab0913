import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.js'
import { registerListEndpoint } from './list-route.js'

export function competitionResultsRoutes(app: FastifyInstance, context: AppContext): void {
  registerListEndpoint(app, context, {
    path: '/competition-results',
    operationId: 'listCompetitionResults',
    summary: 'Competition results',
    description: 'The club\'s competition results, by competition date (newest first, undated last), then by the '
      + 'time they were recorded (newest first), then by id.',
    scope: 'read:competition_results',
    area: 'competition_results',
  })
}
