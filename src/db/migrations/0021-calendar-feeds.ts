import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf, sqlBoolean } from '../dialect.js'

/*
 * Calendar feeds (docs/calendar-feeds.md).
 *
 * - calendar_feeds: a club's private feeds of its court bookings, each behind a secret address
 *   (only its SHA-256 is stored, as an API key's): its name, whether it shows the bookers' names,
 *   when it was made and revoked. Read by its token's hash alone.
 * - events_group_feed_idx: a training group's public events by start (its public feed), as
 *   events_listing_idx has the club's events that belong to no group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)
  await db.schema.createTable('calendar_feeds')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('show_names', t.bool, (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('revoked_at', t.timestamp)
    .execute()
  await db.schema.createIndex('calendar_feeds_club_idx').on('calendar_feeds').columns(['club_id', 'created_at']).execute()
  await sql`create index events_group_feed_idx on events (club_id, group_id, starts_at, id)
    where public_booking = ${sqlBoolean(dialect, true)} and group_id is not null`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_group_feed_idx').execute()
  await db.schema.dropTable('calendar_feeds').execute()
}
