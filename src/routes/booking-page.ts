/**
 * The hosted booking page /book/{club} (src/pages/booking-page.ts): the booking widget on a page of
 * the service, framed only by the club's own websites — and the same booking without JavaScript: GET
 * shows a day's free times (`?date=`, `?lang=`), the form POSTs to the page and is booked as the
 * public endpoint books (the same rules, limits, Idempotency-Key and mails), then the browser is sent
 * to the booking's own page (303); a refusal shows the page again with what the guest typed and each
 * reason at its field. A waiting list mail's link (`?wait=<its token>`) opens the freed time with the
 * entry's name and address filled in; the address never goes into the URL. An unknown club is a 404 page.
 */
import { randomUUID } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { preferredLanguage } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'
import { localDateOf } from '../domain/zoned-time.js'
import { bodyCheck } from '../http/form-check.js'
import { inGuestLanguage } from '../http/guest-problems.js'
import { PROBLEM_TYPES } from '../http/problem-types.js'
import { ProblemError, problemOf } from '../http/problems.js'
import type { WidgetBuild } from '../http/widget.js'
import { bookingPageText } from '../i18n/guest/index.js'
import { bookingPageHeaders, renderBookingPage, renderNoticePage, renderUnknownClubPage } from '../pages/booking-page.js'
import type { BookingFormView, BookingPageView, OfferedCourt } from '../pages/booking-page.js'
import { chosenLanguage } from '../pages/manage-booking.js'
import { BookingRequest } from '../schemas/court.js'
import { bookCourt, bookingRulesOf, bookingSettings, courtDay } from '../services/bookings.js'
import type { Club } from '../services/clubs.js'
import { findClubBySlug } from '../services/clubs.js'
import { websitesOf } from '../services/club-websites.js'
import { manageUrl } from '../services/guest-links.js'
import { waitingOfLink } from '../services/waiting-list.js'

const ClubParams = Type.Object({ clubSlug: Type.String({ maxLength: 63 }) })
const MINUTE = 60_000
const checkBooking = bodyCheck(BookingRequest)
const NO_TIME = new ProblemError('invalid-booking', 'No time was chosen.', {}, undefined, {}, [{ code: 'required', field: 'time' }])

/** A text field of a parsed query string or form body ('' when it has none). */
function field(values: unknown, name: string): string {
  const value = typeof values === 'object' && values !== null ? (values as Record<string, unknown>)[name] : undefined
  return typeof value === 'string' ? value : ''
}

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)

/** What the guest typed into the form, kept when the page is shown again. */
type FormValues = BookingFormView['values']

/** The form as the page shows it again: what was typed, why it was refused, and the answer's status. */
interface Shown {
  readonly values?: FormValues
  readonly refusal?: BookingFormView['refusal']
  readonly status?: number
}

const EMPTY: FormValues = { time: '', slots: '1', name: '', email: '', notes: '' }

/** The form's fields, by the booking request's names. */
const FORM_FIELDS: Readonly<Record<string, string>> = {
  booker_name: 'name', booker_email: 'email', notes: 'notes', court_id: 'time', start_time: 'time', end_time: 'time', time: 'time',
}

