/**
 * The calendar feeds (docs/calendar-feeds.md) for calendar apps that subscribe to them: a club's
 * public events (`/calendar/{club}/events.ics`, `?group=` for a training group's) and a club's
 * private feed of its bookings (`/calendar/{token}.ics`, the token its only credential). Each answer
 * has an ETag of its bytes (a 304 for a copy that is current) and says how long a calendar may keep
 * it; refusals are problem documents.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { IF_NONE_MATCH, conditionalGet, conditionalHeaders } from '../http/conditional.js'
import { REQUEST_ID_HEADER, RETRY_AFTER_HEADER, problemResponse } from '../http/responses.js'
import { ProblemError } from '../http/problems.js'
import { Uuid } from '../schemas/common.js'
import { bookingsCalendar, eventsCalendar } from '../services/calendar-feeds.js'
import { clubLookup } from '../speed/club-lookup.js'

/** Calendar apps fetch again on their own schedule; a copy may be kept briefly and then revalidated by its ETag. */
const PUBLIC_CACHE = 'public, max-age=300'
/** A private feed: no shared cache keeps it. */
const PRIVATE_CACHE = 'private, max-age=300'

/** The answers of a feed: the calendar, a 304, and the refusals. */
function feedResponses(cacheControl: string, notFound: string) {
  const conditional = { ...REQUEST_ID_HEADER, ...conditionalHeaders(cacheControl) }
  return {
    200: { description: 'The calendar (RFC 5545), times in UTC.', headers: conditional,
      content: { 'text/calendar': { schema: Type.String({ examples: ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…END:VCALENDAR\r\n'] }) } } },
    304: { description: 'The copy named in If-None-Match is current.', type: 'null', headers: conditional },
    400: problemResponse('An unknown or malformed query parameter.'),
    404: problemResponse(notFound),
    429: problemResponse('Too many requests from this client.', RETRY_AFTER_HEADER),
    500: problemResponse('The service failed unexpectedly.'),
    503: problemResponse('The service is temporarily unavailable.', RETRY_AFTER_HEADER),
  }
}

/** The calendar; its ETag, Cache-Control and any 304 come from the conditionalGet hook, as for every conditional GET. */
function sendCalendar(reply: FastifyReply, ics: string): FastifyReply {
  return reply.code(200).header('content-type', 'text/calendar; charset=utf-8').send(ics)
}

export function calendarFeedRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>()
  const clubOf = clubLookup(context)
  const config = { access: { public: true } } as const

  typed.get('/calendar/:clubSlug/events.ics', {
    config,
    schema: {
      operationId: 'clubEventsFeed', summary: 'The club\'s events as a calendar feed', tags: ['Calendar feeds'], security: [],
      description: 'The club\'s public events as the events list has them (released for public booking, in no group), or with '
        + '`group` a training group\'s public events, from 90 days back on: for calendar apps to subscribe to (webcal://). No key '
        + 'needed. Limited per client IP.',
      params: Type.Object({ clubSlug: Type.String({ maxLength: 63, description: 'Slug identifier of the club.' }) }),
      querystring: Type.Object({ group: Type.Optional(Uuid('A training group of the club: its public events alone.')) },
        { additionalProperties: false }),
      headers: IF_NONE_MATCH,
      response: feedResponses(PUBLIC_CACHE, 'No club has this slug, or the club has no such training group.'),
    },
    onRequest: context.publicLimits.listing.hook(),
    onSend: conditionalGet(PUBLIC_CACHE),
  }, async (request, reply) => {
    const club = await clubOf(request.params.clubSlug)
    return sendCalendar(reply, await eventsCalendar(context.db, context.clock, club, request.query.group))
  })

  typed.get('/calendar/:file', {
    config,
    schema: {
      operationId: 'bookingsFeed', summary: 'A club\'s private feed of its bookings', tags: ['Calendar feeds'], security: [],
      description: 'The club\'s court bookings from 30 days back to a year ahead (court, time, and the booker\'s name if the '
        + 'feed was made so; never an e-mail address), cancelled ones marked CANCELLED. The address is the feed\'s only '
        + 'credential: an admin makes it in the dashboard and sees it once. Limited per client IP.',
      params: Type.Object({ file: Type.String({ maxLength: 100, description: 'The feed\'s token with `.ics`.' }) }),
      headers: IF_NONE_MATCH,
      response: feedResponses(PRIVATE_CACHE, 'No feed has this address, or it was revoked.'),
    },
    onRequest: context.publicLimits.listing.hook(),
    onSend: conditionalGet(PRIVATE_CACHE),
  }, async (request, reply) => {
    const { file } = request.params
    const ics = file.endsWith('.ics') ? await bookingsCalendar(context.db, context.clock, file.slice(0, -'.ics'.length)) : undefined
    // Unknown and revoked feeds alike: the address says nothing of which.
    if (ics === undefined) throw new ProblemError('not-found', 'No calendar feed has this address; it may have been revoked.')
    void reply.headers({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' })
    return sendCalendar(reply, ics)
  })
}
