/**
 * Weekly series in the dashboard API: preview, book, and cancel the rest from a date
 * (src/services/booking-series.ts). Each occurrence is a booking: moved and cancelled as one.
 */
import { cancellationSettings } from '../../services/booking-cancellation.js'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { NotFound } from '../../domain/errors.js'
import { formatInZone } from '../../domain/zoned-time.js'
import { jsonResponse, problemResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { ClubParams, ClubSeriesParams, SeriesCancel, SeriesCancelled, SeriesCreate, SeriesCreated, SeriesPreview,
  SeriesRequest } from '../../schemas/admin.js'
import type { SeriesRequest as SeriesBody } from '../../schemas/admin.js'
import { cancelSeriesFrom, createSeries, previewSeries } from '../../services/booking-series.js'
import type { SeriesInput, SeriesOccurrence } from '../../services/booking-series.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf, clubOf } from './common.js'

const REFUSED = problemResponse('`validation-error`: times or dates malformed, the last date before the first, more than 53 '
  + 'dates; `invalid-booking`: no active court of the club; `slot-conflict` (saving): a date in the way with `collisions: refuse`, '
  + 'or no free date at all.')

function inputOf(body: SeriesBody): SeriesInput {
  return { court_id: body.court_id, start_time: body.start_time, end_time: body.end_time, first_date: body.first_date,
    last_date: body.last_date, booker_name: body.booker_name, booker_email: body.booker_email ?? '', notes: body.notes }
}

function occurrenceBody(occurrence: SeriesOccurrence, timeZone: string) {
  return { date: occurrence.date, start_time: formatInZone(occurrence.start, timeZone),
    end_time: formatInZone(occurrence.end, timeZone), status: occurrence.status, reason: occurrence.reason }
}

export function seriesRoutes(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/series/preview`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'previewSeries', summary: 'The dates of a weekly series', tags: ['Bookings'],
      description: 'Changes nothing: every date of the series, free or with what is in its way.',
      params: ClubParams,
      body: Reference(SeriesRequest),
      response: { 200: jsonResponse('The dates.', Reference(SeriesPreview)), 400: REFUSED, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const { court, occurrences } = await previewSeries(context.db, context.clock, club, inputOf(request.body))
    return { court_id: court.id, court_name: court.name, timezone: club.timezone,
      occurrences: occurrences.map((occurrence) => occurrenceBody(occurrence, club.timezone)) }
  })

  app.post(`${CLUB}/series`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'createSeries', summary: 'Book a weekly series', tags: ['Bookings'],
      description: 'Books the series in one change: its free dates (`collisions: skip`) or every date or nothing (`refuse`). '
        + 'Its bookings are bookings like any other (listed, exported, moved and cancelled one by one); nobody is mailed; a '
        + '`booking.created` webhook event per booking; the audit log records `series.created`.',
      params: ClubParams,
      body: Reference(SeriesCreate),
      response: { 201: jsonResponse('The series.', Reference(SeriesCreated)), 400: REFUSED, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    const saved = await createSeries(context.db, context.clock, club, inputOf(request.body),
      { actor: actorOf(request), collisions: request.body.collisions })
    return reply.code(201).send({ id: saved.seriesId, booking_ids: [...saved.bookingIds],
      skipped: saved.skipped.map((occurrence) => occurrenceBody(occurrence, club.timezone)) })
  })

  app.post(`${CLUB}/series/:series/cancel`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'cancelSeries', summary: 'Cancel the rest of a series', tags: ['Bookings'],
      description: 'Cancels the series\' bookings on the date and after that have not ended, for the club, without mails; the '
        + 'audit log records `series.cancelled`. Cancelling again cancels nothing more.',
      params: ClubSeriesParams,
      body: Reference(SeriesCancel),
      response: { 200: jsonResponse('How many were cancelled.', Reference(SeriesCancelled)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    const reason = request.body.reason?.trim() ?? ''
    const cancelled = await cancelSeriesFrom(context.db, context.clock, cancellationSettings(context.config), { club,
      seriesId: request.params.series, from: request.body.from, reason: reason === '' ? null : reason, actor: actorOf(request) })
    if (cancelled === undefined) throw new NotFound(`No series with the id ${request.params.series}.`)
    return { cancelled }
  })
}
