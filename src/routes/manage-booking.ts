/**
 * The guest's booking page at /bookings/manage/{token} (src/pages/manage-booking.ts). GET shows
 * the booking and never changes it — mail scanners open links; only the page's own form, a POST,
 * cancels. After a cancellation the browser is sent back to the page (303), so reloading it does
 * not post again; a second POST changes nothing anyway. Unknown, malformed and expired links are
 * one 404 page; a cancellation after the club's deadline is refused with a 409 page saying until
 * when it was possible. The token is a secret: it is redacted from logs (src/http/redaction.ts),
 * and the page sends no Referer.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { LANGUAGES, languageOf, PAGE_HEADERS, renderBookingPage, renderNotFoundPage } from '../pages/manage-booking.js'
import type { Language, PageView } from '../pages/manage-booking.js'
import { bookingOfLink, cancelByGuest } from '../services/booking-cancellation.js'

export const MANAGE_PREFIX = '/bookings/manage'

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) })

/** The page's address, in the language asked for when one was chosen (`?lang=`), with extra query parameters. */
function pageHref(token: string, language: Language | undefined, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...language === undefined ? {} : { lang: language }, ...extra }).toString()
  return `${MANAGE_PREFIX}/${token}${query === '' ? '' : `?${query}`}`
}

function chosenLanguage(query: unknown): Language | undefined {
  const lang = typeof query === 'object' && query !== null && 'lang' in query ? query.lang : undefined
  return LANGUAGES.find((language) => language === lang)
}

function viewOf(request: FastifyRequest, token: string): PageView {
  const language = languageOf(request.query, request.headers['accept-language'])
  return { language, switchHref: pageHref(token, language === 'en' ? 'de' : 'en') }
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html)
}

export async function manageBookingRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register((scope, _options, done) => {
    // The page's form posts an empty urlencoded body; nothing in it is read.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => {
      done(null, {})
    })
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>()
    // Pages, not API operations: outside the API descriptions.
    const schema = { hide: true, params: TokenParams }
    const config = { access: { public: true } } as const

    typed.get(`${MANAGE_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.listing.hook() }, async (request, reply) => {
      const { token } = request.params
      const view = viewOf(request, token)
      const found = await bookingOfLink(context.db, context.clock, token)
      if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(view))
      const justCancelled = typeof request.query === 'object' && request.query !== null && 'cancelled' in request.query
        && found.booking.cancelledBy === 'guest'
      return sendPage(reply, 200, renderBookingPage(found, view, justCancelled))
    })

    typed.post(`${MANAGE_PREFIX}/:token`, { config, schema, onRequest: context.publicLimits.booking.hook() }, async (request, reply) => {
      const { token } = request.params
      const view = viewOf(request, token)
      const found = await cancelByGuest(context.db, context.clock, { mailFrom: context.config.mail.from }, token)
      if (found === undefined) return sendPage(reply, 404, renderNotFoundPage(view))
      if (found.state === 'too-late') return sendPage(reply, 409, renderBookingPage(found, view, false))
      return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .redirect(pageHref(token, chosenLanguage(request.query), { cancelled: '1' }), 303)
    })
    done()
  })
}
