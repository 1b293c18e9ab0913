/** The dashboard API's bodies (docs/dashboard.md): one schema each, named under components.schemas. */
import { Type } from '@sinclair/typebox'
import type { Static, TProperties } from '@sinclair/typebox'
import { ADMIN_ROLES } from '../domain/admin-roles.js'
import { SCOPES } from '../domain/scopes.js'
import { SLOT_LENGTHS } from '../domain/court.js'
import { WEEKDAYS } from '../domain/slots.js'
import { Nullable, Reference, Uuid } from './common.js'
import { CONTENT_SCHEMAS } from './content.js'
import { WEBHOOK_ADMIN_SCHEMAS } from './webhooks.js'
import { ClockTime, DayHours, Text, WeekdayName } from './import.js'

const Role = () => Type.Union(ADMIN_ROLES.map((role) => Type.Literal(role)), {
  description: 'owner: everything, including the team and ownership; admin: everything but the team; editor: the club\'s '
    + 'groups, events, news, competition results and members only (docs/dashboard.md).',
})
const Instant = (description: string) => Type.String({ format: 'date-time', description })
const Email = () => Type.String({ minLength: 3, maxLength: 254, description: 'An e-mail address.' })

export const SignInLinkRequest = Type.Object({ email: Email() }, {
  $id: 'SignInLinkRequest', additionalProperties: false, description: 'The address to send a sign-in link to.',
})
export type SignInLinkRequest = Static<typeof SignInLinkRequest>

export const Accepted = Type.Object({ message: Type.String() }, {
  $id: 'Accepted', additionalProperties: false, description: 'The request was taken; what happens next.',
})
export type Accepted = Static<typeof Accepted>

export const TokenRequest = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link (the part after `#token=`).' }),
}, { $id: 'TokenRequest', additionalProperties: false, description: 'A single-use token from a sign-in link or invitation.' })
export type TokenRequest = Static<typeof TokenRequest>

export const LinkDescription = Type.Object({
  email: Type.String({ description: 'The address the link was sent to: the person it signs in.' }),
  expires_at: Instant('Until when the link works.'),
  club: Type.Union([Type.Object({ name: Type.String(), role: Role() }, { additionalProperties: false }), Type.Null()],
    { description: 'An invitation: the club it is to, and the role it gives. A sign-in link: null.' }),
  clubs: Type.Array(Type.String(), { description: 'A sign-in link: the clubs the address administers, by name. An invitation: '
    + 'empty.' }),
}, { $id: 'LinkDescription', additionalProperties: false,
  description: 'What a sign-in link or an invitation is for, as its page says before the person uses it. Nothing is used up.' })

export const ClubMembership = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  timezone: Type.String({ description: 'The club\'s IANA time zone: the dashboard shows and takes the club\'s times in it.' }),
  role: Role(),
}, { $id: 'ClubMembership', additionalProperties: false, description: 'A club the signed-in person administers.' })

export const Me = Type.Object({
  admin_id: Uuid(),
  email: Type.String(),
  session_id: Uuid('The session of this request.'),
  clubs: Type.Array(Reference(ClubMembership)),
}, { $id: 'Me', additionalProperties: false, description: 'The signed-in person and the clubs they administer.' })
export type Me = Static<typeof Me>

export const Session = Type.Object({
  id: Uuid(),
  method: Type.Union([Type.Literal('link'), Type.Literal('invitation'), Type.Literal('passkey')], {
    description: 'How the session was started.',
  }),
  created_at: Instant('Sign-in.'),
  last_seen_at: Instant('The last request (to the minute).'),
  expires_at: Instant('The latest end, however active the session is.'),
  address: Nullable(Type.String({ description: 'The client address at sign-in.' })),
  user_agent: Nullable(Type.String({ description: 'The browser at sign-in.' })),
  current: Type.Boolean({ description: 'Whether this is the session of this request.' }),
}, { $id: 'Session', additionalProperties: false, description: 'A signed-in browser.' })
export type Session = Static<typeof Session>

export const SessionList = Type.Object({ items: Type.Array(Reference(Session)) }, {
  $id: 'SessionList', additionalProperties: false, description: 'The live sessions of the signed-in person, most recent first.',
})

export const SessionIdParams = Type.Object({ session: Uuid('A session id.') }, { additionalProperties: false })
export const ClubParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
}, { additionalProperties: false })
export const ClubKeyParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  key: Uuid('An API key id.'),
}, { additionalProperties: false })
export const ClubAdminParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  admin: Uuid('A member\'s admin id.'),
}, { additionalProperties: false })
export const ClubInvitationParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  invitation: Uuid('An invitation id.'),
}, { additionalProperties: false })

