import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * The club dashboard's people and their sign-in (docs/dashboard.md).
 *
 * - admins: a person, known by e-mail address (stored lower-case), who administers one or more clubs.
 * - club_admins: the membership of a person in a club, with a role; the club is the tenant.
 * - admin_invitations, sign_in_links, admin_sessions: single-use or revocable secrets, of which
 *   only the SHA-256 hash is stored.
 * - passkeys, webauthn_challenges: WebAuthn credentials and the challenges of ceremonies in progress
 *   (in the database, so that any instance may finish a ceremony another began).
 * - audit_log: every administrative action, with actor, club, time, address and target; never a secret.
 *
 * Sign-in links are mail that belongs to no club, so mail_outbox.club_id becomes nullable (a
 * rebuild of the table on SQLite, which cannot drop a NOT NULL constraint in place).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)

  await db.schema.createTable('admins')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('last_sign_in_at', t.timestamp)
    .execute()

  await db.schema.createTable('club_admins')
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('admin_id', t.uuid, (col) => col.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin')`))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('club_admins_pkey', ['club_id', 'admin_id'])
    .execute()
  await db.schema.createIndex('club_admins_admin_idx').on('club_admins').column('admin_id').execute()

  await db.schema.createTable('admin_invitations')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin')`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', t.uuid, (col) => col.references('admins.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('expires_at', t.timestamp, (col) => col.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .execute()
  await db.schema.createIndex('admin_invitations_club_idx').on('admin_invitations').columns(['club_id', 'created_at']).execute()

  await db.schema.createTable('sign_in_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('admin_id', t.uuid, (col) => col.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('expires_at', t.timestamp, (col) => col.notNull())
    .addColumn('used_at', t.timestamp)
    .execute()
  await db.schema.createIndex('sign_in_links_admin_idx').on('sign_in_links').columns(['admin_id', 'created_at']).execute()

  await db.schema.createTable('admin_sessions')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('admin_id', t.uuid, (col) => col.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('link', 'invitation', 'passkey')`))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('last_seen_at', t.timestamp, (col) => col.notNull())
    .addColumn('expires_at', t.timestamp, (col) => col.notNull())
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('revoked_at', t.timestamp)
    .execute()
  await db.schema.createIndex('admin_sessions_admin_idx').on('admin_sessions').column('admin_id').execute()

  await db.schema.createTable('passkeys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('admin_id', t.uuid, (col) => col.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('counter', 'bigint', (col) => col.notNull())
    .addColumn('transports', 'text', (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute()
  await db.schema.createIndex('passkeys_admin_idx').on('passkeys').column('admin_id').execute()

  await db.schema.createTable('webauthn_challenges')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('admin_id', t.uuid, (col) => col.references('admins.id').onDelete('cascade'))
    .addColumn('challenge', 'text', (col) => col.notNull())
    .addColumn('expires_at', t.timestamp, (col) => col.notNull())
    .execute()

  await db.schema.createTable('audit_log')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.references('clubs.id').onDelete('cascade'))
    .addColumn('actor_admin_id', t.uuid, (col) => col.references('admins.id').onDelete('set null'))
    /** The actor as shown: an e-mail address, or `operator` for the command line. */
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target', 'text')
    .addColumn('address', 'text')
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('audit_log_club_idx').on('audit_log').columns(['club_id', 'created_at']).execute()

  if (dialect === 'postgres') {
    await sql`alter table mail_outbox alter column club_id drop not null`.execute(db)
  } else {
    await sql`alter table mail_outbox rename to mail_outbox_old`.execute(db)
    await db.schema.createTable('mail_outbox')
      .addColumn('id', t.uuid, (col) => col.primaryKey())
      .addColumn('club_id', t.uuid, (col) => col.references('clubs.id').onDelete('cascade'))
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
    await sql`insert into mail_outbox select id, club_id, booking_id, message_id, recipient_name, recipient_email, subject,
      text_body, html_body, ics, status, attempts, next_attempt_at, locked_until, last_error, created_at, sent_at
      from mail_outbox_old`.execute(db)
    await sql`drop table mail_outbox_old`.execute(db)
    await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute()
    await db.schema.createIndex('mail_outbox_recipient_created_idx').on('mail_outbox').columns(['recipient_email', 'created_at']).execute()
  }
}
