/**
 * The waiting list (docs/waiting-list.md): the public endpoint on which a guest asks to be told when
 * a taken slot frees (CORS, the booking endpoint's per-client limit, and its answers:
 * `invalid-booking` for every refusal), and the page of an entry's stop link at /waiting-list/{token}
 * (GET shows it, its form POSTs the stop, then 303 back to it). Unknown, malformed and past links are
 * one 404 page; the token is redacted from logs (src/http/redaction.ts) and the page sends no Referer.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { preferredLanguage } from '../domain/languages.js'
import { formatInZone } from '../domain/zoned-time.js'
import { idempotencyKeyOf } from '../http/idempotency-key.js'
import { header, jsonResponse, problemResponse, RETRY_AFTER_HEADER } from '../http/responses.js'
import { chosenLanguage, languageOf, PAGE_HEADERS } from '../pages/manage-booking.js'
import type { PageView } from '../pages/manage-booking.js'
import { renderWaitingNotFound, renderWaitingPage } from '../pages/waiting-list.js'
import { Reference } from '../schemas/common.js'
import { ClubSlugParams } from '../schemas/court.js'
import { WaitingCreated, WaitingRequest } from '../schemas/waiting-list.js'
import { bookingSettings } from '../services/bookings.js'
import { bookingPageUrl } from '../services/guest-links.js'
import { joinWaitingList, stopWaiting, waitingOfLink } from '../services/waiting-list.js'
import type { LinkedWaiting } from '../services/waiting-list.js'
import type { ClubLookup } from '../speed/club-lookup.js'
import { bookingErrorHandler, CORS_HEADERS, PUBLIC_BODY_PROBLEMS, PUBLIC_PREFIX, PUBLIC_PROBLEM_HEADERS, sharedPublicProblems } from './public-scope.js'

const WAIT_PATH = `${PUBLIC_PREFIX}/tc-riverside/courts/waitlist`

/** Waiting for a taken slot: inside the public endpoints' scope (their CORS), limited per client with the booking endpoint. */
export function registerWaiting(scope: FastifyInstance, context: AppContext, clubOf: ClubLookup): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
  typed.post('/:clubSlug/courts/waitlist', {
    config: { access: { public: true } },
    onRequest: context.publicLimits.booking.hook(),
    errorHandler: bookingErrorHandler,
    schema: {
      operationId: 'joinWaitingList',
      summary: 'Wait for a taken slot',
      description: 'Puts an address on the waiting list for one slot that is booked, reserved or blocked now and starts within '
        + 'the court\'s booking window, and mails it so, with a link that stops the mails. When the slot frees (a cancellation, '
        + 'a move, a block or reservation removed), every address waiting for it is mailed at once with a link to book it: '
        + 'whoever books first gets it. An address that waits for the slot already is answered alike and not mailed again. '
        + 'The address meets the limits a booking\'s does, and the client the booking endpoint\'s rate limit. The mails are '
        + 'written in the first language of `Accept-Language` the service speaks, else in the club\'s. See docs/waiting-list.md.',
      tags: ['Courts (public)'],
      security: [],
      params: ClubSlugParams,
      headers: Type.Object({
        'idempotency-key': Type.Optional(Type.String({ description: 'Accepted as on the booking endpoint (1–255 printable ASCII '
          + 'characters; a malformed one is `invalid-booking`), for a form that sends one with every attempt. Asking again for '
          + 'the same time is answered alike with or without it: the address waits once and is mailed once.',
        examples: ['5f0c6a52-7d1e-4b9a-8c3f-2e6d9b1a4c70'] })),
        'accept-language': Type.Optional(Type.String({ description: 'The guest\'s languages: the mails\' and the refusals\' '
          + 'language is the first of them the service speaks; without one, the mails are written in the club\'s and the refusals '
          + 'in English.', examples: ['de-AT, de;q=0.9'] })) }),
      body: Reference(WaitingRequest),
      response: {
        201: jsonResponse('The address waits for the slot.', Reference(WaitingCreated), { ...CORS_HEADERS,
          'idempotent-replayed': header(Type.Literal('true', { description: 'Present only when the address waited for the slot '
            + 'already: nothing new was written or mailed.', examples: ['true'] })) }),
        400: problemResponse('`invalid-booking`: the club has no waiting list, the slot is free (book it), the times are no slot '
          + 'of an active court within its booking window, or the address cannot wait for another time now (detail says which, '
          + 'without telling one limit from another).', PUBLIC_PROBLEM_HEADERS, [
          { kind: 'invalid-booking', instance: WAIT_PATH, detail: 'This time on Court 1 is free: book it instead of waiting for it.',
            invalidParams: [{ name: 'start_time', code: 'slot_free',
              reason: 'This time on Court 1 is free: book it instead of waiting for it.' }] },
          { kind: 'invalid-booking', instance: WAIT_PATH, detail: 'This e-mail address cannot wait for another time now.',
            invalidParams: [{ name: 'email', code: 'address_cannot_wait',
              reason: 'This e-mail address cannot wait for another time now.' }] },
        ]),
        ...sharedPublicProblems('/courts/waitlist'),
        ...PUBLIC_BODY_PROBLEMS,
        429: problemResponse('Too many requests from this client (shared with booking).', { ...RETRY_AFTER_HEADER, ...PUBLIC_PROBLEM_HEADERS },
          [{ kind: 'rate-limited', instance: WAIT_PATH, detail: 'Too many attempts. Please try again in 6 seconds.' }]),
      },
    },
  }, async (request, reply) => {
    idempotencyKeyOf(request)
    const club = await clubOf(request.params.clubSlug)
    const language = preferredLanguage(request.headers['accept-language'])
    const { body } = request
    const outcome = await joinWaitingList(context.db, context.clock, bookingSettings(context), club,
      language === undefined ? body : { ...body, language })
    if (!outcome.created) void reply.header('idempotent-replayed', 'true')
    const at = (time: string) => formatInZone(Date.parse(time), club.timezone)
    return reply.code(201).send({ success: true, court_id: body.court_id.toLowerCase(), start_time: at(body.start_time),
      end_time: at(body.end_time) })
  })
}

