/**
 * The public court endpoints: no key, CORS for any origin (and only here), a token bucket per
 * client IP. Booking problems are all `invalid-booking` or `slot-conflict`, so a booking page
 * can tell "choose another slot" from "fix the request".
 */
import { preferredLanguage } from '../domain/languages.js'
import cors from '@fastify/cors'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { IdempotencyKeyHeader, idempotencyKeyOf } from '../http/idempotency-key.js'
import { clubLookup } from '../speed/club-lookup.js'
import type { ClubLookup } from '../speed/club-lookup.js'
import type { Club } from '../services/clubs.js'
import { localDateOf } from '../domain/zoned-time.js'
import { answerCached, cachedAnswer } from '../speed/cached-read.js'
import type { CacheSlot } from '../speed/cached-read.js'
import { conditionalGet, conditionalHeaders, IF_NONE_MATCH } from '../http/conditional.js'
import { header, jsonResponse, problemResponse, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from '../http/responses.js'
import { Reference } from '../schemas/common.js'
import { BookingCreated, BookingRequest, ClubSlugParams, CourtAvailability, CourtDays, CourtDaysQuery, CourtsQuery } from '../schemas/court.js'
import { courtDays } from '../services/court-days.js'
import { DEFAULT_SUMMARY_DAYS } from '../domain/slots.js'
import { bookCourt, bookingSettings, courtDay } from '../services/bookings.js'
import { manageUrl } from '../services/guest-links.js'
import { registerWaiting } from './waiting-list.js'
import { bookingErrorHandler, CORS, CORS_HEADERS, PUBLIC_BODY_PROBLEMS, PUBLIC_PREFIX, PUBLIC_PROBLEM_HEADERS, publicErrorHandler,
  sharedPublicProblems } from './public-scope.js'

export { PUBLIC_PREFIX } from './public-scope.js'

/** Availability changes with every booking: browsers may reuse it briefly, then revalidate. */
const COURTS_CACHE_CONTROL = 'public, max-age=10'

const COURTS_PATH = `${PUBLIC_PREFIX}/tc-riverside/courts`
const BOOK_PATH = `${COURTS_PATH}/book`

/**
 * A club's court grid of a day (today in its zone unless given): its change-tracking scope (courts,
 * holds and bookings share one; the booking windows move with the clock) and cache key, the same
 * on both paths.
 */
function gridSlot(club: Club, date: string | undefined, now: number): CacheSlot & { readonly day: string } {
  const day = date ?? localDateOf(now, club.timezone)
  const scope = `courts:${club.id}`
  return { scope, key: `${scope}:${club.timezone}:${day}`, now, day }
}

/** A plain `date=YYYY-MM-DD` or nothing: the queries the courts listing answers before routing. */
const PLAIN_DATE = /^date=([0-9]{4}-[0-9]{2}-[0-9]{2})$/

/** The CORS headers of the public endpoints, as @fastify/cors writes them on a GET. */
const CORS_HEADER_LIST = ['access-control-allow-origin', CORS.origin, 'access-control-expose-headers', CORS.exposedHeaders.join(', ')]

/**
 * The courts listing before routing (src/speed/fast-path.ts): a grid in the response cache, charged
 * to the client's address. Behind TRUST_PROXY the address is the forwarded one, which Fastify
 * works out: there the route answers every request, as it does every miss and refusal elsewhere.
 */
function fastCourts(app: FastifyInstance, context: AppContext, clubOf: ClubLookup): void {
  if (context.config.trustProxy !== false) return
  const fast = app.fastPath
  const route = `${PUBLIC_PREFIX}/:clubSlug/courts`
  const limiter = context.publicLimits.listing
  fast.getWithin(`${PUBLIC_PREFIX}/`, '/courts', (raw, response, query, at) => {
    const date = query === '' ? undefined : PLAIN_DATE.exec(query)?.[1]
    const club = query !== '' && date === undefined ? undefined : clubOf.known(at.parameter)
    const entry = club === undefined ? undefined : cachedAnswer(context, gridSlot(club, date, context.clock.now()))
    if (entry === undefined || limiter.chargeBeforeRouting(raw, raw.socket.remoteAddress ?? '') !== null) {
      fast.pass(raw, response)
      return
    }
    fast.cached(raw, response, at, { route, entry, headers: CORS_HEADER_LIST, cacheControl: COURTS_CACHE_CONTROL, vary: undefined,
      caller: undefined })
  })
}

export async function publicCourtsRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const clubOf = clubLookup(context)
  fastCourts(app, context, clubOf)
  await app.register(async (scope) => {
    await scope.register(cors, {
      origin: CORS.origin,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Content-Type', 'Idempotency-Key', 'If-None-Match'],
      exposedHeaders: [...CORS.exposedHeaders],
      credentials: false,
      maxAge: 600,
    })
    scope.setErrorHandler(publicErrorHandler)
    registerCourtsListing(scope, context, clubOf)
    registerCourtDays(scope, context, clubOf)
    registerBooking(scope, context, clubOf)
    registerWaiting(scope, context, clubOf)
  }, { prefix: PUBLIC_PREFIX })
}

