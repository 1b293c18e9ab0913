/**
 * The guest's booking page at /bookings/manage/{token} (src/pages/manage-booking.ts). GET shows
 * the booking and never changes it — mail scanners open links; only the page's own forms, POSTs,
 * cancel it or move it (`…/move`, a time from the free times that `?change=1&date=` lists). After
 * either the browser is sent back to the page (303), so reloading it does not post again; a second
 * cancellation changes nothing anyway, and a move to where the booking is changes nothing.
 * Unknown, malformed and expired links are one 404 page; a cancellation or a move after the club's
 * deadline is refused with a 409 page saying until when it was possible, a move to a taken time
 * with a 409 page listing the free times again. The token is a secret: it is redacted from logs
 * (src/http/redaction.ts), and the page sends no Referer.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { chosenLanguage, languageOf, PAGE_HEADERS, renderBookingPage, renderNotFoundPage } from '../pages/manage-booking.js'
import type { ChangeView, PageState, PageView } from '../pages/manage-booking.js'
import { bookingOfLink, cancelByGuest, cancellationSettings } from '../services/booking-cancellation.js'
import { bookingPageUrl, manageUrl } from '../services/guest-links.js'
import { calendarFile } from '../mail/booking-mail.js'
import { conditionalGet } from '../http/conditional.js'
import { preferredLanguage } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'
import type { GuestBooking } from '../services/booking-cancellation.js'
import { freeTimesFor, moveBooking } from '../services/booking-moves.js'
import { parseDateTime } from '../domain/date-time.js'
import { Conflict, InvalidBooking, SlotConflict } from '../domain/errors.js'
import { formatInZone, localDateOf } from '../domain/zoned-time.js'

export const MANAGE_PREFIX = '/bookings/manage'

/** The booking's calendar file: one guest's, so no shared cache keeps it; revalidated by its ETag after 5 minutes. */
const GUEST_CALENDAR_CACHE = 'private, max-age=300'

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) })

/** The page's address, in the language asked for when one was chosen (`?lang=`), with extra query parameters. */
function pageHref(token: string, language: GuestLanguage | undefined, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...language === undefined ? {} : { lang: language }, ...extra }).toString()
  return `${MANAGE_PREFIX}/${token}${query === '' ? '' : `?${query}`}`
}

/** A text field of a parsed query string or form body, if there is one. */
function field(values: unknown, name: string): string | undefined {
  if (typeof values !== 'object' || values === null || !(name in values)) return undefined
  const value = (values as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

/** A date YYYY-MM-DD as given, if it is a real one from 1970 on (the databases' range, and more than a booking needs). */
function dateOf(value: string | undefined): string | undefined {
  if (value === undefined || !/^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}$/.test(value)) return undefined
  const time = Date.parse(`${value}T00:00:00Z`)
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? undefined : value
}

/** The page's language and its links to the others: the booking's language unless the guest chose one. */
function viewOf(request: FastifyRequest, token: string, found: GuestBooking | undefined): PageView {
  const language = languageOf(request.query, found?.booking.language ?? preferredLanguage(request.headers['accept-language']) ?? 'en')
  return { language, languageHref: (other) => pageHref(token, other) }
}

/** The links of an open booking's page: the change of time and the calendar file; of a cancelled one, the way back to booking. */
function pageLinks(context: AppContext, found: GuestBooking, token: string, query: unknown): PageState {
  const language = chosenLanguage(query)
  return {
    changeHref: pageHref(token, language, { change: '1' }),
    calendarHref: `${MANAGE_PREFIX}/${token}/calendar.ics`,
    bookingPageHref: new URL(bookingPageUrl(context.config.publicUrl, found.booking.clubSlug)).pathname
      + (language === undefined ? '' : `?lang=${language}`),
  }
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html)
}

