import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'

/*
 * What the guest's pages, mails and widget say and keep (docs/bookings.md, docs/integration.md):
 *
 * - clubs.contact_phone and clubs.address: the club's phone number and postal address, shown where
 *   a guest is sent to the club (the booking's page after its deadline), and the address as the
 *   calendar event's location; null for none.
 * - booking_requests.idempotency_key now holds the SHA-256 (hex) of the key the client sent, and
 *   manage_token_sealed the booking's manage token sealed under that key (AES-256-GCM, a key derived
 *   from the client's): a retried request gets the booking's page back, a copy of the database none.
 *   The keys of the day's records are hashed here; records are kept 24 hours.
 * - mail_outbox.unsubscribe_url: the one-click stop link (RFC 8058) of a waiting list mail, sent as
 *   its List-Unsubscribe header; null for other mails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clubs').addColumn('contact_phone', 'text').execute()
  await db.schema.alterTable('clubs').addColumn('address', 'text').execute()
  await db.schema.alterTable('booking_requests').addColumn('manage_token_sealed', 'text').execute()
  await db.schema.alterTable('mail_outbox').addColumn('unsubscribe_url', 'text').execute()
  const requests = db as unknown as Kysely<{ booking_requests: { club_id: string, idempotency_key: string } }>
  const rows = await requests.selectFrom('booking_requests').select(['club_id', 'idempotency_key']).execute()
  for (const row of rows) {
    await requests.updateTable('booking_requests')
      .set({ idempotency_key: createHash('sha256').update(row.idempotency_key).digest('hex') })
      .where('club_id', '=', row.club_id).where('idempotency_key', '=', row.idempotency_key).execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The clients' keys cannot be had back from their hashes: the day's idempotency records go.
  await db.deleteFrom('booking_requests' as never).execute()
  await db.schema.alterTable('mail_outbox').dropColumn('unsubscribe_url').execute()
  await db.schema.alterTable('booking_requests').dropColumn('manage_token_sealed').execute()
  await db.schema.alterTable('clubs').dropColumn('address').execute()
  await db.schema.alterTable('clubs').dropColumn('contact_phone').execute()
}
