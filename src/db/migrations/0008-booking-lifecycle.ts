import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf, sqlBoolean } from '../dialect.js'

/*
 * A booking's life after it is made (docs/bookings.md).
 *
 * - bookings.status: `confirmed` or `cancelled`. A cancelled booking frees its slot and stays in
 *   the history with who cancelled it (`guest`, `club`, `hold`), when and why.
 * - bookings.manage_token_hash: the SHA-256 of the personal link in the confirmation mail with
 *   which the guest sees and cancels the booking (null for bookings made before this migration).
 * - bookings.anonymised_at: when the guest's name and address were removed (retention or erasure);
 *   the booking's court, times and state stay for the club's history and counts.
 * - clubs.cancellation_deadline_minutes: how long before the start a guest may still cancel.
 * - clubs.booking_retention_days: how long after a booking ends its guest's data is kept.
 * - clubs.privacy_url: the club's privacy notice, linked from the booking mails and pages.
 * - clubs.max_open_bookings_per_email: the club's own cap of upcoming bookings per address (null:
 *   the service's BOOKING_MAX_OPEN_PER_EMAIL); clubs.guests_may_book: false when only members may book.
 *
 * On PostgreSQL the exclusion constraint that makes overlapping bookings impossible now applies to
 * confirmed bookings only, so a cancelled slot can be booked again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)
  await db.schema.alterTable('bookings')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('confirmed').check(sql`status in ('confirmed', 'cancelled')`))
    .execute()
  await db.schema.alterTable('bookings').addColumn('cancelled_at', t.timestamp).execute()
  await db.schema.alterTable('bookings')
    .addColumn('cancelled_by', 'text', (col) => col.check(sql`cancelled_by in ('guest', 'club', 'hold')`))
    .execute()
  await db.schema.alterTable('bookings').addColumn('cancel_reason', 'text').execute()
  await db.schema.alterTable('bookings').addColumn('manage_token_hash', 'text').execute()
  await db.schema.createIndex('bookings_manage_token_idx').on('bookings').column('manage_token_hash').unique().execute()
  await db.schema.alterTable('bookings').addColumn('anonymised_at', t.timestamp).execute()
  await db.schema.createIndex('bookings_retention_idx').on('bookings').columns(['club_id', 'ends_at']).execute()
  await db.schema.createIndex('booking_requests_created_idx').on('booking_requests').column('created_at').execute()
  await db.schema.alterTable('clubs')
    .addColumn('cancellation_deadline_minutes', 'integer',
      (col) => col.notNull().defaultTo(120).check(sql`cancellation_deadline_minutes between 0 and 43200`))
    .execute()
  await db.schema.alterTable('clubs')
    .addColumn('booking_retention_days', 'integer', (col) => col.notNull().defaultTo(90).check(sql`booking_retention_days between 1 and 3650`))
    .execute()
  await db.schema.alterTable('clubs').addColumn('privacy_url', 'text').execute()
  await db.schema.alterTable('clubs')
    .addColumn('max_open_bookings_per_email', 'integer', (col) => col.check(sql`max_open_bookings_per_email between 1 and 1000`))
    .execute()
  await db.schema.alterTable('clubs').addColumn('guests_may_book', t.bool, (col) => col.notNull().defaultTo(sqlBoolean(dialect, true)))
    .execute()
  if (dialect === 'postgres') {
    await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db)
    await sql`alter table bookings add constraint bookings_no_overlap
      exclude using gist (court_id with =, tstzrange(starts_at, ends_at) with &&) where (status = 'confirmed')`.execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db)
    await sql`delete from bookings where status = 'cancelled'`.execute(db)
    await sql`alter table bookings add constraint bookings_no_overlap
      exclude using gist (court_id with =, tstzrange(starts_at, ends_at) with &&)`.execute(db)
  }
  await db.schema.dropIndex('bookings_manage_token_idx').execute()
  await db.schema.dropIndex('bookings_retention_idx').execute()
  await db.schema.dropIndex('booking_requests_created_idx').execute()
  for (const column of ['anonymised_at', 'manage_token_hash', 'cancel_reason', 'cancelled_by', 'cancelled_at', 'status']) {
    await db.schema.alterTable('bookings').dropColumn(column).execute()
  }
  for (const column of ['guests_may_book', 'max_open_bookings_per_email', 'privacy_url', 'booking_retention_days',
    'cancellation_deadline_minutes']) {
    await db.schema.alterTable('clubs').dropColumn(column).execute()
  }
}