export async function bookingPageRoutes(app: FastifyInstance, context: AppContext, widget: WidgetBuild | undefined):
Promise<void> {
  await app.register((scope, _options, done) => {
    // The booking form posts its fields; nothing else is read from a body (at most 4 KiB).
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, next) => {
      next(null, Object.fromEntries(new URLSearchParams(String(body))))
    })
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
    // A page, not an API operation: outside the API descriptions.
    const schema = { hide: true, params: ClubParams }

    /** The page of a club's day, in the guest's language, with the form as given (and its refusal). */
    const page = async (request: FastifyRequest, reply: FastifyReply, club: Club, date: string | undefined,
      shown: Shown = {}) => {
      if (widget === undefined) {
        throw new ProblemError('not-found', 'The booking widget has not been built on this installation; run `npm run build`.')
      }
      const rules = await bookingRulesOf(context.db, club.id)
      const language = languageOf(request, rules.language)
      const now = context.clock.now()
      const today = localDateOf(now, club.timezone)
      const wanted = await waitedFor(context, request, club)
      const day = date !== undefined && isDate(date) && date >= today ? date : wanted?.date ?? startDate(request) ?? today
      const read = await courtDay(context.db, club, day, now)
      const courts = offeredCourts(read, rules.cancellationDeadlineMinutes, now)
      const contact = contactText(language, [rules.contactPhone, rules.contactEmail])
      const form: BookingFormView = { date: day, today, timeZone: club.timezone, courts, key: randomUUID(),
        values: shown.values ?? { ...EMPTY, ...wanted?.values }, ...shown.refusal === undefined ? {} : { refusal: shown.refusal },
        policy: policyText(language, rules.cancellationDeadlineMinutes), contact }
      const chosen = chosenLanguage(request.query)
      const href = (query: Record<string, string>) => `/book/${encodeURIComponent(club.slug)}?${new URLSearchParams(query).toString()}`
      const origins = await websitesOf(context.db, club.id)
      const view: BookingPageView = { club, language, script: { path: widget.pinnedPath, integrity: widget.integrity },
        frameAncestors: origins, start: { ...startOf(request.query), ...wanted?.start }, form,
        languageHref: (other) => href({ date: day, lang: other }), dayHref: (other) => href({ date: other, lang: language }),
        action: `/book/${encodeURIComponent(club.slug)}${chosen === undefined ? '' : `?lang=${chosen}`}` }
      return reply.code(shown.status ?? 200).headers(bookingPageHeaders(origins)).send(renderBookingPage(view))
    }

    /** Too many tries, or anything else the booking is refused before it is read: the page again, saying why. */
    const refusedEarly = async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const problem = inGuestLanguage(problemOf(error, request), languageOf(request, 'en'))
      const status = PROBLEM_TYPES[problem.kind].status
      const slug = (request.params as { clubSlug?: string }).clubSlug ?? ''
      const club = status >= 500 ? undefined : await findClubBySlug(context.db, slug)
      if (club === undefined) {
        return reply.code(status).headers({ ...problem.headers, ...bookingPageHeaders([]) })
          .send(renderNoticePage(languageOf(request, 'en'), problem.message))
      }
      void reply.headers(problem.headers)
      return page(request, reply, club, field(request.body, 'date') || undefined,
        { values: valuesOf(request.body), refusal: { fields: {}, others: [problem.message] }, status })
    }

    typed.get('/book/:clubSlug', { config: { access: { public: true } }, schema,
      onRequest: context.publicLimits.listing.hook() }, async (request, reply) => {
      const club = await findClubBySlug(context.db, request.params.clubSlug)
      if (club === undefined) return unknownClub(request, reply)
      return page(request, reply, club, field(request.query, 'date') || undefined)
    })

    typed.post('/book/:clubSlug', { config: { access: { public: true } }, schema,
      onRequest: context.publicLimits.booking.hook(),
      errorHandler: (error, request, reply) => {
        // A failure while saying so goes to the service's own error handler: a problem document.
        refusedEarly(error, request, reply).catch((failure: unknown) => {
          void reply.send(failure)
        })
      } }, async (request, reply) => {
      const club = await findClubBySlug(context.db, request.params.clubSlug)
      if (club === undefined) return unknownClub(request, reply)
      const values = valuesOf(request.body)
      const rules = await bookingRulesOf(context.db, club.id)
      const language = languageOf(request, rules.language)
      const [courtId = '', start = ''] = values.time.split('|')
      const date = isDate(field(request.body, 'date')) ? field(request.body, 'date') : localDateOf(context.clock.now(), club.timezone)
      const read = await courtDay(context.db, club, date, context.clock.now())
      const slot = read.slots.find((candidate) => candidate.court_id === courtId && candidate.start_time === start)
      const slots = Math.max(1, Math.min(48, Number.parseInt(values.slots, 10) || 1))
      const end = slot === undefined
        ? ''
        : new Date(Date.parse(slot.start_time)
          + slots * (Date.parse(slot.end_time) - Date.parse(slot.start_time))).toISOString()
      const body = { court_id: courtId, start_time: start, end_time: end, booker_name: values.name,
        booker_email: values.email.trim(),
        ...values.notes.trim() === '' ? {} : { notes: values.notes } }
      try {
        if (values.time === '') throw NO_TIME
        const invalid = checkBooking(body)
        if (invalid !== undefined) throw invalid
        const key = field(request.body, 'key')
        const outcome = await bookCourt(context.db, context.clock, bookingSettings(context), club, { ...body, language },
          /^[\x21-\x7e]{1,255}$/.test(key) ? key : undefined)
        const token = outcome.manageToken
        const to = token === undefined
          ? `/book/${encodeURIComponent(club.slug)}?lang=${language}`
          : `${new URL(manageUrl(context.config.publicUrl, token)).pathname}?booked=1&lang=${language}`
        return await reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(to, 303)
      } catch (error) {
        const problem = inGuestLanguage(problemOf(error, request), language)
        if (problem.kind !== 'invalid-booking' && problem.kind !== 'slot-conflict' && problem.kind !== 'validation-error') throw error
        const fields: Record<string, string> = {}
        const others: string[] = []
        for (const param of problem.invalidParams ?? []) {
          const at = FORM_FIELDS[param.name]
          if (at === undefined) others.push(param.reason)
          else fields[at] ??= param.reason
        }
        if (problem.invalidParams === undefined) others.push(problem.message)
        // A time taken meanwhile is offered no more: the day as it is now, everything else as typed.
        return page(request, reply, club, date, { values: { ...values,
          time: problem.kind === 'slot-conflict' ? '' : values.time }, refusal: { fields, others },
        status: problem.kind === 'slot-conflict' ? 409 : 400 })
      }
    })
    done()
  })
}