/** A club's courts with their slots on a date, answered from the response cache or a read. */
function registerCourtsListing(scope: FastifyInstance, context: AppContext, clubOf: ClubLookup): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
  typed.get('/:clubSlug/courts', {
    config: { access: { public: true } },
    onRequest: context.publicLimits.listing.hook(),
    onSend: conditionalGet(COURTS_CACHE_CONTROL),
    schema: {
      operationId: 'listCourtSlots',
      summary: 'Court availability',
      description: 'Every active court of the club with its slots on a date and their status. No key needed; '
        + 'CORS-enabled for any origin. Limited per client IP.',
      tags: ['Courts (public)'],
      security: [],
      params: ClubSlugParams,
      querystring: CourtsQuery,
      headers: IF_NONE_MATCH,
      response: {
        200: jsonResponse('The slots of every active court on the date.', Reference(CourtAvailability),
          { ...conditionalHeaders(COURTS_CACHE_CONTROL), ...CORS_HEADERS }),
        304: { description: 'The copy named in If-None-Match is current.', type: 'null',
          headers: { ...REQUEST_ID_HEADER, ...conditionalHeaders(COURTS_CACHE_CONTROL), ...CORS_HEADERS } },
        400: problemResponse('The date is not a valid YYYY-MM-DD date from 2000-01-01 through 2099-12-31, or an unknown parameter '
          + 'was sent.', PUBLIC_PROBLEM_HEADERS,
        [{ kind: 'validation-error', instance: COURTS_PATH, detail: 'Date: this is not a valid date.',
          invalidParams: [{ name: 'date', reason: 'Date: this is not a valid date.', code: 'invalid_date' }] }]),
        ...sharedPublicProblems('/courts'),
        429: problemResponse('Too many requests from this client.', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS },
          [{ kind: 'rate-limited', instance: COURTS_PATH, detail: 'Too many attempts. Please try again in 1 second.' }]),
        503: problemResponse('The service is temporarily unavailable.', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS },
          [{ kind: 'service-unavailable', instance: COURTS_PATH, detail: 'The database is temporarily unavailable.' }]),
      },
    },
  }, (request, reply) => {
    const { clubSlug } = request.params
    const { date } = request.query
    const known = clubOf(clubSlug)
    return known instanceof Promise ? known.then((club) => courtsOf(club, date, reply)) : courtsOf(known, date, reply)
  })

  const courtsOf = (club: Club, date: string | undefined, reply: FastifyReply) => {
    const slot = gridSlot(club, date, context.clock.now())
    const { day, now } = slot
    return answerCached(context, reply, slot, async (db) => {
      const read = await courtDay(db, club, day, now)
      const payload = { club_name: club.name, date: day, timezone: club.timezone, courts: read.slots,
        booking_windows: read.windows,
        waiting_list: read.waitingList, cancellation_deadline_minutes: read.cancellationDeadlineMinutes, contact: read.contact }
      return { payload, validUntil: read.validUntil }
    })
  }
}

/** A run of dates with how many times each has free: a booking page's date strip and its jump to the next free time. */
function registerCourtDays(scope: FastifyInstance, context: AppContext, clubOf: ClubLookup): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
  typed.get('/:clubSlug/courts/days', {
    config: { access: { public: true } },
    onRequest: context.publicLimits.listing.hook(),
    onSend: conditionalGet(COURTS_CACHE_CONTROL),
    schema: {
      operationId: 'listCourtDays',
      summary: 'Free times by day',
      description: 'For each of a run of dates (today and the next 13 unless asked otherwise), how many times of the club\'s '
        + 'active courts are free and bookable now, and the first of them. No key needed; CORS-enabled for any origin. Limited per '
        + 'client IP, with the courts listing.',
      tags: ['Courts (public)'],
      security: [],
      params: ClubSlugParams,
      querystring: CourtDaysQuery,
      headers: IF_NONE_MATCH,
      response: {
        200: jsonResponse('The dates, in order.', Reference(CourtDays), { ...conditionalHeaders(COURTS_CACHE_CONTROL), ...CORS_HEADERS }),
        304: { description: 'The copy named in If-None-Match is current.', type: 'null',
          headers: { ...REQUEST_ID_HEADER, ...conditionalHeaders(COURTS_CACHE_CONTROL), ...CORS_HEADERS } },
        400: problemResponse('`from` is not a valid YYYY-MM-DD date from 2000-01-01 through 2099-12-31, `days` is not 1 to 31, '
          + '`court` is not a UUID, or an unknown parameter was sent.', PUBLIC_PROBLEM_HEADERS,
        [{ kind: 'validation-error', instance: `${COURTS_PATH}/days`, detail: 'Number of days: the value must be <= 31.',
          invalidParams: [{ name: 'days', reason: 'Number of days: the value must be <= 31.', code: 'out_of_range' }] }]),
        ...sharedPublicProblems('/courts/days'),
        429: problemResponse('Too many requests from this client.', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS },
          [{ kind: 'rate-limited', instance: `${COURTS_PATH}/days`, detail: 'Too many attempts. Please try again in 1 second.' }]),
      },
    },
  }, async (request, reply) => {
    const club = await clubOf(request.params.clubSlug)
    const now = context.clock.now()
    const from = request.query.from ?? localDateOf(now, club.timezone)
    const { court } = request.query
    const count = request.query.days ?? DEFAULT_SUMMARY_DAYS
    // The courts' scope: every write that changes a day's grid changes these figures too.
    const scope = `courts:${club.id}`
    const key = `${scope}:${club.timezone}:days:${from}:${String(count)}:${court ?? ''}`
    return answerCached(context, reply, { scope, key, now }, async (db) => {
      const read = await courtDays(db, club, from, count, now, court)
      return { payload: { timezone: club.timezone, days: read.days }, validUntil: read.validUntil }
    })
  })
}