export const ApiKey = Type.Object({
  id: Uuid(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it; never enough to use it.' }),
  scopes: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  created_at: Instant('Creation.'),
  last_used_at: Nullable(Instant('The last authorised request (to the minute).')),
  expires_at: Nullable(Instant('Expiry; null: never.')),
  revoked_at: Nullable(Instant('Revocation.')),
  requests_today: Nullable(Type.Integer({ minimum: 0, description: 'Requests of today\'s quota used (UTC day); null when '
    + 'the rate limiter cannot be asked just now.' })),
  daily_quota: Type.Integer({ minimum: 1, description: 'Authorised requests per UTC day for this key.' }),
}, { $id: 'ApiKey', additionalProperties: false, description: 'An API key of the club, without the key itself.' })
export type ApiKey = Static<typeof ApiKey>

export const ApiKeyList = Type.Object({ items: Type.Array(Reference(ApiKey)) }, {
  $id: 'ApiKeyList', additionalProperties: false, description: 'The club\'s API keys, oldest first.',
})

export const ApiKeyCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'What the key is for, e.g. "club website".' }),
  scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), { minItems: 1, maxItems: SCOPES.length,
    uniqueItems: true, description: 'What the key may read (docs/api.md, "Scopes").' }),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'When the key stops working; '
    + 'absent or null: never.' }))),
}, { $id: 'ApiKeyCreate', additionalProperties: false, description: 'A new API key.' })
export type ApiKeyCreate = Static<typeof ApiKeyCreate>

export const ApiKeyCreated = Type.Object({
  key: Type.String({ description: 'The key, shown this once: only its hash is stored.' }),
  api_key: Reference(ApiKey),
}, { $id: 'ApiKeyCreated', additionalProperties: false, description: 'The new key, shown once, and its record.' })

export const TeamMember = Type.Object({
  admin_id: Uuid(),
  email: Type.String(),
  role: Role(),
  since: Instant('Joined the club.'),
  last_sign_in_at: Nullable(Instant('The last sign-in (any club).')),
}, { $id: 'TeamMember', additionalProperties: false, description: 'A person who administers the club.' })

export const Invitation = Type.Object({
  id: Uuid(),
  email: Type.String(),
  role: Role(),
  created_at: Instant('Sent.'),
  expires_at: Instant('The link stops working.'),
}, { $id: 'Invitation', additionalProperties: false, description: 'An invitation not yet accepted.' })

export const Team = Type.Object({
  members: Type.Array(Reference(TeamMember)),
  invitations: Type.Array(Reference(Invitation)),
}, { $id: 'Team', additionalProperties: false, description: 'The club\'s administrators and open invitations.' })

export const InvitationCreate = Type.Object({ email: Email(), role: Role() }, {
  $id: 'InvitationCreate', additionalProperties: false, description: 'Whom to invite, and as what.',
})
export type InvitationCreate = Static<typeof InvitationCreate>

export const RoleChange = Type.Object({ role: Role() }, {
  $id: 'RoleChange', additionalProperties: false, description: 'A member\'s new role.',
})

export const AuditEntry = Type.Object({
  id: Uuid(),
  actor: Type.String({ description: 'An e-mail address, or `operator` (the command line).' }),
  action: Type.String({ description: 'What was done, e.g. `api_key.created` (docs/dashboard.md, "Audit log").' }),
  target: Nullable(Type.String({ description: 'What it was done to: its id, or for some actions a description; never a key or a '
    + 'token.' })),
  target_name: Nullable(Type.String({ description: 'What the target was called when it happened: a court\'s name, a key\'s name '
    + 'and prefix, a person\'s address, an endpoint\'s URL, a booking\'s court and time (never its guest). Null for entries '
    + 'written before names were kept.' })),
  fields: Nullable(Type.Array(Type.String(), { description: 'The fields an edit changed, by name (never their values); null '
    + 'for other actions.' })),
  detail: Nullable(Type.String({ description: 'Why or how, where there is more to say: a cancellation\'s reason and what '
    + 'caused it, a role\'s change, the bookings a court\'s change cancelled.' })),
  address: Nullable(Type.String({ description: 'The client address of the actor.' })),
  created_at: Instant('When.'),
}, { $id: 'AuditEntry', additionalProperties: false, description: 'One administrative action.' })

