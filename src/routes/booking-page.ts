/**
 * The hosted booking page /book/{club} (src/pages/booking-page.ts): the booking widget on a page of
 * the service, framed only by the club's own websites. An unknown club is a 404 page.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../context.js'
import { bookingRulesOf } from '../services/bookings.js'
import { findClubBySlug } from '../services/clubs.js'
import { ProblemError } from '../http/problems.js'
import type { WidgetBuild } from '../http/widget.js'
import { bookingPageHeaders, renderBookingPage, renderUnknownClubPage } from '../pages/booking-page.js'
import { chosenLanguage } from '../pages/manage-booking.js'
import { preferredLanguage } from '../domain/languages.js'
import { websitesOf } from '../services/club-websites.js'

const ClubParams = Type.Object({ clubSlug: Type.String({ maxLength: 63 }) })

/** `?date=YYYY-MM-DD&court=<uuid>`: the day the widget starts on and the one court it offers; anything else is ignored. */
function startOf(query: unknown): { date?: string, court?: string } {
  const value = (name: string) => typeof query === 'object' && query !== null && name in query
    ? (query as Record<string, unknown>)[name]
    : undefined
  const date = value('date')
  const court = value('court')
  return {
    ...typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? { date } : {},
    ...typeof court === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(court) ? { court } : {},
  }
}

export function bookingPageRoutes(app: FastifyInstance, context: AppContext, widget: WidgetBuild | undefined): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>()
  // A page, not an API operation: outside the API descriptions.
  typed.get('/book/:clubSlug', { config: { access: { public: true } }, schema: { hide: true, params: ClubParams },
    onRequest: context.publicLimits.listing.hook() }, async (request, reply) => {
    // The guest's choice (?lang=), else the browser's first language the service speaks, else the club's.
    const asked = chosenLanguage(request.query) ?? preferredLanguage(request.headers['accept-language'])
    const club = await findClubBySlug(context.db, request.params.clubSlug)
    if (club === undefined) return reply.code(404).headers(bookingPageHeaders([])).send(renderUnknownClubPage(asked ?? 'en'))
    const language = asked ?? (await bookingRulesOf(context.db, club.id)).language
    if (widget === undefined) {
      throw new ProblemError('not-found', 'The booking widget has not been built on this installation; run `npm run build`.')
    }
    const origins = await websitesOf(context.db, club.id)
    return reply.headers(bookingPageHeaders(origins)).send(renderBookingPage({ club, language,
      script: { path: widget.pinnedPath, integrity: widget.integrity }, frameAncestors: origins, start: startOf(request.query) }))
  })
}