/** Booking a court, safe to retry with an Idempotency-Key. */
function registerBooking(scope: FastifyInstance, context: AppContext, clubOf: ClubLookup): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
  typed.post('/:clubSlug/courts/book', {
    config: { access: { public: true } },
    onRequest: context.publicLimits.booking.hook(),
    errorHandler: bookingErrorHandler,
    schema: {
      operationId: 'bookCourt',
      summary: 'Book a court',
      description: 'Books one or more consecutive slots of a court for a guest or a club member and sends a confirmation '
        + 'e-mail, which links a page where the guest can see the booking and cancel it until the club\'s deadline. Send an `Idempotency-Key` header to make retries safe: a repeated request with the same key and body '
        + 'gets the original answer. No key needed; CORS-enabled. Limited per client IP. The mails about the booking are '
        + 'written in the first language of `Accept-Language` the service speaks (en, de, fr, es, it, nl), else in the club\'s.',
      tags: ['Courts (public)'],
      security: [],
      params: ClubSlugParams,
      headers: Type.Object({ 'idempotency-key': IdempotencyKeyHeader,
        'accept-language': Type.Optional(Type.String({ description: 'The guest\'s languages (RFC 9110 §12.5.4): the mails\' '
          + 'language is the first of them the service speaks; without one it speaks, the club\'s.', examples: ['de-AT, de;q=0.9'] })) }),
      body: Reference(BookingRequest),
      response: {
        201: jsonResponse('Booked; the confirmation e-mail is on its way.', Reference(BookingCreated), {
          ...CORS_HEADERS,
          'idempotent-replayed': header(Type.Literal('true', { description: 'Present only when this answer repeats the '
            + 'original one for a retried `Idempotency-Key`: no new booking was made.', examples: ['true'] })),
        }),
        400: problemResponse('`invalid-booking`: the request can never succeed as sent; `slot-conflict`: the time is already booked, '
          + 'reserved or blocked. `code` says why and `invalid_params` names every offending field at once, each with its own '
          + '`code` (docs/api.md, "Refusals"); `detail` and the reasons are written in the language of `Accept-Language`.',
        PUBLIC_PROBLEM_HEADERS, [
          { kind: 'invalid-booking', instance: BOOK_PATH, detail: 'Court 1 is booked in times of 60 minutes from 08:00. Please choose '
            + 'times from the grid.', invalidParams: [{ name: 'start_time', code: 'off_grid',
            reason: 'Court 1 is booked in times of 60 minutes from 08:00. Please choose times from the grid.' }] },
          { kind: 'slot-conflict', instance: BOOK_PATH, code: 'slot_booked',
            detail: 'Someone has just booked this time on Court 1. Please choose another one.' },
        ]),
        ...sharedPublicProblems('/courts/book'),
        ...PUBLIC_BODY_PROBLEMS,
        429: problemResponse('Too many booking requests from this client.', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS },
          [{ kind: 'rate-limited', instance: BOOK_PATH, detail: 'Too many attempts. Please try again in 6 seconds.' }]),
      },
    },
  }, async (request, reply) => {
    const { clubSlug } = request.params
    const key = idempotencyKeyOf(request)
    const club = await clubOf(clubSlug)
    // The guest's language for the mails about the booking: the first of Accept-Language the service speaks, else the club's.
    const language = preferredLanguage(request.headers['accept-language'])
    const outcome = await bookCourt(context.db, context.clock, bookingSettings(context), club,
      language === undefined ? request.body : { ...request.body, language }, key)
    if (outcome.replayed) void reply.header('idempotent-replayed', 'true')
    return reply.code(201).send({ success: true, booking_id: outcome.bookingId,
      ...outcome.manageToken === undefined ? {} : { manage_url: manageUrl(context.config.publicUrl, outcome.manageToken) } })
  })
}
