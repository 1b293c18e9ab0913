/**
 * A club's courts in the dashboard API: create and change them (name, hours per weekday, slot
 * length, in use or not), their blocks and reservations (one-off and weekly), and a week of a
 * court's slots. Every change goes through src/services/courts.ts, the functions the command line
 * uses too. A change that would leave upcoming bookings without a place is refused with 409 unless
 * the request says to cancel them (with the reason each guest's mail carries); the preview routes
 * list them first, so the dashboard can ask, and the change's answer says how many it cancelled.
 */
import { cancellationSettings } from '../../services/booking-cancellation.js'
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { findClubBookings } from '../../services/bookings.js'
import { findCourt, findHold, listCourts, listHolds } from '../../services/courts.js'
import type { Court, CourtHold } from '../../services/courts.js'
import { Conflict, InvalidInput, NotFound } from '../../domain/errors.js'
import { WEEKDAYS } from '../../domain/slots.js'
import { formatInZone, localDateOf } from '../../domain/zoned-time.js'
import { memberOf } from '../../http/dashboard-access.js'
import { jsonResponse, noContent, problemResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { AdminCourt, AdminCourtList, AdminHoldList, ClubCourtParams, ClubHoldParams, ClubParams, CourtChanged, CourtSave,
  CourtWeek, DisplacedBookingList, HoldChanged, HoldSave, WeekQuery } from '../../schemas/admin.js'
import type { AdminHold } from '../../schemas/admin.js'
import type { ImportCourt, ImportCourtHold } from '../../schemas/import.js'
import { courtWeek } from '../../services/court-days.js'
import { displacedBy, removeHold, saveCourt, saveHold } from '../../services/courts.js'
import type { CourtChangeOptions } from '../../services/courts.js'
import { BookingsDisplaced } from '../../services/holds.js'
import { bookingBody } from './bookings.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf, bodyFieldProblem, clubOf } from './common.js'

const DISPLACES = problemResponse('The change would leave upcoming bookings without a place; nothing changed. The preview lists '
  + 'them; send the change again with `cancel_displaced_bookings` to cancel them with it.')

function courtBody(court: Court): AdminCourt {
  return {
    id: court.id, name: court.name, sport: court.sport, active: court.active,
    slot_minutes: court.slotMinutes as AdminCourt['slot_minutes'],
    opening_hours: Object.fromEntries(WEEKDAYS.map((day) => [day, court.openingHours[day] ?? null])) as AdminCourt['opening_hours'],
    booking_horizon_days: court.bookingHorizonDays, max_slots_per_booking: court.maxSlotsPerBooking,
  }
}

function holdBody(hold: CourtHold, timeZone: string): AdminHold {
  const instant = (value: string | null) => (value === null ? null : formatInZone(Date.parse(value), timeZone))
  return {
    id: hold.id, court_id: hold.courtId, kind: hold.kind, reason: hold.reason, starts_at: instant(hold.startsAt),
    ends_at: instant(hold.endsAt), weekday: hold.weekday === null ? null : WEEKDAYS[hold.weekday - 1] ?? null,
    start_time: hold.startTime, end_time: hold.endTime, valid_from: hold.validFrom, valid_until: hold.validUntil,
  }
}

/** The court of a request body in the import's terms: the body's fields but the instruction. */
function courtOf(id: string, body: CourtSave): ImportCourt {
  return { id, name: body.name, sport: body.sport, active: body.active, slot_minutes: body.slot_minutes,
    opening_hours: body.opening_hours, booking_horizon_days: body.booking_horizon_days,
    max_slots_per_booking: body.max_slots_per_booking }
}

function holdOf(id: string, courtId: string, body: HoldSave): ImportCourtHold {
  return { id, court_id: courtId, kind: body.kind, reason: body.reason, starts_at: body.starts_at, ends_at: body.ends_at,
    weekday: body.weekday, start_time: body.start_time, end_time: body.end_time, valid_from: body.valid_from,
    valid_until: body.valid_until }
}

/**
 * The import's refusals in HTTP terms: bookings in the way are a conflict with the current state
 * (409); anything else names the body's field (`courts[0].name: …` becomes the field `name`).
 */
async function throughImport<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof BookingsDisplaced) {
      throw new Conflict(`The change would leave ${String(error.bookingIds.length)} upcoming booking`
        + `${error.bookingIds.length === 1 ? '' : 's'} without a place (${error.bookingIds.slice(0, 5).join(', ')}`
        + `${error.bookingIds.length > 5 ? ', …' : ''}); nothing changed. Cancel them with it (cancel_displaced_bookings), or change it.`)
    }
    if (error instanceof InvalidInput) throw bodyFieldProblem(error)
    throw error
  }
}

