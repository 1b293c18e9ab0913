import type { Kysely } from 'kysely'

/*
 * bookings.calendar_sequence: how often the booking's calendar event has changed since its
 * confirmation (0). A move raises it, and so does the cancellation, so that each mail's iCalendar
 * part carries a higher SEQUENCE for the same UID and calendars update the event they hold
 * (RFC 5545 §3.8.7.4, RFC 5546 §2.1.5).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('calendar_sequence', 'integer', (col) => col.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('calendar_sequence').execute()
}
