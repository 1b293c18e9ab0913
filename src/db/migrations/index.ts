import type { Migration } from 'kysely'
import * as initial from './0001-initial.js'
import * as courts from './0002-courts.js'
import * as keyLimits from './0003-key-limits.js'
import * as changeTracking from './0004-change-tracking.js'
import * as courtNames from './0005-court-names.js'
import * as addressLimits from './0006-address-limits.js'
import * as dashboard from './0007-dashboard.js'
import * as bookingLifecycle from './0008-booking-lifecycle.js'
import * as clubWebsites from './0009-club-websites.js'
import * as contentEditing from './0010-content-editing.js'
import * as webhooks from './0011-webhooks.js'
import * as keyChangeTracking from './0012-key-change-tracking.js'
import * as invitationLimits from './0013-invitation-limits.js'
import * as auditNames from './0014-audit-names.js'
import * as historyBounds from './0015-history-bounds.js'
import * as jobRuns from './0016-job-runs.js'
import * as bookingMoves from './0017-booking-moves.js'
import * as bookingSeries from './0018-booking-series.js'
import * as accessChangeTracking from './0019-access-change-tracking.js'
import * as guestLanguage from './0020-guest-language.js'
import * as calendarFeeds from './0021-calendar-feeds.js'
import * as waitingList from './0022-waiting-list.js'
import * as guestPages from './0023-guest-pages.js'

/** Every migration, in order. Names are permanent: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-courts': courts,
  '0003-key-limits': keyLimits,
  '0004-change-tracking': changeTracking,
  '0005-court-names': courtNames,
  '0006-address-limits': addressLimits,
  '0007-dashboard': dashboard,
  '0008-booking-lifecycle': bookingLifecycle,
  '0009-club-websites': clubWebsites,
  '0010-content-editing': contentEditing,
  '0011-webhooks': webhooks,
  '0012-key-change-tracking': keyChangeTracking,
  '0013-invitation-limits': invitationLimits,
  '0014-audit-names': auditNames,
  '0015-history-bounds': historyBounds,
  '0016-job-runs': jobRuns,
  '0017-booking-moves': bookingMoves,
  '0018-booking-series': bookingSeries,
  '0019-access-change-tracking': accessChangeTracking,
  '0020-guest-language': guestLanguage,
  '0021-calendar-feeds': calendarFeeds,
  '0022-waiting-list': waitingList,
  '0023-guest-pages': guestPages,
}
