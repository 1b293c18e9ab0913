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
import { answerCached, cachedAnswer } from '../../speed/cached-read.js'
import type { CacheSlot } from '../../speed/cached-read.js'
import { ADMIN_PREFIX, sessionCookieName } from '../../http/dashboard-access.js'
import { roleAllows } from '../../domain/admin-roles.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, clubOf } from './common.js'

/** Where a day is filed: under the public listing's scope, which every change of courts, holds and bookings bumps. */
function daySlot(club: { readonly id: string, readonly timezone: string }, date: string, now: number): CacheSlot {
  return { scope: `courts:${club.id}`, key: `planner:${club.id}:${club.timezone}:${date}`, now }
}

/** Who may read the planner: its routes declare it, and its answer before routing checks it. */
const PLANNER_ACCESS = 'admin'

/** A plain `date=YYYY-MM-DD`: with nothing, the query the planner answers before routing. */
const PLAIN_DATE = /^date=([0-9]{4}-[0-9]{2}-[0-9]{2})$/

/**
 * The cookie of a `Cookie` header, as @fastify/cookie reads it (the first of that name), when its
 * value is plain (nothing to decode or unquote); undefined otherwise, and Fastify decides.
 */
function plainCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const equals = part.indexOf('=')
    if (equals === -1 || part.slice(0, equals).trim() !== name) continue
    const value = part.slice(equals + 1).trim()
    return /^[A-Za-z0-9_-]+$/.test(value) ? value : undefined
  }
  return undefined
}

/**
 * The planner's day before routing (src/speed/fast-path.ts): a day in the response cache, for a
 * session and a membership the process knows unchanged (src/services/dashboard-sessions.ts) whose
 * role may read it. Everything else — no session or one due its minute's write, a club not known,
 * a conditional request, any other query — is Fastify's, whose access check (src/http/dashboard-access.ts)
 * is the reference: test/speed/fast-path.test.ts compares the two.
 */
function fastPlanner(app: FastifyInstance, context: AppContext): void {
  const fast = app.fastPath
  const route = `${CLUB}/planner`
  const cookieName = sessionCookieName(context.config.publicUrl)
  fast.getWithin(`${ADMIN_PREFIX}/clubs/`, '/planner', (raw, response, query, at) => {
    const date = query === '' ? undefined : PLAIN_DATE.exec(query)?.[1]
    const token = (query === '' || date !== undefined) && raw.headers['if-none-match'] === undefined
      ? plainCookie(raw.headers.cookie, cookieName)
      : undefined
    const session = token === undefined ? undefined : context.sessions.knownSession(token)
    const membership = session === undefined ? undefined : context.sessions.knownMembership(session.adminId, at.parameter)
    const now = context.clock.now()
    const club = membership === undefined || !roleAllows(membership.role, PLANNER_ACCESS)
      ? undefined
      : { id: membership.clubId, timezone: membership.clubTimezone }
    const entry = club === undefined
      ? undefined
      : cachedAnswer(context, daySlot(club, date ?? localDateOf(now, club.timezone), now))
    if (entry === undefined) {
      fast.pass(raw, response)
      return
    }
    fast.cached(raw, response, at, { route, entry, headers: [], cacheControl: 'no-store', vary: undefined,
      caller: undefined })
  })
}

export function plannerRoutes(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const streams = new ChangeStreams(context.changes)
  fastPlanner(parent, context)
  app.addHook('preClose', (done) => {
    streams.closeAll()
    done()
  })

  app.get(`${CLUB}/planner`, {
    config: { access: { dashboard: PLANNER_ACCESS } },
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
    void reply.header('cache-control', 'no-store')
    return answerCached(context, reply, daySlot(club, date, context.clock.now()),
      async (db) => ({ validUntil: Number.POSITIVE_INFINITY, payload: {
        date, timezone: zone,
        courts: (await plannerDay(db, club, date)).map(({ court, slots, bookings }) => ({
          id: court.id, name: court.name, slot_minutes: court.slotMinutes,
          slots: slots.map((slot) => ({ start_time: at(slot.start), end_time: at(slot.end), status: slot.status,
            waiting: slot.waiting })),
          bookings: bookings.map((booking) => ({ id: booking.id, start_time: at(Date.parse(booking.start)),
            end_time: at(Date.parse(booking.end)), booker_name: booking.bookerName, notes: booking.notes,
            series_id: booking.seriesId, has_address: booking.bookerEmail !== '' })),
        })),
      } })) ?? reply
  }

  app.get(`${CLUB}/planner/events`, {
    config: { access: { dashboard: PLANNER_ACCESS } },
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
