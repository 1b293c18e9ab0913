import type { Kysely } from 'kysely'

/*
 * The look-ups of the per-address limits of the public booking endpoint, across all clubs: the
 * bookings made with an address in the last day, and the notices already mailed to an address
 * (outbox rows without a booking).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('bookings_booker_email_created_idx').on('bookings').columns(['booker_email', 'created_at']).execute()
  await db.schema.createIndex('mail_outbox_recipient_created_idx').on('mail_outbox').columns(['recipient_email', 'created_at']).execute()
}
