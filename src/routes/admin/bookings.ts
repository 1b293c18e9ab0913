/**
 * A club's bookings in the dashboard API: the rules (until when guests may cancel, how long their
 * data is kept, the privacy notice), the bookings of a day, the club's cancellation with a reason,
 * and the export and erasure of what is held about one address. Every route is under
 * `/clubs/:club/`; the access guard has checked the caller's role there, and every query is scoped
 * to that club whatever ids the request names.
 */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { Type } from '@sinclair/typebox'
import { bookForClub, bookingRulesOf, bookingSettings, findClubBooking, listBookings, searchBookings } from '../../services/bookings.js'
import type { BookingRules as Rules, ClubBooking as Booking, BookingStatus } from '../../services/bookings.js'
import { Conflict, InvalidRequest, NotFound } from '../../domain/errors.js'
import { addDays, formatInZone, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { memberOf } from '../../http/dashboard-access.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf, clubOf } from './common.js'
import { jsonResponse, problemResponse } from '../../http/responses.js'
import { csvDocument } from '../../http/csv.js'
import { IdempotencyKeyHeader, idempotencyKeyOf } from '../../http/idempotency-key.js'
import { Reference } from '../../schemas/common.js'
import { BookingCancel, BookingExportQuery, BookingMove, StaffBookingCreate,
  BookingRules, BookingSearch, BookingSearchQuery, BookingsQuery,
  ClubBooking,
  ClubBookingList, ClubBookingParams, ClubParams, Erasure,
  PersonalDataExport, PersonalDataRequest } from '../../schemas/admin.js'
import { checkEmail } from '../../services/admins.js'
import { cancelByClub, cancellationSettings } from '../../services/booking-cancellation.js'
import { moveBooking } from '../../services/booking-moves.js'
import { changeBookingRules } from '../../services/booking-rules.js'
import { erasePersonalData, exportPersonalData } from '../../services/personal-data.js'

const MAX_RANGE_DAYS = 366
const SEARCH_LIMIT = 500
/** More than any club books in a year on this platform's scale; the export is one response. */
const EXPORT_LIMIT = 100_000

const CSV_COLUMNS = ['id', 'court_name', 'start_time', 'end_time', 'status', 'booker_name', 'booker_email', 'notes', 'created_at',
  'cancelled_at', 'cancelled_by', 'cancel_reason'] as const

/** The bookings as CSV (src/http/csv.ts). */
export function bookingsCsv(bookings: readonly ClubBooking[]): string {
  return csvDocument(CSV_COLUMNS, bookings)
}

const ENDED = problemResponse('The booking has ended: it stays as it was.')

function rulesBody(rules: Rules): BookingRules {
  return { cancellation_deadline_minutes: rules.cancellationDeadlineMinutes, retention_days: rules.retentionDays,
    privacy_url: rules.privacyUrl, max_open_bookings_per_email: rules.maxOpenPerEmail, guests_may_book: rules.guestsMayBook,
    language: rules.language, contact_email: rules.contactEmail, waiting_list: rules.waitingList,
    contact_phone: rules.contactPhone, address: rules.address }
}

export function bookingBody(booking: Booking, timeZone: string): ClubBooking {
  return {
    id: booking.id, court_id: booking.courtId, court_name: booking.courtName,
    start_time: formatInZone(Date.parse(booking.start), timeZone), end_time: formatInZone(Date.parse(booking.end), timeZone),
    booker_name: booking.bookerName, booker_email: booking.bookerEmail, notes: booking.notes, status: booking.status,
    created_at: booking.createdAt, cancelled_at: booking.cancelledAt, cancelled_by: booking.cancelledBy,
    cancel_reason: booking.cancelReason,
  }
}

/** A booking of the club as the club sees it now, after a change of it: the answer of the cancel and move routes. */
async function bookingAsItIs(context: AppContext, club: { id: string, timezone: string }, bookingId: string):
Promise<ClubBooking> {
  const booking = await findClubBooking(context.db, club.id, bookingId)
  if (booking === undefined) throw new NotFound(`No booking with the id ${bookingId}.`)
  return bookingBody(booking, club.timezone)
}

/** The instants from the start of `from` to the end of `to` at the club; refuses a range backwards or over 366 days. */
function rangeOf(from: string, to: string, timeZone: string) {
  if (to < from) throw new InvalidRequest('query parameter', 'to', 'is before from')
  if (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`) > MAX_RANGE_DAYS * 86_400_000) {
    throw new InvalidRequest('query parameter', 'to', `is more than ${String(MAX_RANGE_DAYS)} days after from`)
  }
  return { start: localToInstant(from, 0, timeZone), end: localToInstant(addDays(to, 1), 0, timeZone) }
}

export function bookingRoutes(app: FastifyInstance, context: AppContext): void {
  registerBookingRules(app, context)
  registerBookingLists(app, context)
  registerCancellation(app, context)
  registerMove(app, context)
  registerStaffBooking(app, context)
  registerPersonalData(app, context)
}

/** The club's booking rules: read and change. */
function registerBookingRules(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/booking-rules`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'getBookingRules', summary: 'The club\'s booking rules', tags: ['Bookings'],
      params: ClubParams,
      response: { 200: jsonResponse('The rules.', Reference(BookingRules)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => rulesBody(await bookingRulesOf(context.db, memberOf(request).membership.clubId)))

  app.put(`${CLUB}/booking-rules`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'setBookingRules', summary: 'Change the club\'s booking rules', tags: ['Bookings'],
      description: 'Applies to every booking from now on, existing ones included (the deadline of an upcoming booking moves).',
      params: ClubParams,
      body: Reference(BookingRules),
      response: { 200: jsonResponse('The rules as now in force.', Reference(BookingRules)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const rules = await changeBookingRules(context.db, context.clock, { clubId: memberOf(request).membership.clubId, actor:
      actorOf(request), rules: { cancellationDeadlineMinutes: request.body.cancellation_deadline_minutes,
      retentionDays: request.body.retention_days, privacyUrl: request.body.privacy_url,
      maxOpenPerEmail: request.body.max_open_bookings_per_email, guestsMayBook: request.body.guests_may_book,
      ...request.body.language === undefined ? {} : { language: request.body.language },
      ...request.body.waiting_list === undefined ? {} : { waitingList: request.body.waiting_list },
      ...request.body.contact_email === undefined
        ? {}
        : { contactEmail: request.body.contact_email?.trim().toLowerCase() ?? null },
      ...request.body.contact_phone === undefined ? {} : { contactPhone: blankAsNull(request.body.contact_phone) },
      ...request.body.address === undefined ? {} : { address: blankAsNull(request.body.address) },
    } })
    return rulesBody(rules)
  })
}

/** The club's bookings: a day's, those a search finds, and a range of them as CSV. */
function registerBookingLists(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/bookings`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'listBookings', summary: 'The bookings of a day', tags: ['Bookings'],
      description: 'Every booking that starts on the date (club-local), with its guest, cancelled ones too.',
      params: ClubParams,
      querystring: BookingsQuery,
      response: { 200: jsonResponse('The bookings.', Reference(ClubBookingList)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const date = request.query.date ?? localDateOf(context.clock.now(), club.timezone)
    const window = { start: localToInstant(date, 0, club.timezone), end: localToInstant(date, 1440, club.timezone) }
    const bookings = await listBookings(context.db, club.id, window)
    return { date, timezone: club.timezone, items: bookings.map((booking) => bookingBody(booking, club.timezone)) }
  })

  app.get(`${CLUB}/bookings/search`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'searchBookings', summary: 'Find bookings', tags: ['Bookings'],
      description: `Bookings that start between two local dates (at most ${String(MAX_RANGE_DAYS)} days apart), matching part of `
        + `the guest's name or address, a court and a state; the first ${String(SEARCH_LIMIT)} by start.`,
      params: ClubParams,
      querystring: BookingSearchQuery,
      response: { 200: jsonResponse('The bookings found.', Reference(BookingSearch)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const { from, to, q, court, status } = request.query
    const found = await searchBookings(context.db, club.id, { window: rangeOf(from, to, club.timezone), text: q, courtId: court,
      status: status as BookingStatus | undefined, limit: SEARCH_LIMIT + 1 })
    return { from, to, timezone: club.timezone,
      items: found.slice(0, SEARCH_LIMIT).map((booking) => bookingBody(booking, club.timezone)),
      truncated: found.length > SEARCH_LIMIT }
  })

  app.get(`${CLUB}/bookings/export`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'exportBookings', summary: 'Bookings as CSV', tags: ['Bookings'],
      description: `Every booking that starts between two local dates (at most ${String(MAX_RANGE_DAYS)} days apart), cancelled `
        + 'ones too, as CSV (RFC 4180, UTF-8 with a byte order mark so that spreadsheets read the accents; a cell that a '
        + 'spreadsheet would take for a formula is prefixed with an apostrophe).',
      params: ClubParams,
      querystring: BookingExportQuery,
      response: { 200: { description: 'The bookings, one per line, by start.', content: { 'text/csv': { schema: Type.String() } } },
        400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    const { from, to } = request.query
    const found = await searchBookings(context.db, club.id, { window: rangeOf(from, to, club.timezone), limit: EXPORT_LIMIT })
    return reply.type('text/csv; charset=utf-8').header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="bookings-${club.slug}-${from}-${to}.csv"`)
      .send(bookingsCsv(found.map((booking) => bookingBody(booking, club.timezone))))
  })
}

/** The club cancels a booking, with a reason for the guest. */
function registerCancellation(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/bookings/:booking/cancel`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'cancelBooking', summary: 'Cancel a booking', tags: ['Bookings'],
      description: 'Cancels the booking for the club: the slot is free at once, and the guest gets a cancellation mail with the '
        + 'reason and a calendar CANCEL. Cancelling a cancelled booking changes nothing and sends nothing.',
      params: ClubBookingParams,
      body: Reference(BookingCancel),
      response: { 200: jsonResponse('The booking as it is now.', Reference(ClubBooking)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB, 409: ENDED },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const reason = request.body.reason?.trim() ?? ''
    const result = await cancelByClub(context.db, context.clock, cancellationSettings(context.config),
      { clubId: club.id, bookingId: request.params.booking, reason: reason === '' ? null : reason, actor: actorOf(request) })
    if (result === undefined) throw new NotFound(`No booking with the id ${request.params.booking}.`)
    if (result.outcome === 'ended') throw new Conflict('The booking has ended: it stays as it was.')
    return bookingAsItIs(context, club, result.booking.id)
  })
}

const MOVE_REFUSED = problemResponse('`invalid-booking`: the target is no active court of the club or not a bookable slot '
  + '(off the grid, outside opening hours, in the past, too long); `slot-conflict`: the target is booked, reserved or blocked.')
const MOVE_CONFLICT = problemResponse('`conflict`: the booking is cancelled or has ended: it stays as it is.')

/** The club moves a booking to another time or court; the guest is mailed the change. */
function registerMove(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/bookings/:booking/move`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'moveBooking', summary: 'Move a booking', tags: ['Bookings'],
      description: 'Moves the booking to another time or court of the club: the same booking (id, guest, manage link), checked '
        + 'and locked as a new booking\'s slot is, so a move racing another booking of the target never leaves two. The guest '
        + 'is mailed the change with a calendar REQUEST of the same event (same UID, higher SEQUENCE) unless `notify_guest` is '
        + 'false; a `booking.rescheduled` webhook event is sent, and the audit log records `booking.moved`. Moving a booking to '
        + 'where it is changes nothing.',
      params: ClubBookingParams,
      body: Reference(BookingMove),
      response: { 200: jsonResponse('The booking as it is now.', Reference(ClubBooking)), 400: MOVE_REFUSED, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB, 409: MOVE_CONFLICT },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const { court_id, start_time, end_time, notify_guest } = request.body
    await moveBooking(context.db, context.clock, cancellationSettings(context.config), { clubId: club.id,
      bookingId: request.params.booking, target: { court_id, start_time, end_time },
      mover: { by: 'club', actor: actorOf(request), notifyGuest: notify_guest ?? true } })
    return bookingAsItIs(context, club, request.params.booking)
  })
}

const STAFF_REFUSED = problemResponse('`validation-error`: an override without a reason; `invalid-booking`: no active court of '
  + 'the club, not a bookable slot (off the grid, outside opening hours, in the past, beyond the horizon without its override, '
  + 'too long), or an address at its limits without their override; `slot-conflict`: the slot is booked, reserved or blocked.')

/** The club books a court for a member or a guest (the planner, the command line). */
function registerStaffBooking(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/bookings`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'createStaffBooking', summary: 'Book a court for a member or a guest', tags: ['Bookings'],
      description: 'The club takes a booking: checked and locked as a guest\'s is (an active court, its grid and hours, a free '
        + 'slot), but for a guest without an address too, and past the booking horizon or the address\'s limits when told to, '
        + 'with a reason. The guest is mailed a confirmation when there is an address and `send_confirmation` is not false; '
        + 'the audit log records `booking.created_by_staff` with any override and its reason; a `booking.created` webhook event '
        + 'is sent and the public listing shows the slot booked. Safe to retry with an `Idempotency-Key`.',
      params: ClubParams,
      headers: Type.Object({ 'idempotency-key': IdempotencyKeyHeader }),
      body: Reference(StaffBookingCreate),
      response: { 201: jsonResponse('The booking.', Reference(ClubBooking)), 400: STAFF_REFUSED, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    const key = idempotencyKeyOf(request)
    const body = request.body
    const outcome = await bookForClub(context.db, context.clock, bookingSettings(context), club, {
      court_id: body.court_id, start_time: body.start_time, end_time: body.end_time, booker_name: body.booker_name,
      booker_email: body.booker_email ?? '', notes: body.notes,
    }, { actor: actorOf(request), confirm: body.send_confirmation ?? true, overrideHorizon: body.override_horizon ?? false,
      overrideAddressLimits: body.override_address_limits ?? false, reason: body.override_reason ?? null }, key)
    if (outcome.replayed) void reply.header('idempotent-replayed', 'true')
    return reply.code(201).send(await bookingAsItIs(context, club, outcome.bookingId))
  })
}

/** What the club holds about one address: its export and its erasure (owners only). */
function registerPersonalData(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/personal-data/export`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'exportPersonalData', summary: 'Export what the club holds about an address', tags: ['Bookings'],
      description: 'The bookings, mails, idempotency records and member records of the address at this club. Recorded in the '
        + 'audit log without the address.',
      params: ClubParams,
      body: Reference(PersonalDataRequest),
      response: { 200: jsonResponse('Everything held.', Reference(PersonalDataExport)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => exportPersonalData(context.db, context.clock, { email: checkEmail(request.body.email),
    clubId: memberOf(request).membership.clubId, actor: actorOf(request) }))

  app.post(`${CLUB}/personal-data/erase`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'erasePersonalData', summary: 'Erase what the club holds about an address', tags: ['Bookings'],
      description: 'Removes the address from the club\'s bookings (upcoming ones are cancelled, without a mail) and deletes its '
        + 'mails and idempotency records. Recorded in the audit log without the address.',
      params: ClubParams,
      body: Reference(PersonalDataRequest),
      response: { 200: jsonResponse('What was removed.', Reference(Erasure)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const clubId = memberOf(request).membership.clubId
    const erased = await erasePersonalData(context.db, context.clock, { email: checkEmail(request.body.email), clubId,
      actor: actorOf(request) })
    return { bookings: erased.bookings, mails: erased.mails, idempotency_records: erased.idempotencyRecords,
      waiting_list_entries: erased.waitingEntries, member_records_kept: erased.memberRecordsKept }
  })
}

/** A text field of a change, trimmed; empty means none. */
function blankAsNull(value: string | null): string | null {
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
