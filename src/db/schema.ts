import type { ColumnType, Generated } from 'kysely'

/**
 * Table types. Timestamps are `timestamptz` on PostgreSQL (read back as Date) and canonical
 * ISO-8601 UTC text on SQLite (read back as string); both are written as ISO strings.
 * Booleans are `boolean` on PostgreSQL and 0/1 on SQLite (see dialect.ts).
 */
export type Timestamp = ColumnType<Date | string, string, string>
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>
export type Bool = ColumnType<boolean | number, boolean, boolean>

export interface ClubsTable {
  id: string
  slug: string
  name: string
  timezone: string
  cancellation_deadline_minutes: Generated<number>
  booking_retention_days: Generated<number>
  privacy_url: string | null
  max_open_bookings_per_email: number | null
  guests_may_book: ColumnType<boolean | number, boolean | undefined, boolean>
  /** JSON array of the origins that may frame the club's hosted booking page. */
  website_origins: Generated<string>
  created_at: Timestamp
  /** The guests' language when their browser names none the service speaks (src/domain/languages.ts). */
  language: Generated<string>
  /** Where guests' replies go (Reply-To of the booking mails); null: the service's sender only. */
  contact_email: string | null
  /** The club's phone number and postal address as guests read them; null: none. */
  contact_phone: string | null
  address: string | null
  /** False when the club has switched its waiting list off (docs/waiting-list.md). */
  waiting_list: ColumnType<boolean | number, boolean | undefined, boolean>
}

/** Members' names and e-mails are sensitive: no endpoint of the read API selects them. */
export interface MembersTable {
  id: string
  club_id: string
  name: string
  email: string
  /** 1 when written first, one more with every change: an edit names the version it started from. */
  version: Generated<number>
  created_at: Timestamp
}

export interface GroupsTable {
  id: string
  club_id: string
  name: string
  sport: string
  age_min: number | null
  age_max: number | null
  level: string | null
  description: string | null
  active: Bool
  /** 1 when written first, one more with every change: an edit names the version it started from. */
  version: Generated<number>
  created_at: Timestamp
}

export interface EventsTable {
  id: string
  club_id: string
  group_id: string | null
  title: string
  starts_at: Timestamp
  ends_at: NullableTimestamp
  location: string | null
  public_booking: Bool
  /** 1 when written first, one more with every change: an edit names the version it started from. */
  version: Generated<number>
  created_at: Timestamp
}

export interface NewsTable {
  id: string
  club_id: string
  group_id: string | null
  title: string
  content: string
  /** null: a draft. A future value: scheduled, listed from that instant on. */
  published_at: NullableTimestamp
  created_by: string | null
  /** 1 when written first, one more with every change: an edit names the version it started from. */
  version: Generated<number>
  created_at: Timestamp
}

export interface CompetitionResultsTable {
  id: string
  club_id: string
  member_id: string
  group_id: string
  competition_name: string
  discipline: string | null
  placement: string | null
  points: number | null
  /** YYYY-MM-DD on both databases (PostgreSQL `date` is read back as text). */
  competition_date: string | null
  /** 1 when written first, one more with every change: an edit names the version it started from. */
  version: Generated<number>
  created_at: Timestamp
}

export interface ApiKeysTable {
  id: string
  club_id: string
  name: string
  /** The first characters of the key, enough to recognise it in a list; never enough to use it. */
  display_prefix: string
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secret_hash: string
  /** Space-separated scopes. */
  scopes: string
  expires_at: NullableTimestamp
  created_at: Timestamp
  last_used_at: NullableTimestamp
  revoked_at: NullableTimestamp
  /** Overrides of the configured rate limits for this key; null: the default. */
  rate_capacity: number | null
  rate_per_minute: number | null
  daily_quota: number | null
}

export interface CourtsTable {
  id: string
  club_id: string
  name: string
  /** courtNameKey(name) (src/domain/court.ts): unique per club, so no two courts share a name up to case and spacing. */
  name_key: string
  sport: string
  active: Bool
  slot_minutes: number
  /** JSON: OpeningHours (src/domain/slots.ts). */
  opening_hours: string
  booking_horizon_days: number
  max_slots_per_booking: number
  created_at: Timestamp
}

export interface CourtHoldsTable {
  id: string
  club_id: string
  court_id: string
  kind: 'block' | 'reservation'
  reason: string | null
  starts_at: NullableTimestamp
  ends_at: NullableTimestamp
  weekday: number | null
  start_time: string | null
  end_time: string | null
  valid_from: string | null
  valid_until: string | null
  created_at: Timestamp
}

export interface BookingsTable {
  id: string
  club_id: string
  court_id: string
  starts_at: Timestamp
  ends_at: Timestamp
  booker_name: string
  booker_email: string
  member_id: string | null
  notes: string | null
  created_at: Timestamp
  status: Generated<BookingStatus>
  cancelled_at: Timestamp | null
  cancelled_by: CancelledBy | null
  cancel_reason: string | null
  manage_token_hash: string | null
  anonymised_at: Timestamp | null
  /** Changes of the booking's calendar event since its confirmation (0): each move and the cancellation raise it. */
  calendar_sequence: Generated<number>
  series_id: string | null
  /** The language the booking was made in (src/domain/languages.ts): its mails are written in it. */
  language: Generated<string>
}

