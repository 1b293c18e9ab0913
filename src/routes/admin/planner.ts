/**
 * The front desk's planner in the dashboard API: a day of all the club's courts, and a stream of
 * Server-Sent Events that says when the club's courts, holds or bookings changed, in any process
 * (src/http/change-stream.ts), so that an open planner reads its day again.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { AppContext } from '../../context.js'
import { ChangeStreams } from '../../http/change-stream.js'
import { formatInZone, localDateOf } from '../../domain/zoned-time.js'
import { jsonResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { ClubParams, PlannerDay, PlannerQuery } from '../../schemas/admin.js'
import { plannerDay } from '../../services/planner.js'
import { answerCached } from '../../speed/cached-read.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, clubOf } from './common.js'

export function plannerRoutes(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const streams = new ChangeStreams(context.changes)
  app.addHook('preClose', (done) => {
    streams.closeAll()
    done()
  })

  app.get(`${CLUB}/planner`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'plannerDay', summary: 'A day of all courts', tags: ['Bookings'],
      description: 'Every active court of the club on the date (club-local): its slots with the status the public listing '
        + 'shows, and its active bookings with the guest\'s name.',
      params: ClubParams,
      querystring: PlannerQuery,
      response: { 200: jsonResponse('The day.', Reference(PlannerDay)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, (request, reply) => day(request, reply, request.query.date))

  /**
   * The day from the response cache while the club's courts, holds and bookings are unchanged (the
   * public listing's scope), or read and filed: the planner of a busy front desk is read every time
   * anything changes, by every open page at once. The access guard has run before.
   */
  async function day(request: FastifyRequest, reply: FastifyReply, asked: string | undefined) {
    const club = await clubOf(context, request)
    const date = asked ?? localDateOf(context.clock.now(), club.timezone)
    const zone = club.timezone
    const at = (instant: number) => formatInZone(instant, zone)
    const scope = `courts:${club.id}`
    void reply.header('cache-control', 'no-store')
    return answerCached(context, reply, { scope, key: `planner:${club.id}:${zone}:${date}`, now: context.clock.now() },
      async (db) => ({ validUntil: Number.POSITIVE_INFINITY, payload: {
        date, timezone: zone,
        courts: (await plannerDay(db, club, date)).map(({ court, slots, bookings }) => ({
          id: court.id, name: court.name, slot_minutes: court.slotMinutes,
          slots: slots.map((slot) => ({ start_time: at(slot.start), end_time: at(slot.end), status: slot.status })),
          bookings: bookings.map((booking) => ({ id: booking.id, start_time: at(Date.parse(booking.start)),
            end_time: at(Date.parse(booking.end)), booker_name: booking.bookerName, notes: booking.notes,
            series_id: booking.seriesId, has_address: booking.bookerEmail !== '' })),
        })),
      } })) ?? reply
  }

  app.get(`${CLUB}/planner/events`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'plannerEvents', summary: 'Changes of the club\'s courts, as they happen', tags: ['Bookings'],
      description: 'A stream of Server-Sent Events (`text/event-stream`): `ready` when it opens, then `change` within about a '
        + 'second of any change to the club\'s courts, holds or bookings, made by any server process, the public API or the '
        + 'command line. The events carry no data: the page reads what it shows again. A comment every 15 s keeps an idle '
        + 'stream open; the stream ends when the server stops, and browsers reconnect after 3 s.',
      params: ClubParams,
      response: { 200: { description: 'The events.', content: { 'text/event-stream': { schema: Type.String() } } },
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    streams.stream(`courts:${club.id}`, request, reply)
    return reply
  })
}
