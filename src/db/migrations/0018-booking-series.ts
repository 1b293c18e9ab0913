import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * booking_series: a weekly booking the club takes for a season (src/services/booking-series.ts):
 * one court, one local time, every week from its first date to its last. It holds no one's name or
 * address: those are on its bookings, which are bookings like any other (listed, exported, kept
 * and erased as such) with `bookings.series_id` naming the series, found by the partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema.createTable('booking_series')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('court_id', t.uuid, (col) => col.notNull())
    .addColumn('start_time', 'text', (col) => col.notNull())
    .addColumn('end_time', 'text', (col) => col.notNull())
    .addColumn('first_date', 'text', (col) => col.notNull())
    .addColumn('last_date', 'text', (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .execute()
  await db.schema.alterTable('bookings').addColumn('series_id', t.uuid, (col) => col.references('booking_series.id')).execute()
  await db.schema.createIndex('bookings_series_idx').on('bookings').columns(['series_id', 'starts_at'])
    .where(sql.ref('series_id'), 'is not', null).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bookings_series_idx').execute()
  await db.schema.alterTable('bookings').dropColumn('series_id').execute()
  await db.schema.dropTable('booking_series').execute()
}