export const WAITING_PREFIX = '/waiting-list'

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) })

/** The page in the guest's choice of language (`?lang=`), else the entry's, else the browser's. */
function viewOf(request: FastifyRequest, token: string, found: LinkedWaiting | undefined): PageView {
  const language = languageOf(request.query, found?.entry.language ?? preferredLanguage(request.headers['accept-language']) ?? 'en')
  return { language, languageHref: (other) => `${WAITING_PREFIX}/${token}?lang=${other}` }
}

/** The stop link's page: GET shows the entry, POST ends it (then 303 back to the page, which says so). */
export async function waitingListPages(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register((scope, _options, done) => {
    // The stop form posts an empty body, a mail program's one-click stop (RFC 8058) `List-Unsubscribe=One-Click` as either
    // form encoding; nothing in it is read.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
      scope.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, next) => {
        next(null, {})
      })
    }
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
    // Pages, not API operations: outside the API descriptions.
    const schema = { hide: true, params: TokenParams }
    const config = { access: { public: true } } as const
    const page = (request: FastifyRequest, token: string, found: LinkedWaiting | undefined, justStopped: boolean) => {
      const view = viewOf(request, token, found)
      if (found === undefined) return { status: 404, html: renderWaitingNotFound(view) }
      const chosen = chosenLanguage(request.query)
      const bookingPageHref = new URL(bookingPageUrl(context.config.publicUrl, found.entry.clubSlug)).pathname
        + (chosen === undefined ? '' : `?lang=${chosen}`)
      return { status: 200, html: renderWaitingPage(found, view, { justStopped, bookingPageHref }) }
    }

    typed.get(`${WAITING_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.listing.hook() }, async (request, reply) => {
      const { token } = request.params
      const found = await waitingOfLink(context.db, context.clock, token)
      const justStopped = typeof request.query === 'object' && request.query !== null && 'stopped' in request.query
      const { status, html } = page(request, token, found, justStopped && found?.state === 'stopped')
      return reply.code(status).headers(PAGE_HEADERS).send(html)
    })

    typed.post(`${WAITING_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.booking.hook() },
      async (request, reply) => {
        const { token } = request.params
        const found = await stopWaiting(context.db, context.clock, token)
        if (found === undefined) {
          const { status, html } = page(request, token, found, false)
          return reply.code(status).headers(PAGE_HEADERS).send(html)
        }
        const chosen = chosenLanguage(request.query)
        return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
          .redirect(`${WAITING_PREFIX}/${token}?${chosen === undefined ? '' : `lang=${chosen}&`}stopped=1`, 303)
      })
    done()
  })
}
