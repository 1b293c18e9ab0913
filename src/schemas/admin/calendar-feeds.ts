/** The dashboard API's calendar feeds: the club's private feeds of its bookings, and the address of its public events feed. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { Nullable, Reference, Uuid } from '../common.js'

export const CalendarFeed = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'What the feed is for, e.g. "Office calendar".' }),
  show_names: Type.Boolean({ description: 'Whether its events name the booker (never an e-mail address).' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
}, { $id: 'CalendarFeed', additionalProperties: false, description: 'A private feed of the club\'s court bookings, without its '
  + 'address (shown once, when it is made).' })
export type CalendarFeed = Static<typeof CalendarFeed>

export const CalendarFeedList = Type.Object({
  items: Type.Array(Reference(CalendarFeed), { description: 'Newest first.' }),
  events_feed_url: Type.String({ description: 'The club\'s public events feed (webcal:// for a calendar app to subscribe); '
    + 'add `?group={id}` for a training group\'s events.' }),
}, { $id: 'CalendarFeedList', additionalProperties: false, description: 'The club\'s calendar feeds.' })

export const CalendarFeedCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  show_names: Type.Optional(Type.Boolean({ description: 'Name the booker in each event (default: court and time alone).' })),
}, { $id: 'CalendarFeedCreate', additionalProperties: false, description: 'A new private feed of the club\'s bookings.' })

export const CalendarFeedCreated = Type.Object({
  feed: Reference(CalendarFeed),
  url: Type.String({ description: 'The feed\'s secret address (https): shown this once. Anyone who has it sees the bookings.' }),
  webcal_url: Type.String({ description: 'The same address as webcal://, which calendar apps open to subscribe.' }),
}, { $id: 'CalendarFeedCreated', additionalProperties: false, description: 'The new feed with its address, shown only now.' })

export const ClubFeedParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  feed: Uuid('A calendar feed id.'),
}, { additionalProperties: false })

export const CALENDAR_FEED_SCHEMAS = [CalendarFeed, CalendarFeedList, CalendarFeedCreate, CalendarFeedCreated]
