import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * Courts, what occupies them, and the mail outbox.
 *
 * - courts: opening hours are JSON ({"mon": {"open": "08:00", "close": "22:00"}, …}, club-local).
 * - court_holds: blocks (status `blocked`: maintenance, closure) and reservations (status
 *   `reserved`: training, matches), either one-off (starts_at/ends_at, instants) or weekly
 *   (weekday 1=Monday…7=Sunday, local start/end times, optional first/last local date).
 * - bookings: made through the public endpoint. On PostgreSQL an exclusion constraint makes two
 *   overlapping bookings of one court impossible, whatever the application does.
 * - booking_requests: Idempotency-Key records, so that a retried POST gets the original answer.
 * - mail_outbox: confirmation mails, written in the booking's transaction and delivered by the
 *   worker (src/mail/worker.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)

  await db.schema.createTable('courts')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('name', t.sortableText, (col) => col.notNull())
    .addColumn('sport', 'text', (col) => col.notNull())
    .addColumn('active', t.bool, (col) => col.notNull())
    .addColumn('slot_minutes', 'integer', (col) => col.notNull().check(sql`slot_minutes between 5 and 1440`))
    .addColumn('opening_hours', 'text', (col) => col.notNull())
    .addColumn('booking_horizon_days', 'integer', (col) => col.notNull().check(sql`booking_horizon_days between 0 and 366`))
    .addColumn('max_slots_per_booking', 'integer', (col) => col.notNull().check(sql`max_slots_per_booking between 1 and 48`))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addUniqueConstraint('courts_club_id_id_key', ['club_id', 'id'])
    .execute()
  await db.schema.createIndex('courts_listing_idx').on('courts').columns(['club_id', 'active', 'name', 'id']).execute()

  await db.schema.createTable('court_holds')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull())
    .addColumn('court_id', t.uuid, (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('block', 'reservation')`))
    .addColumn('reason', 'text')
    .addColumn('starts_at', t.timestamp)
    .addColumn('ends_at', t.timestamp)
    .addColumn('weekday', 'integer', (col) => col.check(sql`weekday between 1 and 7`))
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('valid_from', t.date)
    .addColumn('valid_until', t.date)
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addForeignKeyConstraint('court_holds_court_fk', ['club_id', 'court_id'], 'courts', ['club_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addCheckConstraint('court_holds_shape', sql`(starts_at is not null and ends_at is not null and ends_at > starts_at
      and weekday is null and start_time is null and end_time is null)
      or (starts_at is null and ends_at is null and weekday is not null and start_time is not null and end_time is not null
      and end_time > start_time)`)
    .execute()
  await db.schema.createIndex('court_holds_once_idx').on('court_holds').columns(['court_id', 'starts_at']).execute()
  await db.schema.createIndex('court_holds_weekly_idx').on('court_holds').columns(['court_id', 'weekday']).execute()

  if (dialect === 'postgres') await sql`create extension if not exists btree_gist`.execute(db)
  await db.schema.createTable('bookings')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull())
    .addColumn('court_id', t.uuid, (col) => col.notNull())
    .addColumn('starts_at', t.timestamp, (col) => col.notNull())
    .addColumn('ends_at', t.timestamp, (col) => col.notNull())
    .addColumn('booker_name', 'text', (col) => col.notNull())
    .addColumn('booker_email', 'text', (col) => col.notNull())
    .addColumn('member_id', t.uuid)
    .addColumn('notes', 'text')
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addForeignKeyConstraint('bookings_court_fk', ['club_id', 'court_id'], 'courts', ['club_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('bookings_member_fk', ['club_id', 'member_id'], 'members', ['club_id', 'id'])
    .addCheckConstraint('bookings_positive_length', sql`ends_at > starts_at`)
    .execute()
  await db.schema.createIndex('bookings_court_idx').on('bookings').columns(['court_id', 'starts_at']).execute()
  await db.schema.createIndex('bookings_booker_idx').on('bookings').columns(['club_id', 'booker_email', 'ends_at']).execute()
  if (dialect === 'postgres') {
    await sql`alter table bookings add constraint bookings_no_overlap
      exclude using gist (court_id with =, tstzrange(starts_at, ends_at) with &&)`.execute(db)
  }

  await db.schema.createTable('booking_requests')
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('booking_id', t.uuid, (col) => col.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('booking_requests_pkey', ['club_id', 'idempotency_key'])
    .execute()

  await db.schema.createTable('mail_outbox')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('booking_id', t.uuid, (col) => col.references('bookings.id').onDelete('set null'))
    .addColumn('message_id', 'text', (col) => col.notNull().unique())
    .addColumn('recipient_name', 'text', (col) => col.notNull())
    .addColumn('recipient_email', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text', (col) => col.notNull())
    .addColumn('ics', 'text')
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('pending', 'sending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('next_attempt_at', t.timestamp, (col) => col.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('sent_at', t.timestamp)
    .execute()
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['mail_outbox', 'booking_requests', 'bookings', 'court_holds', 'courts']) {
    await db.schema.dropTable(table).execute()
  }
}
