import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * The dashboard keeps a club's content (docs/dashboard.md, "Content").
 *
 * - version on members, groups, events, news and competition_results: 1 when written first, one
 *   more with every change (the dashboard's editors, an import). An edit names the version it
 *   started from and is refused when the record has moved on, instead of overwriting the other edit.
 * - audit_log.fields: the fields an edit changed, a JSON array of names (never their values).
 * - the role `editor` (content only) beside owner and admin. SQLite cannot change a CHECK
 *   constraint in place, so there club_admins and admin_invitations are rebuilt.
 */
const VERSIONED = ['members', 'groups', 'events', 'news', 'competition_results'] as const
const ROLE_TABLES = ['club_admins', 'admin_invitations'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of VERSIONED) {
    await db.schema.alterTable(table).addColumn('version', 'integer', (col) => col.notNull().defaultTo(1)).execute()
  }
  await db.schema.alterTable('audit_log').addColumn('fields', 'text').execute()
  await allowRoles(db, ['owner', 'admin', 'editor'])
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from club_admins where role = 'editor'`.execute(db)
  await sql`delete from admin_invitations where role = 'editor'`.execute(db)
  await allowRoles(db, ['owner', 'admin'])
  await db.schema.alterTable('audit_log').dropColumn('fields').execute()
  for (const table of VERSIONED) await db.schema.alterTable(table).dropColumn('version').execute()
}

async function allowRoles(db: Kysely<unknown>, roles: readonly string[]): Promise<void> {
  const allowed = sql.join(roles.map((role) => sql.lit(role)))
  if (dialectOf(db) === 'postgres') {
    for (const table of ROLE_TABLES) {
      await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_role_check`)}`.execute(db)
      await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_role_check`)} check (role in (${allowed}))`
        .execute(db)
    }
    return
  }
  const t = columnTypes('sqlite')
  await sql`alter table club_admins rename to club_admins_old`.execute(db)
  await db.schema.createTable('club_admins')
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('admin_id', t.uuid, (col) => col.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in (${allowed})`))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('club_admins_pkey', ['club_id', 'admin_id'])
    .execute()
  await sql`insert into club_admins select club_id, admin_id, role, created_at from club_admins_old`.execute(db)
  await sql`drop table club_admins_old`.execute(db)
  await db.schema.createIndex('club_admins_admin_idx').on('club_admins').column('admin_id').execute()

  await sql`alter table admin_invitations rename to admin_invitations_old`.execute(db)
  await db.schema.createTable('admin_invitations')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in (${allowed})`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', t.uuid, (col) => col.references('admins.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('expires_at', t.timestamp, (col) => col.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .execute()
  await sql`insert into admin_invitations select id, club_id, email, role, token_hash, invited_by, created_at, expires_at,
    accepted_at, revoked_at from admin_invitations_old`.execute(db)
  await sql`drop table admin_invitations_old`.execute(db)
  await db.schema.createIndex('admin_invitations_club_idx').on('admin_invitations').columns(['club_id', 'created_at']).execute()
}
