import { sql } from 'kysely'
import type { Kysely } from 'kysely'

/*
 * Indexes that bound the work on the tables that grow with the clubs' history by the work itself:
 * - bookings by club and start: the dashboard's day, search and export;
 * - bookings that still hold a guest's data, by club and end: what retention anonymises next
 *   (partial: the anonymised history is not in it), in place of the index of every booking by end;
 * - mails by booking (partial: notices have none) and idempotency records by booking: what goes
 *   with an anonymised or erased booking;
 * - delivered or given-up notices by club and age (partial): what retention removes next;
 * - mails by address in any spelling: a person's export and erasure;
 * - finished webhook deliveries by end, and webhook messages by age: what their log's retention
 *   removes next.
 * On PostgreSQL each is built under a lock that holds writes to its table for the time the build
 * takes (docs/operations.md, "Upgrades").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('bookings_club_start_idx').on('bookings').columns(['club_id', 'starts_at']).execute()
  await db.schema.createIndex('bookings_to_anonymise_idx').on('bookings').columns(['club_id', 'ends_at'])
    .where(sql.ref('anonymised_at'), 'is', null).execute()
  await db.schema.dropIndex('bookings_retention_idx').execute()
  await db.schema.createIndex('mail_outbox_booking_idx').on('mail_outbox').column('booking_id')
    .where(sql.ref('booking_id'), 'is not', null).execute()
  await db.schema.createIndex('booking_requests_booking_idx').on('booking_requests').column('booking_id').execute()
  await db.schema.createIndex('mail_outbox_notices_idx').on('mail_outbox').columns(['club_id', 'created_at'])
    .where(sql<boolean>`booking_id is null and status in ('sent', 'failed')`).execute()
  await db.schema.createIndex('mail_outbox_recipient_lower_idx').on('mail_outbox').expression(sql`lower(recipient_email)`).execute()
  await db.schema.createIndex('webhook_messages_created_idx').on('webhook_messages').columns(['created_at', 'id']).execute()
  await db.schema.createIndex('webhook_deliveries_finished_idx').on('webhook_deliveries').column('finished_at')
    .where(sql.ref('finished_at'), 'is not', null).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['webhook_deliveries_finished_idx', 'webhook_messages_created_idx', 'mail_outbox_recipient_lower_idx', 'mail_outbox_notices_idx',
    'booking_requests_booking_idx', 'mail_outbox_booking_idx', 'bookings_to_anonymise_idx', 'bookings_club_start_idx']) {
    await db.schema.dropIndex(index).execute()
  }
  await db.schema.createIndex('bookings_retention_idx').on('bookings').columns(['club_id', 'ends_at']).execute()
}
