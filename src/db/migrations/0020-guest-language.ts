import type { Kysely } from 'kysely'

/*
 * The guest's language and the club's contact (docs/bookings.md, "Mails to guests"):
 * - clubs.language: the language of the club's booking widget, pages and guest mails when the guest's
 *   browser names none the service speaks; clubs.contact_email: the address guests' replies reach
 *   (the Reply-To of the booking mails and the calendar event's organiser), null for none.
 * - bookings.language: the language the booking was made in; every mail about it is written in it.
 * - mail_outbox.sender_name and reply_to: the From display name (the club's name) and Reply-To
 *   of a queued mail, null for the service's own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clubs').addColumn('language', 'text', (col) => col.notNull().defaultTo('en')).execute()
  await db.schema.alterTable('clubs').addColumn('contact_email', 'text').execute()
  await db.schema.alterTable('bookings').addColumn('language', 'text', (col) => col.notNull().defaultTo('en')).execute()
  await db.schema.alterTable('mail_outbox').addColumn('sender_name', 'text').execute()
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('reply_to').execute()
  await db.schema.alterTable('mail_outbox').dropColumn('sender_name').execute()
  await db.schema.alterTable('bookings').dropColumn('language').execute()
  await db.schema.alterTable('clubs').dropColumn('contact_email').execute()
  await db.schema.alterTable('clubs').dropColumn('language').execute()
}