/** The page's language: the guest's choice (`?lang=`), else the browser's first the service speaks, else the club's. */
function languageOf(request: FastifyRequest, fallback: GuestLanguage): GuestLanguage {
  return chosenLanguage(request.query) ?? preferredLanguage(request.headers['accept-language']) ?? fallback
}

function unknownClub(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).headers(bookingPageHeaders([])).send(renderUnknownClubPage(languageOf(request, 'en')))
}

function valuesOf(body: unknown): FormValues {
  return { time: field(body, 'time'), slots: field(body, 'slots') || '1', name: field(body, 'name'), email: field(body, 'email'),
    notes: field(body, 'notes') }
}

/** `?date=YYYY-MM-DD&court=<uuid>`: the day the widget starts on and the one court it offers; anything else is ignored. */
function startOf(query: unknown): { date?: string, court?: string } {
  const date = field(query, 'date')
  const court = field(query, 'court')
  return { ...isDate(date) ? { date } : {}, ...isUuid(court) ? { court } : {} }
}

function startDate(request: FastifyRequest): string | undefined {
  return startOf(request.query).date
}

/**
 * The time a waiting list mail's link (`?wait=`) names, while its entry is open and of this club:
 * the day and court to show, the time to choose, and the entry's name and address to fill in.
 */
async function waitedFor(context: AppContext, request: FastifyRequest, club: Club):
Promise<{ date: string, start: NonNullable<BookingPageView['start']>, values: Partial<FormValues> } | undefined> {
  const token = field(request.query, 'wait')
  if (token === '') return undefined
  const found = await waitingOfLink(context.db, context.clock, token)
  if (found === undefined || found.state !== 'waiting' || found.entry.clubId !== club.id) return undefined
  const { entry } = found
  const start = new Date(entry.start).toISOString()
  const date = localDateOf(entry.start, club.timezone)
  return { date, start: { date, court: entry.courtId, time: start, name: entry.name, email: entry.email },
    values: { name: entry.name, email: entry.email } }
}

/** Each active court's free times that can be booked now, and whether each could still be cancelled online once booked. */
function offeredCourts(read: Awaited<ReturnType<typeof courtDay>>, deadlineMinutes: number, now: number): OfferedCourt[] {
  const courts = new Map<string, OfferedCourt & { times: OfferedCourt['times'][number][] }>()
  for (const window of read.windows) {
    const name = read.slots.find((slot) => slot.court_id === window.court_id)?.court_name ?? ''
    courts.set(window.court_id, { id: window.court_id, name, maxSlots: window.max_slots_per_booking, times: [] })
  }
  for (const slot of read.slots) {
    const window = read.windows.find((entry) => entry.court_id === slot.court_id)
    const start = Date.parse(slot.start_time)
    if (slot.status !== 'available' || window?.earliest_start == null || window.latest_start == null) continue
    if (start < Date.parse(window.earliest_start) || start > Date.parse(window.latest_start)) continue
    courts.get(slot.court_id)?.times.push({ courtId: slot.court_id, start: slot.start_time, end: slot.end_time,
      late: start - deadlineMinutes * MINUTE <= now })
  }
  return [...courts.values()]
}

/** The club's cancellation policy in the guest's words. */
function policyText(language: GuestLanguage, minutes: number): string {
  if (minutes === 0) return bookingPageText(language, 'policyStart')
  return minutes % 60 === 0
    ? bookingPageText(language, 'policyHours', { count: minutes / 60 })
    : bookingPageText(language, 'policyMinutes', { count: minutes })
}

/** How the club is reached for what cannot be done online: its phone number and address, as it has them. */
function contactText(language: GuestLanguage, ways: readonly (string | null)[]): string {
  const known = ways.filter((way) => way !== null && way !== '')
  return known.length === 0
    ? bookingPageText(language, 'contactClubAlone')
    : bookingPageText(language, 'contactClub', { contact: known.join(' · ') })
}
