/**
 * Calendar feeds as stored: a club's private feeds (by club, or by their token's hash alone) and
 * what the feeds show — a window of a club's bookings by start, a club's or a training group's
 * public events by start — each read through its index.
 */
import type { Kysely } from 'kysely'
import { dialectOf, sqlBoolean } from '../dialect.js'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'
import type { BookingStatus } from '../schema.js'

export interface CalendarFeed {
  readonly id: string
  readonly clubId: string
  readonly name: string
  readonly showNames: boolean
  readonly createdAt: string
  readonly revokedAt: string | null
}

const FEED_COLUMNS = ['id', 'club_id', 'name', 'show_names', 'created_at', 'revoked_at'] as const

interface FeedRow {
  id: string
  club_id: string
  name: string
  show_names: boolean | number
  created_at: Date | string
  revoked_at: Date | string | null
}

function feedOf(row: FeedRow): CalendarFeed {
  return { id: row.id, clubId: row.club_id, name: row.name, showNames: Boolean(row.show_names),
    createdAt: isoFromDb(row.created_at), revokedAt: isoFromDbOrNull(row.revoked_at) }
}

export async function insertCalendarFeed(db: Kysely<Database>, feed: Omit<CalendarFeed, 'revokedAt'> & { tokenHash: string }):
Promise<void> {
  await db.insertInto('calendar_feeds').values({ id: feed.id, club_id: feed.clubId, name: feed.name, token_hash: feed.tokenHash,
    show_names: feed.showNames, created_at: isoForDb(feed.createdAt), revoked_at: null }).execute()
}

/** The club's feeds, newest first. */
export async function listCalendarFeeds(db: Kysely<Database>, clubId: string): Promise<CalendarFeed[]> {
  const rows = await db.selectFrom('calendar_feeds').select(FEED_COLUMNS).where('club_id', '=', clubId)
    .orderBy('created_at', 'desc').orderBy('id').execute()
  return rows.map(feedOf)
}

export async function findCalendarFeed(db: Kysely<Database>, clubId: string, id: string): Promise<CalendarFeed | undefined> {
  const row = await db.selectFrom('calendar_feeds').select(FEED_COLUMNS).where('club_id', '=', clubId).where('id', '=', id)
    .executeTakeFirst()
  return row === undefined ? undefined : feedOf(row)
}

/** The feed whose address has this token (by its hash), revoked or not. */
export async function calendarFeedByToken(db: Kysely<Database>, tokenHash: string): Promise<CalendarFeed | undefined> {
  const row = await db.selectFrom('calendar_feeds').select(FEED_COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst()
  return row === undefined ? undefined : feedOf(row)
}

/** Revokes the feed; false when it was revoked already. */
export async function revokeCalendarFeed(db: Kysely<Database>, clubId: string, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('calendar_feeds').set({ revoked_at: isoForDb(now) }).where('club_id', '=', clubId)
    .where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export interface FeedBooking {
  readonly id: string
  readonly courtName: string
  readonly start: string
  readonly end: string
  readonly bookerName: string
  readonly status: BookingStatus
  readonly sequence: number
  readonly createdAt: string
}

/** The club's bookings (any state) that start within the window, by start; at most `limit`. No e-mail address is read. */
export async function feedBookings(db: Kysely<Database>, clubId: string, window: { start: number, end: number }, limit: number):
Promise<FeedBooking[]> {
  const rows = await db.selectFrom('bookings')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'bookings.club_id').onRef('courts.id', '=', 'bookings.court_id'))
    .select(['bookings.id', 'courts.name as court_name', 'bookings.starts_at', 'bookings.ends_at', 'bookings.booker_name',
      'bookings.status', 'bookings.calendar_sequence', 'bookings.created_at'])
    .where('bookings.club_id', '=', clubId)
    .where('bookings.starts_at', '>=', isoForDb(window.start)).where('bookings.starts_at', '<', isoForDb(window.end))
    .orderBy('bookings.starts_at').orderBy('bookings.id').limit(limit).execute()
  return rows.map((row) => ({ id: row.id, courtName: row.court_name, start: isoFromDb(row.starts_at), end: isoFromDb(row.ends_at),
    bookerName: row.booker_name, status: row.status, sequence: row.calendar_sequence, createdAt: isoFromDb(row.created_at) }))
}

export interface FeedEvent {
  readonly id: string
  readonly title: string
  readonly start: string
  readonly end: string | null
  readonly location: string | null
  readonly version: number
  readonly createdAt: string
}

/**
 * Public events (released for public booking) starting at or after `from`, by start: the club's that
 * belong to no group (as the read API lists them), or one training group's; at most `limit`.
 */
export async function feedEvents(db: Kysely<Database>, clubId: string, groupId: string | undefined, from: number, limit: number):
Promise<FeedEvent[]> {
  // The literals match the predicates of the partial indexes events_listing_idx and events_group_feed_idx.
  let query = db.selectFrom('events').select(['id', 'title', 'starts_at', 'ends_at', 'location', 'version', 'created_at'])
    .where('club_id', '=', clubId).where('public_booking', '=', sqlBoolean(dialectOf(db), true))
  query = groupId === undefined
    ? query.where('group_id', 'is', null)
    : query.where('group_id', 'is not', null).where('group_id', '=', groupId)
  const rows = await query.where('starts_at', '>=', isoForDb(from)).orderBy('starts_at').orderBy('id').limit(limit).execute()
  return rows.map((row) => ({ id: row.id, title: row.title, start: isoFromDb(row.starts_at),
    end: row.ends_at === null ? null : isoFromDb(row.ends_at), location: row.location, version: row.version,
    createdAt: isoFromDb(row.created_at) }))
}

/** Whether the club has this training group. */
export async function hasGroup(db: Kysely<Database>, clubId: string, groupId: string): Promise<boolean> {
  return (await db.selectFrom('groups').select('id').where('club_id', '=', clubId).where('id', '=', groupId).executeTakeFirst())
    !== undefined
}
