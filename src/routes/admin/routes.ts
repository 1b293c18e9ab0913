/**
 * Every route of the dashboard API, in the order its OpenAPI document lists them: the server
 * registers them (src/app.ts), and so does the document's own instance (./openapi.ts), so that the
 * document describes exactly the routes served.
 */
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.js'
import type { WidgetBuild } from '../../http/widget.js'
import { accountRoutes } from './account.js'
import { bookingRoutes } from './bookings.js'
import { calendarFeedRoutes } from './calendar-feeds.js'
import { utilisationRoutes } from './utilisation.js'
import { clubRoutes } from './club.js'
import { contentRoutes } from './content.js'
import { courtRoutes } from './courts.js'
import { plannerRoutes } from './planner.js'
import { seriesRoutes } from './series.js'
import { webhookRoutes } from './webhooks.js'
import { websiteRoutes } from './website.js'

export function adminRoutes(app: FastifyInstance, context: AppContext, widget: WidgetBuild | undefined): void {
  accountRoutes(app, context)
  clubRoutes(app, context)
  bookingRoutes(app, context)
  courtRoutes(app, context)
  plannerRoutes(app, context)
  seriesRoutes(app, context)
  contentRoutes(app, context)
  websiteRoutes(app, context, widget)
  webhookRoutes(app, context)
  calendarFeedRoutes(app, context)
  utilisationRoutes(app, context)
}