export async function manageBookingRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register((scope, _options, done) => {
    // The cancel form posts the guest's reason (or nothing), the move form the chosen start; nothing else in a body is read.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
    })
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
    // Pages, not API operations: outside the API descriptions.
    const schema = { hide: true, params: TokenParams }
    const config = { access: { public: true } } as const

    typed.get(`${MANAGE_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.listing.hook() }, async (request, reply) => {
      const { token } = request.params
      const found = await bookingOfLink(context.db, context.clock, token)
      const view = viewOf(request, token, found)
      if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(view))
      const justCancelled = field(request.query, 'cancelled') !== undefined && found.booking.cancelledBy === 'guest'
      const justMoved = field(request.query, 'moved') !== undefined
      const justBooked = field(request.query, 'booked') !== undefined
      const chosen = chosenLanguage(request.query)
      if (found.state === 'open' && field(request.query, 'cancel') !== undefined) {
        return sendPage(reply, 200, renderBookingPage(found, view, { confirming: {
          cancelAction: pageHref(token, chosen), backHref: pageHref(token, chosen) } }))
      }
      if (found.state === 'open' && field(request.query, 'change') !== undefined) {
        const date = dateOf(field(request.query, 'date')) ?? localDateOf(found.booking.start, found.booking.timezone)
        const change = await changeView(context, found, token, request.query, date)
        return sendPage(reply, 200, renderBookingPage(found, view, { change }))
      }
      return sendPage(reply, 200, renderBookingPage(found, view, { justCancelled, justMoved, justBooked,
        cancelHref: { path: `${MANAGE_PREFIX}/${token}`, language: chosen }, ...pageLinks(context, found, token, request.query) }))
    })

    typed.post(`${MANAGE_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.booking.hook() }, async (request, reply) => {
      const { token } = request.params
      // The guest's reason, if they gave one (the club reads it with the booking); one line of at most 500 characters.
      const reason = (field(request.body, 'reason') ?? '').replace(/\s+/g, ' ').trim().slice(0, 500)
      const found = await cancelByGuest(context.db, context.clock, cancellationSettings(context.config), token,
        reason === '' ? null : reason)
      const view = viewOf(request, token, found)
      if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(view))
      if (found.state === 'too-late') return sendPage(reply, 409, renderBookingPage(found, view))
      return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .redirect(pageHref(token, chosenLanguage(request.query), { cancelled: '1' }), 303)
    })

    // The booking as a calendar file (METHOD:PUBLISH, the UID and SEQUENCE of its mails' event): for a guest who deleted the
    // mail, or whose mail program does not read the attachment. A cancelled booking's file says so.
    // Calendar apps that subscribed to it poll it: an ETag of its bytes (a 304 for a current copy), kept privately for 5 minutes.
    typed.get(`${MANAGE_PREFIX}/:token/calendar.ics`, { config, schema, onRequest: context.publicLimits.listing.hook(),
      onSend: conditionalGet(GUEST_CALENDAR_CACHE) }, async (request, reply) => {
      const { token } = request.params
      const found = await bookingOfLink(context.db, context.clock, token)
      if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(viewOf(request, token, found)))
      const { booking } = found
      // DTSTAMP is when the booking was made (as in the feeds): the file's bytes change only when the booking does.
      const ics = calendarFile({ ...booking, bookingId: booking.id, mailFrom: context.config.mail.from,
        sequence: booking.calendarSequence, cancelled: found.state === 'cancelled', stamp: booking.createdAt,
        manageUrl: manageUrl(context.config.publicUrl, token) })
      return reply.code(200).headers({ 'content-type': 'text/calendar; charset=utf-8; method=PUBLISH',
        'content-disposition': 'attachment; filename="booking.ics"', 'referrer-policy': 'no-referrer',
        'x-robots-tag': 'noindex, nofollow' }).send(ics)
    })

    typed.post(`${MANAGE_PREFIX}/:token/move`, { config, schema, onRequest: context.publicLimits.booking.hook() },
      async (request, reply) => {
        const { token } = request.params
        const found = await bookingOfLink(context.db, context.clock, token)
        const view = viewOf(request, token, found)
        if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(view))
        if (found.state === 'cancelled') return sendPage(reply, 409, renderBookingPage(found, view))
        const { booking } = found
        const start = parseDateTime(field(request.body, 'start') ?? '')
        // The day to list again after a refusal: the chosen time's, or the booking's.
        const date = dateOf(start === undefined ? undefined : localDateOf(start, booking.timezone))
          ?? localDateOf(booking.start, booking.timezone)
        const refused = async (status: number, refusal: 'taken' | 'invalid' | 'too-late') => {
          const again = await bookingOfLink(context.db, context.clock, token) ?? found
          const change = again.state === 'open' ? await changeView(context, again, token, request.query, date) : undefined
          return sendPage(reply, status, renderBookingPage(again, view, { refusal, ...change === undefined ? {} : { change } }))
        }
        if (found.state === 'too-late') return refused(409, 'too-late')
        if (start === undefined) return refused(400, 'invalid')
        const end = start + booking.end - booking.start
        try {
          await moveBooking(context.db, context.clock, cancellationSettings(context.config), { clubId: booking.clubId,
            bookingId: booking.id, mover: { by: 'guest', manageUrl: manageUrl(context.config.publicUrl, token) }, target: { court_id: booking.courtId,
              start_time: formatInZone(start, booking.timezone), end_time: formatInZone(end, booking.timezone) } })
        } catch (error) {
          if (error instanceof SlotConflict) return refused(409, 'taken')
          if (error instanceof InvalidBooking) return refused(400, 'invalid')
          // The deadline passed, or the booking was cancelled, since the page was read.
          if (error instanceof Conflict) return refused(409, 'too-late')
          throw error
        }
        return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
          .redirect(pageHref(token, chosenLanguage(request.query), { moved: '1' }), 303)
      })
    done()
  })
}

/** The change of time for a date: its free times, and the forms' addresses in the guest's chosen language. */
async function changeView(context: AppContext, found: GuestBooking, token: string, query: unknown, date: string):
Promise<ChangeView> {
  const language = chosenLanguage(query)
  const times = await freeTimesFor(context.db, context.clock, found.booking, date)
  const move = `${MANAGE_PREFIX}/${token}/move${language === undefined ? '' : `?lang=${language}`}`
  return { date, times, moveAction: move, backHref: pageHref(token, language), chosenLanguage: language }
}