export const AuditList = Type.Object({ items: Type.Array(Reference(AuditEntry)) }, {
  $id: 'AuditList', additionalProperties: false, description: 'The club\'s most recent 200 actions that pass the filter, newest '
    + 'first.',
})

const WebAuthnJson = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description })

export const PasskeyOptions = Type.Object({
  challenge_id: Uuid('Names this ceremony; send it back with the browser\'s answer (within 5 minutes).'),
  options: WebAuthnJson('The WebAuthn options (JSON form) for `navigator.credentials.create()` or `.get()`.'),
}, { $id: 'PasskeyOptions', additionalProperties: false, description: 'A WebAuthn ceremony begun by the server.' })

export const PasskeyRegistration = Type.Object({
  challenge_id: Uuid(),
  name: Type.String({ maxLength: 100, description: 'What the person calls it, e.g. "laptop".' }),
  response: WebAuthnJson('The browser\'s registration response (JSON form).'),
}, { $id: 'PasskeyRegistration', additionalProperties: false, description: 'A new passkey, as the browser made it.' })

export const PasskeyAssertion = Type.Object({
  challenge_id: Uuid(),
  response: WebAuthnJson('The browser\'s authentication response (JSON form).'),
}, { $id: 'PasskeyAssertion', additionalProperties: false, description: 'A passkey\'s signature over the challenge.' })

export const Passkey = Type.Object({
  id: Type.String({ description: 'The credential id (base64url).' }),
  name: Type.String(),
  created_at: Instant('Added.'),
  last_used_at: Nullable(Instant('The last sign-in with it.')),
}, { $id: 'Passkey', additionalProperties: false, description: 'A passkey of the signed-in person.' })

export const PasskeyList = Type.Object({ items: Type.Array(Reference(Passkey)) }, {
  $id: 'PasskeyList', additionalProperties: false, description: 'The signed-in person\'s passkeys.',
})

export const PasskeyParams = Type.Object({
  passkey: Type.String({ pattern: '^[A-Za-z0-9_-]{1,1400}$', description: 'A passkey\'s credential id.' }),
}, { additionalProperties: false })

export const ClubBookingParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  booking: Uuid('A booking id.'),
}, { additionalProperties: false })

export const BookingsQuery = Type.Object({
  date: Type.Optional(Type.String({ format: 'date', description: 'The local date (YYYY-MM-DD); default: today at the club.' })),
}, { additionalProperties: false })

export const BookingRules = Type.Object({
  cancellation_deadline_minutes: Type.Integer({ minimum: 0, maximum: 43_200, multipleOf: 15,
    description: 'Guests may cancel until this many minutes before the start (0: until the start).' }),
  retention_days: Type.Integer({ minimum: 1, maximum: 3650,
    description: 'Guests\' names and addresses are removed this many days after the booking ended.' }),
  privacy_url: Nullable(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500,
    description: 'The club\'s privacy notice, linked from the booking mails and pages.' })),
  max_open_bookings_per_email: Nullable(Type.Integer({ minimum: 1, maximum: 1000,
    description: 'At most this many upcoming bookings per e-mail address; null: the service\'s default (docs/api.md).' })),
  guests_may_book: Type.Boolean({ description: 'False: only addresses on the club\'s member list may book.' }),
}, { $id: 'BookingRules', additionalProperties: false, description: 'The club\'s booking rules (docs/bookings.md).' })
export type BookingRules = Static<typeof BookingRules>

export const ClubBooking = Type.Object({
  id: Uuid(),
  court_id: Uuid(),
  court_name: Type.String(),
  start_time: Instant('Start, in the club\'s offset.'),
  end_time: Instant('End, in the club\'s offset.'),
  booker_name: Type.String({ description: 'Empty once removed (retention or erasure).' }),
  booker_email: Type.String({ description: 'Empty once removed (retention or erasure).' }),
  notes: Nullable(Type.String()),
  status: Type.String({ enum: ['confirmed', 'cancelled'], description: 'A cancelled booking frees its slot and stays in the history.' }),
  created_at: Instant('When it was booked.'),
  cancelled_at: Nullable(Instant('When it was cancelled.')),
  cancelled_by: Type.Unsafe<'guest' | 'club' | 'hold' | null>({ type: ['string', 'null'], enum: ['guest', 'club', 'hold', null],
    description: 'Who cancelled: the guest (with the link of the confirmation mail), the club, or a block laid over the booking.' }),
  cancel_reason: Nullable(Type.String()),
}, { $id: 'ClubBooking', additionalProperties: false, description: 'A booking of one of the club\'s courts.' })
export type ClubBooking = Static<typeof ClubBooking>

