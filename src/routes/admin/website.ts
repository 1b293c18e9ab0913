/**
 * The club's website in the dashboard API: the snippets' addresses (the widget's, its pinned build
 * with its integrity, the hosted booking page) and the club's websites, the only pages that may
 * frame that page. Changed through src/services/club-websites.ts, as the command line does.
 */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import { InvalidInput } from '../../domain/errors.js'
import { memberOf } from '../../http/dashboard-access.js'
import { ProblemError } from '../../http/problems.js'
import { jsonResponse } from '../../http/responses.js'
import { WIDGET_PATH } from '../../http/widget.js'
import type { WidgetBuild } from '../../http/widget.js'
import { Reference } from '../../schemas/common.js'
import { ClubParams, ClubWebsite, ClubWebsiteChange } from '../../schemas/admin.js'
import { setWebsites, websitesOf } from '../../services/club-websites.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf } from './common.js'

export function websiteRoutes(parent: FastifyInstance, context: AppContext, widget: WidgetBuild | undefined): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const at = (path: string) => new URL(path, context.config.publicUrl).href
  const body = (slug: string, websites: string[]): ClubWebsite => ({
    websites, booking_page_url: at(`book/${encodeURIComponent(slug)}`),
    widget: { script_url: at(WIDGET_PATH.slice(1)), pinned_url: widget === undefined ? null : at(widget.pinnedPath.slice(1)),
      integrity: widget?.integrity ?? null },
  })

  app.get(`${CLUB}/website`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'getWebsite', summary: 'Booking on the club\'s website', tags: ['Website'],
      description: 'The addresses the widget and iframe snippets need, and the club\'s websites.',
      params: ClubParams,
      response: { 200: jsonResponse('The club\'s website settings.', Reference(ClubWebsite)), 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const { clubId, clubSlug } = memberOf(request).membership
    return body(clubSlug, await websitesOf(context.db, clubId))
  })

  app.put(`${CLUB}/website`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'setWebsites', summary: 'Set the club\'s websites', tags: ['Website'],
      description: 'The only pages that may frame the hosted booking page (its frame-ancestors), besides the dashboard.',
      params: ClubParams,
      body: Reference(ClubWebsiteChange),
      response: { 200: jsonResponse('The club\'s website settings.', Reference(ClubWebsite)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const { clubId, clubSlug } = memberOf(request).membership
    try {
      return body(clubSlug, await setWebsites(context.db, context.clock, { clubId, websites: request.body.websites,
        actor: actorOf(request) }))
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error
      throw new ProblemError('validation-error', `Field "websites": ${error.message}.`, {}, [{ name: 'websites', reason: error.message }])
    }
  })
}
