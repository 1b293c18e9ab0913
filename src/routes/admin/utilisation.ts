/** The club's utilisation in the dashboard API (docs/utilisation.md): the same figures as the dashboard's page. */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { jsonResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { ClubParams, Utilisation, UtilisationQuery } from '../../schemas/admin.js'
import type { HeatCell } from '../../domain/utilisation.js'
import { utilisation } from '../../services/utilisation.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, clubOf } from './common.js'

function cell(heat: HeatCell) {
  return { weekday: heat.weekday, hour: heat.hour, open_minutes: heat.openMinutes, booked_minutes: heat.bookedMinutes,
    share: heat.openMinutes === 0 ? 0 : heat.bookedMinutes / heat.openMinutes }
}

export function utilisationRoutes(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  app.get(`${CLUB}/utilisation`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'getUtilisation', summary: 'How the courts were used', tags: ['Bookings'],
      description: 'Over a range of local dates (at most 366): the booked share of the open time of the club\'s active courts (or '
        + 'one) by weekday and hour, the bookings of each week with who cancelled them, and the busiest and emptiest hours.',
      params: ClubParams,
      querystring: UtilisationQuery,
      response: { 200: jsonResponse('The figures.', Reference(Utilisation)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const report = await utilisation(context.db, club, { from: request.query.from, to: request.query.to,
      courtId: request.query.court })
    return { from: report.from, to: report.to, timezone: club.timezone, court_id: report.courtId,
      heat_map: report.heatMap.map(cell),
      weeks: report.weeks.map((week) => ({ week_start: week.weekStart, bookings: week.bookings,
        cancelled_by_guest: week.cancelledByGuest, cancelled_by_club: week.cancelledByClub,
        cancelled_by_hold: week.cancelledByHold })),
      busiest: report.busiest.map(cell), emptiest: report.emptiest.map(cell) }
  })
}