export const ClubBookingList = Type.Object({
  date: Type.String({ format: 'date' }),
  timezone: Type.String(),
  items: Type.Array(Reference(ClubBooking)),
}, { $id: 'ClubBookingList', additionalProperties: false,
  description: 'The bookings that start on the date (club-local), cancelled ones too, by start and court.' })

export const BookingCancel = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 500, description: 'Why; the guest reads it in the cancellation mail.' })),
}, { $id: 'BookingCancel', additionalProperties: false, description: 'A cancellation by the club.' })

export const PersonalDataRequest = Type.Object({ email: Email() }, {
  $id: 'PersonalDataRequest', additionalProperties: false, description: 'The address whose data is meant.',
})

const Record = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false })
export const PersonalDataExport = Type.Object({
  bookings: Type.Array(Record({ id: Uuid(), club_id: Uuid(), court_name: Type.String(), start_time: Instant('Start.'),
    end_time: Instant('End.'), booker_name: Type.String(), booker_email: Type.String(), notes: Nullable(Type.String()),
    status: Type.String(), created_at: Instant('Booked.'), cancelled_at: Nullable(Instant('Cancelled.')) })),
  mails: Type.Array(Record({ id: Uuid(), club_id: Nullable(Uuid()), booking_id: Nullable(Uuid()), subject: Type.String(),
    status: Type.String(), created_at: Instant('Queued.'), sent_at: Nullable(Instant('Sent.')) })),
  idempotency_records: Type.Array(Record({ club_id: Uuid(), idempotency_key: Type.String(), booking_id: Uuid(),
    created_at: Instant('Recorded.') })),
  members: Type.Array(Record({ id: Uuid(), club_id: Uuid(), name: Type.String(), email: Type.String() })),
}, { $id: 'PersonalDataExport', additionalProperties: false, description: 'Everything the club holds about the address.' })

export const Erasure = Type.Object({
  bookings: Type.Integer({ description: 'Bookings the address was removed from (upcoming ones cancelled).' }),
  mails: Type.Integer({ description: 'Mails deleted.' }),
  idempotency_records: Type.Integer({ description: 'Idempotency records deleted.' }),
  member_records_kept: Type.Integer({ description: 'Member records with the address: the club\'s register, changed in its '
    + 'member list.' }),
}, { $id: 'Erasure', additionalProperties: false, description: 'What was removed.' })

const OpeningWeek = Type.Object({ mon: DayHours, tue: DayHours, wed: DayHours, thu: DayHours, fri: DayHours, sat: DayHours,
  sun: DayHours }, { additionalProperties: false, description: 'Club-local hours per weekday; null: closed that day.' })
const CourtFields = {
  name: Text(200, 'Unique within the club, ignoring case and spacing.'),
  sport: Text(100),
  active: Type.Boolean({ description: 'Inactive courts are not listed and cannot be booked.' }),
  slot_minutes: Type.Unsafe<(typeof SLOT_LENGTHS)[number]>({ type: 'integer', enum: [...SLOT_LENGTHS],
    description: `Slot length in minutes: ${SLOT_LENGTHS.join(', ')}.` }),
  opening_hours: OpeningWeek,
  booking_horizon_days: Type.Integer({ minimum: 0, maximum: 366, description: 'How many days ahead it can be booked.' }),
  max_slots_per_booking: Type.Integer({ minimum: 1, maximum: 48, description: 'Most slots one booking may cover.' }),
}
const CancelDisplaced = Type.Optional(Type.Boolean({ description: 'Cancel the upcoming bookings the change leaves without a '
  + 'place (each guest is mailed). Without it, such a change is refused (409) and nothing changes; the preview lists them.' }))
const CancellationReason = Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'With `cancel_displaced_bookings`: '
  + 'why; each guest reads it in the cancellation mail, and the audit log records it with each booking.' })))

export const AdminCourt = Type.Object({ id: Uuid(), ...CourtFields }, {
  $id: 'AdminCourt', additionalProperties: false, description: 'A court of the club, active or not.',
})
export type AdminCourt = Static<typeof AdminCourt>

const BookingsCancelled = Type.Integer({ minimum: 0, description: 'How many upcoming bookings the change cancelled (with '
  + '`cancel_displaced_bookings`), each guest mailed; 0 when it left every booking its place.' })

export const CourtChanged = Type.Composite([Type.Omit(AdminCourt, []), Type.Object({ bookings_cancelled: BookingsCancelled })], {
  $id: 'CourtChanged', additionalProperties: false, description: 'The court as it is now, and what its change did to bookings.',
})

