import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { DEFAULT_SUMMARY_DAYS, MAX_SUMMARY_DAYS } from '../domain/slots.js'
import { NO_CONTROL_BUT_NEWLINES, NO_CONTROL_CHARACTERS, Nullable, Reference, Uuid } from './common.js'

/** The court of the examples: Court 1 of TC Riverside (Europe/Berlin). */
const EXAMPLE_COURT = 'c0a8f3d2-5b1e-4c7a-8f20-3d9e6b1a7c44'

export const CourtBookingSlot = Type.Object({
  court_id: Uuid(),
  court_name: Type.String(),
  start_time: Type.String({ format: 'date-time', description: 'Slot start, RFC 3339 with the club\'s local offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'Slot end, RFC 3339 with the club\'s local offset.' }),
  status: Type.Union([Type.Literal('available'), Type.Literal('reserved'), Type.Literal('booked'), Type.Literal('blocked')], {
    description: 'blocked: the court is closed (maintenance, closure); reserved: the club holds it (training, matches); '
      + 'booked: booked through this API; available: free to book. If several apply: blocked > reserved > booked.',
  }),
}, {
  $id: 'CourtBookingSlot',
  additionalProperties: false,
  description: 'One slot of a court on the grid of that day.',
  examples: [{
    court_id: EXAMPLE_COURT, court_name: 'Court 1', start_time: '2026-06-16T18:00:00+02:00', end_time: '2026-06-16T19:00:00+02:00',
    status: 'available',
  }],
})
export type CourtBookingSlot = Static<typeof CourtBookingSlot>

/**
 * The dates the listing shows: wide enough for any booking page, and inside the years in which every
 * IANA zone's offset is whole minutes, as RFC 3339 offsets must be.
 */
export const FIRST_LISTED_DATE = '2000-01-01'
export const LAST_LISTED_DATE = '2099-12-31'

export const CourtsQuery = Type.Object({
  date: Type.Optional(Type.String({
    format: 'date',
    formatMinimum: FIRST_LISTED_DATE,
    formatMaximum: LAST_LISTED_DATE,
    description: `The local date to inspect (YYYY-MM-DD), ${FIRST_LISTED_DATE} through ${LAST_LISTED_DATE}; `
      + 'default: today in the club\'s time zone.',
    examples: ['2026-06-16'],
  })),
}, { additionalProperties: false })

const ZonedStart = Type.Union([Type.String({ format: 'date-time' }), Type.Null()])

export const CourtBookingWindow = Type.Object({
  court_id: Uuid('The court.'),
  earliest_start: ZonedStart,
  latest_start: ZonedStart,
  max_slots_per_booking: Type.Integer({ minimum: 1, description: 'The most consecutive slots of the court one booking may cover.' }),
}, {
  $id: 'CourtBookingWindow',
  additionalProperties: false,
  description: 'The first and the last `start_time` of the court\'s slots on the date that a booking may have at the time of '
    + 'the answer, in the club\'s offset: a slot is bookable when its status is `available` and its start lies within these two '
    + '(inclusive). Slots that have started are never bookable, nor those at or beyond the court\'s booking horizon. Both are '
    + '`null` when no slot of the date can be booked now (a past date, one beyond the horizon, a closed day).',
  examples: [{ court_id: EXAMPLE_COURT, earliest_start: '2026-06-16T18:00:00+02:00', latest_start: '2026-06-16T21:00:00+02:00',
    max_slots_per_booking: 2 }],
})