/** An address waiting for a taken slot of a court (docs/waiting-list.md): open while `ended_at` is null and the slot is ahead. */
export interface WaitingListEntriesTable {
  id: string
  club_id: string
  court_id: string
  starts_at: Timestamp
  ends_at: Timestamp
  name: string
  email: string
  language: string
  /** The stop link's token, which every mail about the entry carries; it ends this entry's mails and nothing else. */
  stop_token: string
  stop_token_hash: string
  /** How many mails have said the slot is free. */
  notified: Generated<number>
  created_at: Timestamp
  ended_at: NullableTimestamp
  end_reason: WaitingEndReason | null
}

/** Why a waiting list entry ended before its slot started: its stop link, or the address booked the slot. */
export type WaitingEndReason = 'stopped' | 'booked'

/** A weekly booking of one court at one local time, first date to last; its bookings name it (bookings.series_id). */
export interface BookingSeriesTable {
  id: string
  club_id: string
  court_id: string
  /** HH:MM club-local; first_date and last_date YYYY-MM-DD. */
  start_time: string
  end_time: string
  first_date: string
  last_date: string
  created_at: Timestamp
}

export type BookingStatus = 'confirmed' | 'cancelled'
/** Who cancelled a booking: the guest (manage link), the club (dashboard or command line), or a hold laid over it. */
export type CancelledBy = 'guest' | 'club' | 'hold'

export interface BookingRequestsTable {
  club_id: string
  /** The SHA-256 (hex) of the Idempotency-Key the client sent. */
  idempotency_key: string
  request_hash: string
  booking_id: string
  /** The booking's manage token, sealed under the client's key (src/domain/secret-token.ts); null: none kept. */
  manage_token_sealed: string | null
  created_at: Timestamp
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed'

export interface MailOutboxTable {
  id: string
  /** Null for mail that belongs to no club (sign-in links). */
  club_id: string | null
  booking_id: string | null
  message_id: string
  recipient_name: string
  recipient_email: string
  subject: string
  text_body: string
  html_body: string
  ics: string | null
  /** The From display name (a club's name) and Reply-To; null: the service's MAIL_FROM as it is, no Reply-To. */
  sender_name: string | null
  reply_to: string | null
  /** A one-click stop link (RFC 8058) sent as List-Unsubscribe; null: none. */
  unsubscribe_url: string | null
  status: MailStatus
  attempts: number
  next_attempt_at: Timestamp
  locked_until: NullableTimestamp
  last_error: string | null
  created_at: Timestamp
  sent_at: NullableTimestamp
}

export interface WebhookEndpointsTable {
  id: string
  club_id: string
  url: string
  description: string
  /** A JSON array of event types. */
  event_types: string
  enabled: Bool
  disabled_reason: 'gone' | 'failing' | null
  secret: string
  previous_secret: string | null
  previous_secret_until: NullableTimestamp
  failing_since: NullableTimestamp
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WebhookMessagesTable {
  id: string
  club_id: string
  type: string
  subject_id: string | null
  payload: string
  created_at: Timestamp
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed'
export type WebhookTrigger = 'event' | 'test' | 'replay'

export interface WebhookDeliveriesTable {
  id: string
  message_id: string
  endpoint_id: string
  club_id: string
  trigger: WebhookTrigger
  status: WebhookDeliveryStatus
  attempts: number
  next_attempt_at: Timestamp
  locked_until: NullableTimestamp
  last_attempt_at: NullableTimestamp
  response_status: number | null
  response_body: string | null
  latency_ms: number | null
  last_error: string | null
  created_at: Timestamp
  finished_at: NullableTimestamp
}

// The dashboard's tables (its people, sessions and passkeys, the audit log, calendar feeds) are in schema-dashboard.ts.
export type { AdminRole, AdminInvitationsTable, AdminSessionsTable, AdminsTable, AuditLogTable, CalendarFeedsTable,
  ClubAdminsTable, PasskeysTable, SignInLinksTable, SignInMethod, WebauthnChallengesTable } from './schema-dashboard.js'
import type { AdminInvitationsTable, AdminSessionsTable, AdminsTable, AuditLogTable, CalendarFeedsTable, ClubAdminsTable,
  PasskeysTable, SignInLinksTable, WebauthnChallengesTable } from './schema-dashboard.js'

/** A periodic job's lease and its last run (migration 0016). */
export interface JobRunsTable {
  name: string
  holder: string | null
  lease_until: NullableTimestamp
  last_started_at: NullableTimestamp
  last_finished_at: NullableTimestamp
  last_duration_ms: number | null
  last_rows: number | null
}

export interface Database {
  clubs: ClubsTable
  members: MembersTable
  groups: GroupsTable
  events: EventsTable
  news: NewsTable
  competition_results: CompetitionResultsTable
  api_keys: ApiKeysTable
  courts: CourtsTable
  court_holds: CourtHoldsTable
  bookings: BookingsTable
  booking_series: BookingSeriesTable
  booking_requests: BookingRequestsTable
  mail_outbox: MailOutboxTable
  job_runs: JobRunsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_messages: WebhookMessagesTable
  webhook_deliveries: WebhookDeliveriesTable
  admins: AdminsTable
  club_admins: ClubAdminsTable
  admin_invitations: AdminInvitationsTable
  sign_in_links: SignInLinksTable
  admin_sessions: AdminSessionsTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  audit_log: AuditLogTable
  calendar_feeds: CalendarFeedsTable
  waiting_list_entries: WaitingListEntriesTable
}