export const AdminCourtList = Type.Object({ items: Type.Array(Reference(AdminCourt)) }, {
  $id: 'AdminCourtList', additionalProperties: false, description: 'The club\'s courts by name.',
})

export const CourtSave = Type.Object({ ...CourtFields, cancel_displaced_bookings: CancelDisplaced,
  cancellation_reason: CancellationReason }, {
  $id: 'CourtSave', additionalProperties: false, description: 'A court as it is to be.',
})
export type CourtSave = Static<typeof CourtSave>

export const ClubCourtParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  court: Uuid('A court id.'),
}, { additionalProperties: false })

export const ClubHoldParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  court: Uuid('A court id.'),
  hold: Uuid('A block or reservation id.'),
}, { additionalProperties: false })

const HoldKind = Type.Union([Type.Literal('block'), Type.Literal('reservation')], {
  description: 'block: the court is closed (slots show `blocked`); reservation: the club uses it (slots show `reserved`).',
})
const LocalDate = (description: string) => Type.String({ format: 'date', description })

export const AdminHold = Type.Object({
  id: Uuid(),
  court_id: Uuid(),
  kind: HoldKind,
  reason: Nullable(Type.String({ description: 'For the club\'s records; never shown publicly.' })),
  starts_at: Nullable(Instant('One-off: start, in the club\'s offset.')),
  ends_at: Nullable(Instant('One-off: end, in the club\'s offset.')),
  weekday: Type.Unsafe<Static<typeof WeekdayName> | null>({ type: ['string', 'null'], enum: [...WEEKDAYS, null],
    description: 'Weekly: the local weekday.' }),
  start_time: Nullable(ClockTime('Weekly: local start time.')),
  end_time: Nullable(ClockTime('Weekly: local end time.')),
  valid_from: Nullable(LocalDate('Weekly: first local date (null: always).')),
  valid_until: Nullable(LocalDate('Weekly: last local date (null: always).')),
}, { $id: 'AdminHold', additionalProperties: false, description: 'A block or reservation: one-off, or weekly.' })
export type AdminHold = Static<typeof AdminHold>

export const HoldChanged = Type.Composite([Type.Omit(AdminHold, []), Type.Object({ bookings_cancelled: BookingsCancelled })], {
  $id: 'HoldChanged', additionalProperties: false, description: 'The block or reservation as it is now, and what it did to bookings.',
})

export const AdminHoldList = Type.Object({ items: Type.Array(Reference(AdminHold)) }, {
  $id: 'AdminHoldList', additionalProperties: false, description: 'A court\'s holds: weekly ones by weekday, then one-off ones by start.',
})

export const HoldSave = Type.Object({
  kind: HoldKind,
  reason: Type.Optional(Nullable(Text(200, 'For the club\'s records; never shown publicly.'))),
  starts_at: Type.Optional(Instant('One-off: start.')),
  ends_at: Type.Optional(Instant('One-off: end.')),
  weekday: Type.Optional(WeekdayName),
  start_time: Type.Optional(ClockTime('Weekly: local start time.')),
  end_time: Type.Optional(ClockTime('Weekly: local end time.')),
  valid_from: Type.Optional(Nullable(LocalDate('Weekly: first local date.'))),
  valid_until: Type.Optional(Nullable(LocalDate('Weekly: last local date.'))),
  cancel_displaced_bookings: CancelDisplaced,
  cancellation_reason: CancellationReason,
}, { $id: 'HoldSave', additionalProperties: false,
  description: 'A block or reservation as it is to be: starts_at and ends_at (one-off), or weekday, start_time and end_time (weekly).' })
export type HoldSave = Static<typeof HoldSave>

export const DisplacedBookingList = Type.Object({ items: Type.Array(Reference(ClubBooking)) }, {
  $id: 'DisplacedBookingList', additionalProperties: false,
  description: 'The upcoming bookings the change would leave without a place, by start: saving it with '
    + '`cancel_displaced_bookings` cancels them.',
})

export const WeekQuery = Type.Object({
  date: Type.Optional(LocalDate('Any local date of the week (YYYY-MM-DD); default: today at the club. The week begins on Monday.')),
}, { additionalProperties: false })