export const CourtAvailability = Type.Object({
  club_name: Type.String({ description: 'The club\'s name, as its pages and mails write it.' }),
  date: Type.String({ format: 'date', description: 'The local date shown.' }),
  timezone: Type.String({ description: 'The club\'s IANA time zone; slot times carry its offset.' }),
  courts: Type.Array(Reference(CourtBookingSlot)),
  booking_windows: Type.Array(Reference(CourtBookingWindow), { description: 'One per active court: which of its slots on the '
    + 'date can be booked now, so that a booking page can grey out past and too-far slots without guessing.' }),
  waiting_list: Type.Boolean({ description: 'Whether a guest may wait for a taken slot (POST …/courts/waitlist): false when the '
    + 'club has switched its waiting list off.' }),
  cancellation_deadline_minutes: Type.Integer({ minimum: 0, description: 'The club\'s cancellation policy: a guest may cancel a '
    + 'booking online (with the link of its confirmation) until this many minutes before it starts; later, only the club can. '
    + 'A booking page says so before the guest books, and says when a time can no longer be cancelled online once booked.' }),
  contact: Type.Object({
    email: Nullable(Type.String({ format: 'email', description: 'The club\'s contact address for guests; null: none.' })),
    phone: Nullable(Type.String({ description: 'The club\'s phone number as guests read it; null: none.' })),
    address: Nullable(Type.String({ description: 'The club\'s postal address on one line (a booking\'s place in a calendar); '
      + 'null: none.' })),
  }, { additionalProperties: false, description: 'How a guest reaches the club, for what cannot be done online, and where it is.' }),
}, {
  $id: 'CourtAvailability',
  additionalProperties: false,
  description: 'Every active court\'s slots on the date, by court name, then start.',
  examples: [{
    club_name: 'TC Riverside',
    date: '2026-06-16',
    timezone: 'Europe/Berlin',
    courts: [
      { court_id: EXAMPLE_COURT, court_name: 'Court 1', start_time: '2026-06-16T17:00:00+02:00', end_time: '2026-06-16T18:00:00+02:00',
        status: 'reserved' },
      { court_id: EXAMPLE_COURT, court_name: 'Court 1', start_time: '2026-06-16T18:00:00+02:00', end_time: '2026-06-16T19:00:00+02:00',
        status: 'available' },
      { court_id: EXAMPLE_COURT, court_name: 'Court 1', start_time: '2026-06-16T19:00:00+02:00', end_time: '2026-06-16T20:00:00+02:00',
        status: 'booked' },
    ],
    booking_windows: [
      { court_id: EXAMPLE_COURT, earliest_start: '2026-06-16T18:00:00+02:00', latest_start: '2026-06-16T19:00:00+02:00',
        max_slots_per_booking: 2 },
    ],
    waiting_list: true,
    cancellation_deadline_minutes: 1440,
    contact: { email: 'office@tc-riverside.example', phone: '+49 30 1234567', address: 'Uferweg 4, 10557 Berlin' },
  }],
})

export const CourtDaysQuery = Type.Object({
  from: Type.Optional(Type.String({
    format: 'date',
    formatMinimum: FIRST_LISTED_DATE,
    formatMaximum: LAST_LISTED_DATE,
    description: `The first local date (YYYY-MM-DD), ${FIRST_LISTED_DATE} through ${LAST_LISTED_DATE}; `
      + 'default: today in the club\'s time zone.',
    examples: ['2026-06-16'],
  })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SUMMARY_DAYS, default: DEFAULT_SUMMARY_DAYS,
    description: `How many dates, from \`from\` on (1 to ${String(MAX_SUMMARY_DAYS)}).`, examples: [7] })),
  court: Type.Optional(Uuid('One court alone (a booking page for one court); without it, every active court. A court the club '
    + 'does not have, or not an active one, has no free times.')),
}, { additionalProperties: false })

export const CourtDay = Type.Object({
  date: Type.String({ format: 'date', description: 'The local date.' }),
  bookable: Type.Boolean({ description: 'Whether any court can be booked on this date now: false for a past date, one beyond '
    + 'every court\'s booking horizon, a day every court is closed.' }),
  free_slots: Type.Integer({ minimum: 0, description: 'How many times of the date are `available` and bookable now, over all '
    + 'active courts (a time of two courts counts twice).' }),
  first_free: Type.Union([Reference(CourtBookingSlot), Type.Null()], { description: 'The earliest of them (by start, then court '
    + 'name), as GET …/courts lists it; null when there is none.' }),
}, {
  $id: 'CourtDay',
  additionalProperties: false,
  description: 'One date of a club\'s courts at a glance.',
  examples: [{ date: '2026-06-17', bookable: true, free_slots: 12, first_free: { court_id: EXAMPLE_COURT, court_name: 'Court 1',
    start_time: '2026-06-17T08:00:00+02:00', end_time: '2026-06-17T09:00:00+02:00', status: 'available' } }],
})

