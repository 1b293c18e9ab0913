import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

/*
 * Change tracking of dashboard access (src/db/changes.ts, migration 0004): every change that the
 * dashboard's access check reads — a session created, revoked or deleted, a person's address, a
 * membership granted, changed or removed — bumps the one scope `dashboard_access`, so that a server
 * trusts a session and a membership it has looked up for as long as nothing of them has changed
 * (src/services/dashboard-sessions.ts) instead of reading both on every request. The write of
 * last_seen_at, at most once a minute per session in use, names only that column and bumps nothing.
 */
const ACCESS_SCOPE = 'dashboard_access'

/** Each table the access check reads, with what of an update is a change (undefined: any update). */
const TRACKED: readonly (readonly [table: string, columns: readonly string[] | undefined])[] = [
  ['admin_sessions', ['id', 'token_hash', 'admin_id', 'method', 'created_at', 'expires_at', 'address', 'user_agent', 'revoked_at']],
  ['admins', ['id', 'email']],
  ['club_admins', undefined],
]

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  for (const [table, tracked] of TRACKED) {
    const update = tracked === undefined ? sql`update` : sql`update of ${sql.join(tracked.map((column) => sql.id(column)))}`
    if (postgres) {
      // club_platform_notify_scope (migration 0004) notifies its argument as the scope.
      await sql`create trigger ${sql.id(`${table}_access_changed`)} after insert or delete or ${update} on ${sql.id(table)}
        for each row execute function club_platform_notify_scope(${sql.lit(ACCESS_SCOPE)})`.execute(db)
      await sql`create trigger ${sql.id(`${table}_access_truncated`)} after truncate on ${sql.id(table)}
        for each statement execute function club_platform_notify_scope(${sql.lit(ACCESS_SCOPE)})`.execute(db)
      continue
    }
    for (const [name, event] of [['insert', sql`insert`], ['update', update], ['delete', sql`delete`]] as const) {
      await sql`create trigger ${sql.id(`${table}_access_${name}_changed`)} after ${event} on ${sql.id(table)}
        begin insert into data_versions (scope, version) values (${sql.lit(ACCESS_SCOPE)}, 1)
          on conflict (scope) do update set version = version + 1; end`.execute(db)
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  for (const [table] of TRACKED) {
    if (postgres) {
      await sql`drop trigger ${sql.id(`${table}_access_changed`)} on ${sql.id(table)}`.execute(db)
      await sql`drop trigger ${sql.id(`${table}_access_truncated`)} on ${sql.id(table)}`.execute(db)
      continue
    }
    for (const name of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.id(`${table}_access_${name}_changed`)}`.execute(db)
  }
}
