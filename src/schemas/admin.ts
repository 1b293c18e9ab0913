/** The dashboard API's bodies (docs/dashboard.md): one schema each, named under components.schemas. */
import { CONTENT_SCHEMAS } from './content.js'
import { WEBHOOK_ADMIN_SCHEMAS } from './webhooks.js'
import { CALENDAR_FEED_SCHEMAS } from './admin/calendar-feeds.js'
import { UTILISATION_SCHEMAS } from './admin/utilisation.js'
import { Accepted, ClubMembership, LinkDescription, Me, Passkey, PasskeyAssertion, PasskeyList, PasskeyOptions,
  PasskeyRegistration, Session, SessionList, SignInLinkRequest, TokenRequest } from './admin/account.js'
import { BookingCancel, BookingMove, StaffBookingCreate,
  BookingRules, BookingSearch, ClubBooking, ClubBookingList, Erasure, PersonalDataExport,
  PersonalDataRequest } from './admin/bookings.js'
import { AdminCourt, AdminCourtList, AdminHold, AdminHoldList, CourtChanged, CourtSave, CourtWeek, DisplacedBookingList,
  HoldChanged, HoldSave } from './admin/courts.js'
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyList, AuditEntry, AuditList, Invitation, InvitationCreate, RoleChange, Team,
  TeamMember } from './admin/team.js'
import { ClubWebsite, ClubWebsiteChange } from './admin/website.js'
import { PlannerDay } from './admin/planner.js'
import { SeriesCancel, SeriesCancelled, SeriesCreate, SeriesCreated, SeriesPreview, SeriesRequest } from './admin/series.js'

export * from './admin/account.js'
export * from './admin/bookings.js'
export * from './admin/calendar-feeds.js'
export * from './admin/courts.js'
export * from './admin/planner.js'
export * from './admin/series.js'
export { ClubParams } from './admin/fields.js'
export * from './admin/team.js'
export * from './admin/utilisation.js'
export * from './admin/website.js'

export const ADMIN_SCHEMAS = [...CONTENT_SCHEMAS, ...WEBHOOK_ADMIN_SCHEMAS, ...CALENDAR_FEED_SCHEMAS, ...UTILISATION_SCHEMAS,
  ClubWebsite,
  ClubWebsiteChange,
  AdminCourt, CourtChanged, AdminCourtList, CourtSave, AdminHold, HoldChanged, AdminHoldList, HoldSave, DisplacedBookingList,
  CourtWeek, PlannerDay, SeriesRequest, SeriesCreate, SeriesPreview, SeriesCreated, SeriesCancel, SeriesCancelled,
  BookingSearch, BookingRules, ClubBooking, ClubBookingList, BookingCancel, BookingMove, StaffBookingCreate,
  PersonalDataRequest, PersonalDataExport,
  Erasure, SignInLinkRequest, Accepted, TokenRequest, ClubMembership, Me, Session, SessionList, ApiKey,
  LinkDescription, ApiKeyList, ApiKeyCreate, ApiKeyCreated, TeamMember, Invitation, Team, InvitationCreate, RoleChange,
  AuditEntry, AuditList,
  PasskeyOptions, PasskeyRegistration, PasskeyAssertion, Passkey, PasskeyList]
