/** The dashboard API's bookings: the club's rules, its bookings by day or search, cancellations and personal data. */
import { Type } from '@sinclair/typebox'
import type { Static, TProperties } from '@sinclair/typebox'
import { NO_CONTROL_BUT_NEWLINES, NO_CONTROL_CHARACTERS, Nullable, Reference, Uuid } from '../common.js'
import { Email, Instant, LocalDate } from './fields.js'
import { ADDRESS_PATTERN, PHONE_PATTERN } from '../../domain/club-contact.js'
import { GUEST_LANGUAGES } from '../../domain/languages.js'
import type { GuestLanguage } from '../../domain/languages.js'

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
  language: Type.Optional(Type.Unsafe<GuestLanguage>({ type: 'string', enum: [...GUEST_LANGUAGES],
    description: 'The language of the booking widget, pages and guest mails when the guest\'s browser asks for none of these '
      + '(absent in a change: unchanged).' })),
  contact_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254,
    description: 'Where guests\' replies to the booking mails go (their Reply-To; the calendar event\'s organiser); null: the '
      + 'mails come from the service alone (absent in a change: unchanged).' }))),
  waiting_list: Type.Optional(Type.Boolean({ description: 'Whether guests may wait for a taken time and be mailed when it frees '
    + '(docs/waiting-list.md; absent in a change: unchanged).' })),
  contact_phone: Type.Optional(Nullable(Type.String({ pattern: PHONE_PATTERN, maxLength: 40, description: 'The club\'s phone '
    + 'number as guests read it, on the booking\'s page where it sends them to the club; null: none (absent in a change: '
    + 'unchanged).', examples: ['+49 30 1234567'] }))),
  address: Type.Optional(Nullable(Type.String({ pattern: ADDRESS_PATTERN, maxLength: 300, description: 'The club\'s postal address '
    + 'on one line: the calendar event\'s location, and on the booking\'s page; null: none (absent in a change: unchanged).',
  examples: ['Uferweg 4, 10557 Berlin'] }))),
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

export const StaffBookingCreate = Type.Object({
  court_id: Uuid('The court.'),
  start_time: Type.String({ format: 'date-time', description: 'Start of the first slot, RFC 3339 with an offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the last slot, RFC 3339 with an offset.' }),
  booker_name: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'The member\'s or guest\'s name.' }),
  booker_email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
    description: 'Optional: where the confirmation, changes and cancellation go. A member\'s address links the booking to '
      + 'the member. Without it, nobody is mailed about the booking.' })),
  notes: Type.Optional(Type.String({ maxLength: 500, pattern: NO_CONTROL_BUT_NEWLINES, description: 'For the club; repeated in '
    + 'the confirmation.' })),
  send_confirmation: Type.Optional(Type.Boolean({ default: true, description: 'Mail the guest a confirmation (with an address '
    + 'only). Default true.' })),
  override_horizon: Type.Optional(Type.Boolean({ default: false, description: 'Book beyond the court\'s booking horizon.' })),
  override_address_limits: Type.Optional(Type.Boolean({ default: false, description: 'Book although the address has as many '
    + 'upcoming bookings as the club allows, or as many today as the service does.' })),
  override_reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: NO_CONTROL_CHARACTERS, description: 'Why: '
    + 'required with an override, recorded in the audit log.' })),
}, { $id: 'StaffBookingCreate', additionalProperties: false,
  description: 'A booking the club takes for a member or a guest: the court\'s grid, hours and a free slot bind it as any '
    + 'booking; the horizon and the address\'s limits unless overridden with a reason. The members-only rule does not apply.',
  examples: [{ court_id: '0190a3b4-7c2d-7e5f-8a9b-0c1d2e3f4a5b', start_time: '2026-06-16T19:00:00+02:00',
    end_time: '2026-06-16T20:00:00+02:00', booker_name: 'Walk-in: Tom', notes: 'Paid at the desk' }] })

export type StaffBookingCreate = Static<typeof StaffBookingCreate>

export const BookingMove = Type.Object({
  court_id: Uuid('The court to move it to (the same one for a new time alone).'),
  start_time: Type.String({ format: 'date-time', description: 'Start of the first slot, RFC 3339 with an offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the last slot, RFC 3339 with an offset.' }),
  notify_guest: Type.Optional(Type.Boolean({ default: true, description: 'Mail the guest the change (with a calendar update of '
    + 'the same event). Default true.' })),
}, { $id: 'BookingMove', additionalProperties: false, description: 'A move of a booking to another time or court of the club, '
  + 'on the court\'s slot grid and within its opening hours; the booking horizon does not bind the club.',
examples: [{ court_id: '0190a3b4-7c2d-7e5f-8a9b-0c1d2e3f4a5b', start_time: '2026-06-16T19:00:00+02:00',
  end_time: '2026-06-16T20:00:00+02:00' }] })

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
  idempotency_records: Type.Array(Record({ club_id: Uuid(),
    idempotency_key: Type.String({ description: 'The SHA-256 (hex) of the key the client sent; the key itself is not kept.' }),
    booking_id: Uuid(), created_at: Instant('Recorded.') })),
  waiting_list: Type.Array(Record({ id: Uuid(), club_id: Uuid(), court_name: Type.String(), start_time: Instant('Start of the slot.'),
    end_time: Instant('End of the slot.'), name: Type.String(), email: Type.String(), created_at: Instant('Put on the list.'),
    ended_at: Nullable(Instant('Ended (stopped, or the slot booked).')) }), { description: 'Waiting list entries '
      + '(docs/waiting-list.md); removed once their slot has started.' }),
  members: Type.Array(Record({ id: Uuid(), club_id: Uuid(), name: Type.String(), email: Type.String() })),
}, { $id: 'PersonalDataExport', additionalProperties: false, description: 'Everything the club holds about the address.' })

export const Erasure = Type.Object({
  bookings: Type.Integer({ description: 'Bookings the address was removed from (upcoming ones cancelled).' }),
  mails: Type.Integer({ description: 'Mails deleted.' }),
  idempotency_records: Type.Integer({ description: 'Idempotency records deleted.' }),
  waiting_list_entries: Type.Integer({ description: 'Waiting list entries deleted.' }),
  member_records_kept: Type.Integer({ description: 'Member records with the address: the club\'s register, changed in its '
    + 'member list.' }),
}, { $id: 'Erasure', additionalProperties: false, description: 'What was removed.' })

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
