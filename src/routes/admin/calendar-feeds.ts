/**
 * The club's calendar feeds in the dashboard API: its private feeds of the court bookings (list,
 * make — the address is in that answer only — and revoke) and the address of its public events
 * feed. Changed through src/services/calendar-feeds.ts, as the command line does.
 */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { memberOf } from '../../http/dashboard-access.js'
import { jsonResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { CalendarFeed, CalendarFeedCreate, CalendarFeedCreated, CalendarFeedList, ClubFeedParams, ClubParams }
  from '../../schemas/admin.js'
import type { CalendarFeed as CalendarFeedBody } from '../../schemas/admin.js'
import type { CalendarFeed as StoredFeed } from '../../services/calendar-feeds.js'
import { createCalendarFeed, eventsFeedPath, listClubCalendarFeeds, privateFeedPath, revokeClubCalendarFeed }
  from '../../services/calendar-feeds.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf } from './common.js'

function feedBody(feed: StoredFeed): CalendarFeedBody {
  return { id: feed.id, name: feed.name, show_names: feed.showNames, status: feed.revokedAt === null ? 'active' : 'revoked',
    created_at: feed.createdAt, revoked_at: feed.revokedAt }
}

export function calendarFeedRoutes(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const at = (path: string) => new URL(path.slice(1), context.config.publicUrl).href
  const webcal = (url: string) => url.replace(/^https?:/, 'webcal:')

  app.get(`${CLUB}/calendar-feeds`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'listCalendarFeeds', summary: 'The club\'s calendar feeds', tags: ['Calendar feeds'],
      description: 'The club\'s private feeds of its bookings, active or revoked, without their addresses; and its public events '
        + 'feed\'s address.',
      params: ClubParams,
      response: { 200: jsonResponse('The feeds.', Reference(CalendarFeedList)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const { clubId, clubSlug } = memberOf(request).membership
    return { items: (await listClubCalendarFeeds(context.db, clubId)).map(feedBody),
      events_feed_url: webcal(at(eventsFeedPath(clubSlug))) }
  })

  app.post(`${CLUB}/calendar-feeds`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'createCalendarFeed', summary: 'Make a private calendar feed', tags: ['Calendar feeds'],
      description: 'A feed of the club\'s court bookings (court, time, and the booker\'s name if asked; never an e-mail address) '
        + 'behind a secret address, which this answer alone contains.',
      params: ClubParams,
      body: Reference(CalendarFeedCreate),
      response: { 201: jsonResponse('The feed and its address.', Reference(CalendarFeedCreated)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const { clubId } = memberOf(request).membership
    const created = await createCalendarFeed(context.db, context.clock, { clubId, name: request.body.name,
      showNames: request.body.show_names ?? false, actor: actorOf(request) })
    const url = at(privateFeedPath(created.token))
    return reply.code(201).send({ feed: feedBody(created.feed), url, webcal_url: webcal(url) })
  })

  app.delete(`${CLUB}/calendar-feeds/:feed`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'revokeCalendarFeed', summary: 'Revoke a calendar feed', tags: ['Calendar feeds'],
      description: 'Its address answers 404 from now on. Revoking a revoked feed changes nothing.',
      params: ClubFeedParams,
      response: { 200: jsonResponse('The feed, revoked.', Reference(CalendarFeed)), 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const { clubId } = memberOf(request).membership
    return feedBody(await revokeClubCalendarFeed(context.db, context.clock, { clubId, feedId: request.params.feed,
      actor: actorOf(request) }))
  })
}
