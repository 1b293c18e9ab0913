import type { Kysely } from 'kysely'

/*
 * The invitations sent to one address in the last day, across clubs (src/services/admins.ts limits
 * them, as the booking mails are limited): counted through this index, never over every invitation.
 * Those of one club are counted through admin_invitations_club_idx (club_id, created_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('admin_invitations_email_idx').on('admin_invitations').columns(['email', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('admin_invitations_email_idx').execute()
}