export const CourtDays = Type.Object({
  timezone: Type.String({ description: 'The club\'s IANA time zone; times carry its offset.' }),
  days: Type.Array(Reference(CourtDay), { description: 'One per date, in order.' }),
}, {
  $id: 'CourtDays',
  additionalProperties: false,
  description: 'How many times can be booked on each of a run of dates, and the first of them: a date strip, and a jump to the '
    + 'next free time.',
  examples: [{ timezone: 'Europe/Berlin', days: [
    { date: '2026-06-16', bookable: true, free_slots: 0, first_free: null },
    { date: '2026-06-17', bookable: true, free_slots: 12, first_free: { court_id: EXAMPLE_COURT, court_name: 'Court 1',
      start_time: '2026-06-17T08:00:00+02:00', end_time: '2026-06-17T09:00:00+02:00', status: 'available' } },
  ] }],
})

export const ClubSlugParams = Type.Object({
  clubSlug: Type.String({ description: 'Slug identifier of the club.', maxLength: 63, examples: ['tc-riverside'] }),
})

export const BookingRequest = Type.Object({
  court_id: Uuid('The court, as listed by GET …/courts.'),
  start_time: Type.String({ format: 'date-time', description: 'Start of the first slot, RFC 3339 with an offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the last slot, RFC 3339 with an offset.' }),
  booker_name: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'Shown in the confirmation.' }),
  booker_email: Type.String({ format: 'email', maxLength: 254, description: 'The confirmation goes here. If it is a member\'s '
    + 'address, the booking is linked to that member.' }),
  notes: Type.Optional(Type.String({ maxLength: 500, pattern: NO_CONTROL_BUT_NEWLINES, description: 'Repeated in the confirmation.' })),
}, {
  $id: 'BookingRequest',
  additionalProperties: false,
  description: 'One or more consecutive slots of one court, on its grid, as listed by GET …/courts.',
  examples: [{
    court_id: EXAMPLE_COURT, start_time: '2026-06-16T18:00:00+02:00', end_time: '2026-06-16T19:00:00+02:00',
    booker_name: 'Jana Weber', booker_email: 'jana.weber@example.org', notes: 'Bringing a guest from TC Lakeside.',
  }],
})
export type BookingRequest = Static<typeof BookingRequest>

export const BookingCreated = Type.Object({
  success: Type.Boolean({ description: 'Always true: a booking that fails is a problem document.' }),
  booking_id: Uuid('The booking; the confirmation e-mail names it too.'),
  manage_url: Type.Optional(Type.String({ format: 'uri', description: 'The guest\'s page of the booking, the link the '
    + 'confirmation mail has: see it, change its time or cancel it until the club\'s deadline; its calendar file is at '
    + '`manage_url` + `/calendar.ics`. A secret of the guest\'s: show it to them, never store or log it. Present on every new '
    + 'booking, and on a repeated answer to the same `Idempotency-Key` (it is kept sealed under the key for 24 hours).' })),
}, {
  $id: 'BookingCreated',
  additionalProperties: false,
  description: 'The booking is stored and its confirmation e-mail is on its way.',
  examples: [{ success: true, booking_id: '0d6f2b9a-4c1e-4a7b-b3f5-8e9c1d2a3b4c',
    manage_url: 'https://clubs.example/bookings/manage/cpm_8Jq2xY0bQbq0b1b6VdCw3eWz4E2H5s6q9kLm1n2o3p4' }],
})
