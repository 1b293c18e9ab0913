import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Uuid } from './common.js'

export const CourtBookingSlot = Type.Object({
  court_id: Uuid(),
  court_name: Type.String(),
  start_time: Type.String({ format: 'date-time', description: 'Slot start, RFC 3339 with the club\'s local offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'Slot end, RFC 3339 with the club\'s local offset.' }),
  status: Type.Union([Type.Literal('available'), Type.Literal('reserved'), Type.Literal('booked'), Type.Literal('blocked')], {
    description: 'blocked: the court is closed (maintenance, closure); reserved: the club holds it (training, matches); '
      + 'booked: booked through this API; available: free to book. If several apply: blocked > reserved > booked.',
  }),
}, { $id: 'CourtBookingSlot', additionalProperties: false, description: 'One slot of a court on the grid of that day.' })
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
  })),
}, { additionalProperties: false })

export const CourtsResponse = Type.Object({
  date: Type.String({ format: 'date', description: 'The local date shown.' }),
  timezone: Type.String({ description: 'The club\'s IANA time zone; slot times carry its offset.' }),
  courts: Type.Array(Type.Unsafe<CourtBookingSlot>(Type.Ref('CourtBookingSlot'))),
}, { additionalProperties: false, description: 'Every active court\'s slots on the date, by court name, then start.' })

export const ClubSlugParams = Type.Object({
  clubSlug: Type.String({ description: 'Slug identifier of the club.', maxLength: 63 }),
})

const NoControlCharacters = '^[^\\u0000-\\u001f\\u007f]*$'
const NoControlExceptNewlines = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$'

export const BookingRequest = Type.Object({
  court_id: Uuid('The court, as listed by GET …/courts.'),
  start_time: Type.String({ format: 'date-time', description: 'Start of the first slot, RFC 3339 with an offset.' }),
  end_time: Type.String({ format: 'date-time', description: 'End of the last slot, RFC 3339 with an offset.' }),
  booker_name: Type.String({ minLength: 1, maxLength: 100, pattern: NoControlCharacters }),
  booker_email: Type.String({ format: 'email', maxLength: 254, description: 'The confirmation goes here. If it is a member\'s '
    + 'address, the booking is linked to that member.' }),
  notes: Type.Optional(Type.String({ maxLength: 500, pattern: NoControlExceptNewlines })),
}, { $id: 'BookingRequest', additionalProperties: false })
export type BookingRequest = Static<typeof BookingRequest>

export const BookingCreated = Type.Object({
  success: Type.Boolean(),
  booking_id: Uuid(),
}, { additionalProperties: false })