/** The club's court named by the path; another club's court is as unknown as a missing one. */
async function courtOf404(context: AppContext, request: FastifyRequest, courtId: string): Promise<Court> {
  const court = await findCourt(context.db, memberOf(request).membership.clubId, courtId)
  if (court === undefined) throw new NotFound(`No court with the id ${courtId}.`)
  return court
}

/** The club's hold named by the path, on the court named by the path. */
async function holdOf404(context: AppContext, request: FastifyRequest, params: { readonly court: string, readonly hold: string }):
Promise<CourtHold> {
  const hold = await findHold(context.db, memberOf(request).membership.clubId, params.hold)
  if (hold?.courtId !== params.court.toLowerCase()) {
    throw new NotFound(`No block or reservation with the id ${params.hold} on this court.`)
  }
  return hold
}

/** Who changes, and whether the bookings the change displaces are cancelled (with the reason their mails carry) or refuse it. */
function changeOptions(context: AppContext, request: FastifyRequest,
  body: { cancel_displaced_bookings?: boolean, cancellation_reason?: string | null }): CourtChangeOptions {
  return {
    actor: actorOf(request),
    displaced: body.cancel_displaced_bookings === true
      ? { policy: 'cancel', settings: cancellationSettings(context.config), actor: actorOf(request),
          reason: body.cancellation_reason ?? null }
      : { policy: 'refuse' },
  }
}

/** The club's bookings of these ids, as the previews list them. */
async function displacedList(context: AppContext, request: FastifyRequest, ids: readonly string[]) {
  const club = await clubOf(context, request)
  return { items: (await findClubBookings(context.db, club.id, ids)).map((booking) => bookingBody(booking, club.timezone)) }
}

export function courtRoutes(app: FastifyInstance, context: AppContext): void {
  registerCourts(app, context)
  registerHolds(app, context)
}