export const CourtWeek = Type.Object({
  court_id: Uuid(),
  timezone: Type.String(),
  days: Type.Array(Type.Object({
    date: LocalDate('The local date.'),
    slots: Type.Array(Type.Object({
      start_time: Instant('Start, in the club\'s offset.'),
      end_time: Instant('End, in the club\'s offset.'),
      status: Type.String({ enum: ['available', 'booked', 'reserved', 'blocked'] }),
    }, { additionalProperties: false })),
  }, { additionalProperties: false })),
}, { $id: 'CourtWeek', additionalProperties: false, description: 'A court\'s slots from Monday to Sunday, with status.' })
export type CourtWeek = Static<typeof CourtWeek>

export const BookingSearchQuery = Type.Object({
  from: LocalDate('First local date (YYYY-MM-DD).'),
  to: LocalDate('Last local date (YYYY-MM-DD), at most 366 days after from.'),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the guest\'s name or e-mail address, any case.' })),
  court: Type.Optional(Uuid('Only this court.')),
  status: Type.Optional(Type.String({ enum: ['confirmed', 'cancelled'] })),
}, { additionalProperties: false })

export const BookingSearch = Type.Object({
  from: LocalDate('First local date.'),
  to: LocalDate('Last local date.'),
  timezone: Type.String(),
  items: Type.Array(Reference(ClubBooking)),
  truncated: Type.Boolean({ description: 'More bookings matched than the 500 listed: narrow the search.' }),
}, { $id: 'BookingSearch', additionalProperties: false, description: 'Bookings that start within the dates and match, by start.' })

export const BookingExportQuery = Type.Object({
  from: LocalDate('First local date (YYYY-MM-DD).'),
  to: LocalDate('Last local date (YYYY-MM-DD), at most 366 days after from.'),
}, { additionalProperties: false })

export const ClubWebsite = Type.Object({
  websites: Type.Array(Type.String({ description: 'An origin, e.g. https://www.tc-riverside.example.' }), {
    description: 'The club\'s own websites: the only pages that may frame its hosted booking page.' }),
  booking_page_url: Type.String({ description: 'The hosted booking page, /book/{club}.' }),
  widget: Type.Object({
    script_url: Type.String({ description: 'The widget at the snippet\'s address: revalidated every few minutes, so fixes arrive.' }),
    pinned_url: Nullable(Type.String({ description: 'This build of the widget at an immutable address (null: not built).' })),
    integrity: Nullable(Type.String({ description: 'The pinned build\'s Subresource Integrity value (sha384-…).' })),
  }, { additionalProperties: false }),
}, { $id: 'ClubWebsite', additionalProperties: false, description: 'What a club needs to put booking on its website.' })
export type ClubWebsite = Static<typeof ClubWebsite>

export const ClubWebsiteChange = Type.Object({
  websites: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 20,
    description: 'Addresses of the club\'s websites, each an exact origin: scheme (http or https), host and optional port, '
      + 'nothing else (no wildcard, path, comma, semicolon or quote); a lone trailing slash is dropped.' }),
}, { $id: 'ClubWebsiteChange', additionalProperties: false, description: 'The club\'s websites.' })

export const AuditQuery = Type.Object({
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Who: an e-mail address as recorded, or '
    + '`operator`.' })),
  kind: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}$', description: 'What: the part of the action before its dot, e.g. '
    + '`booking`, `court`, `hold`, `api_key`, `sign_in`, `passkey`, `member`, `webhook`.' })),
  from: Type.Optional(LocalDate('When: the first day, at the club (YYYY-MM-DD).')),
  to: Type.Optional(LocalDate('When: the last day, at the club (YYYY-MM-DD).')),
}, { additionalProperties: false })
export type AuditQuery = Static<typeof AuditQuery>

export const ADMIN_SCHEMAS = [...CONTENT_SCHEMAS, ...WEBHOOK_ADMIN_SCHEMAS, ClubWebsite, ClubWebsiteChange,
  AdminCourt, CourtChanged, AdminCourtList, CourtSave, AdminHold, HoldChanged, AdminHoldList, HoldSave, DisplacedBookingList,
  CourtWeek,
  BookingSearch, BookingRules, ClubBooking, ClubBookingList, BookingCancel, PersonalDataRequest, PersonalDataExport,
  Erasure, SignInLinkRequest, Accepted, TokenRequest, ClubMembership, Me, Session, SessionList, ApiKey,
  LinkDescription, ApiKeyList, ApiKeyCreate, ApiKeyCreated, TeamMember, Invitation, Team, InvitationCreate, RoleChange,
  AuditEntry, AuditList,
  PasskeyOptions, PasskeyRegistration, PasskeyAssertion, Passkey, PasskeyList]