/** The club's courts: list, create, change (with its preview) and a week of one court's slots. */
function registerCourts(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/courts`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'listCourts', summary: 'The club\'s courts', tags: ['Courts'],
      description: 'Every court of the club, in use or not, by name.',
      params: ClubParams,
      response: { 200: jsonResponse('The courts.', Reference(AdminCourtList)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => ({ items: (await listCourts(context.db, memberOf(request).membership.clubId)).map(courtBody) }))

  app.post(`${CLUB}/courts`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'createCourt', summary: 'Create a court', tags: ['Courts'],
      params: ClubParams,
      body: Reference(CourtSave),
      response: { 201: jsonResponse('The court.', Reference(AdminCourt)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request, reply) => {
    const clubId = memberOf(request).membership.clubId
    const court = courtOf(randomUUID(), request.body)
    await throughImport(() => saveCourt(context.db, context.clock, clubId, court, changeOptions(context, request, {})))
    const created = await findCourt(context.db, clubId, court.id)
    if (created === undefined) throw new NotFound(`No court with the id ${court.id}.`)
    return reply.code(201).send(courtBody(created))
  })

  app.put(`${CLUB}/courts/:court`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'changeCourt', summary: 'Change a court', tags: ['Courts'],
      description: 'Name, sport, hours, slot length, horizon, slots per booking, in use or not. A change that leaves upcoming '
        + 'bookings off the court\'s grid (other hours or slot length, or not in use) is refused unless '
        + '`cancel_displaced_bookings` cancels them (each guest is mailed).',
      params: ClubCourtParams,
      body: Reference(CourtSave),
      response: { 200: jsonResponse('The court as it is now, and how many bookings its change cancelled.', Reference(CourtChanged)),
        400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: DISPLACES },
    },
  }, async (request) => {
    const clubId = memberOf(request).membership.clubId
    await courtOf404(context, request, request.params.court)
    const court = courtOf(request.params.court, request.body)
    const cancelled = await throughImport(() => saveCourt(context.db, context.clock, clubId, court,
      changeOptions(context, request, request.body)))
    return { ...courtBody(await courtOf404(context, request, request.params.court)), bookings_cancelled: cancelled }
  })

  app.post(`${CLUB}/courts/:court/preview`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'previewCourtChange', summary: 'The bookings a court change would displace', tags: ['Courts'],
      description: 'Changes nothing: lists the upcoming bookings that the court as given would leave without a place.',
      params: ClubCourtParams,
      body: Reference(CourtSave),
      response: { 200: jsonResponse('The bookings in the way.', Reference(DisplacedBookingList)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    await courtOf404(context, request, request.params.court)
    const court = courtOf(request.params.court, request.body)
    const ids = await throughImport(() => displacedBy(context.db, context.clock, memberOf(request).membership.clubId, { court }))
    return displacedList(context, request, ids)
  })

  app.get(`${CLUB}/courts/:court/week`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'courtWeek', summary: 'A week of a court', tags: ['Courts'],
      description: 'The court\'s slots from Monday to Sunday of the week of the date, with the status the public listing shows.',
      params: ClubCourtParams,
      querystring: WeekQuery,
      response: { 200: jsonResponse('The week.', Reference(CourtWeek)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const court = await courtOf404(context, request, request.params.court)
    const date = request.query.date ?? localDateOf(context.clock.now(), club.timezone)
    return { court_id: court.id, timezone: club.timezone, days: await courtWeek(context.db, club, court, date) }
  })
}

/** A court's blocks and reservations: list, add (with its preview), change and remove. */
function registerHolds(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/courts/:court/holds`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'listHolds', summary: 'A court\'s blocks and reservations', tags: ['Courts'],
      params: ClubCourtParams,
      response: { 200: jsonResponse('The holds.', Reference(AdminHoldList)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    await courtOf404(context, request, request.params.court)
    return { items: (await listHolds(context.db, club.id, request.params.court)).map((hold) => holdBody(hold, club.timezone)) }
  })

  app.post(`${CLUB}/courts/:court/holds`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'addHold', summary: 'Block or reserve a court', tags: ['Courts'],
      description: 'A one-off or weekly block or reservation. One that covers upcoming bookings is refused unless '
        + '`cancel_displaced_bookings` cancels them (each guest is mailed).',
      params: ClubCourtParams,
      body: Reference(HoldSave),
      response: { 201: jsonResponse('The hold, and how many bookings it cancelled.', Reference(HoldChanged)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: DISPLACES },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    await courtOf404(context, request, request.params.court)
    const hold = holdOf(randomUUID(), request.params.court, request.body)
    const cancelled = await throughImport(() => saveHold(context.db, context.clock, club.id, hold,
      changeOptions(context, request, request.body)))
    const added = await findHold(context.db, club.id, hold.id)
    if (added === undefined) throw new NotFound(`No block or reservation with the id ${hold.id}.`)
    return reply.code(201).send({ ...holdBody(added, club.timezone), bookings_cancelled: cancelled })
  })

  app.post(`${CLUB}/courts/:court/holds/preview`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'previewHold', summary: 'The bookings a hold would displace', tags: ['Courts'],
      description: 'Changes nothing: lists the upcoming bookings that the block or reservation as given would cover.',
      params: ClubCourtParams,
      body: Reference(HoldSave),
      response: { 200: jsonResponse('The bookings in the way.', Reference(DisplacedBookingList)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    await courtOf404(context, request, request.params.court)
    const hold = holdOf(randomUUID(), request.params.court, request.body)
    const ids = await throughImport(() => displacedBy(context.db, context.clock, memberOf(request).membership.clubId, { hold }))
    return displacedList(context, request, ids)
  })

  app.put(`${CLUB}/courts/:court/holds/:hold`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'changeHold', summary: 'Change a block or reservation', tags: ['Courts'],
      params: ClubHoldParams,
      body: Reference(HoldSave),
      response: { 200: jsonResponse('The hold as it is now, and how many bookings its change cancelled.', Reference(HoldChanged)),
        400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: DISPLACES },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    await holdOf404(context, request, request.params)
    const hold = holdOf(request.params.hold, request.params.court, request.body)
    const cancelled = await throughImport(() => saveHold(context.db, context.clock, club.id, hold,
      changeOptions(context, request, request.body)))
    return { ...holdBody(await holdOf404(context, request, request.params), club.timezone), bookings_cancelled: cancelled }
  })

  app.delete(`${CLUB}/courts/:court/holds/:hold`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'removeHold', summary: 'Remove a block or reservation', tags: ['Courts'],
      params: ClubHoldParams,
      response: { 204: noContent('Removed.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const clubId = memberOf(request).membership.clubId
    await holdOf404(context, request, request.params)
    if (!await removeHold(context.db, context.clock, cancellationSettings(context.config),
      { clubId, holdId: request.params.hold, actor: actorOf(request) })) {
      throw new NotFound(`No block or reservation with the id ${request.params.hold}.`)
    }
    return reply.code(204).send()
  })
}
