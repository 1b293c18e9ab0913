import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

/*
 * Change tracking of API keys (src/db/changes.ts, migration 0004): every change of a key that
 * authentication reads (created, revoked, deleted, its scopes, expiry or limits edited) bumps the
 * one scope `api_keys`, so that a server trusts a key it has looked up for as long as no key has
 * changed since (src/services/api-keys.ts) instead of reading it again every second. The write of
 * last_used_at, at most once a minute per key in use, names only that column and bumps nothing.
 */
const KEY_SCOPE = 'api_keys'

/** Every column of api_keys but last_used_at: an update naming any of them is a change. */
const TRACKED = ['id', 'club_id', 'name', 'display_prefix', 'secret_hash', 'scopes', 'expires_at', 'created_at', 'revoked_at',
  'rate_capacity', 'rate_per_minute', 'daily_quota'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  const columns = sql.join(TRACKED.map((column) => sql.id(column)))
  if (dialectOf(db) === 'postgres') {
    // club_platform_notify_scope (migration 0004) notifies its argument as the scope.
    await sql`create trigger api_keys_changed after insert or delete or update of ${columns} on api_keys
      for each row execute function club_platform_notify_scope(${sql.lit(KEY_SCOPE)})`.execute(db)
    await sql`create trigger api_keys_truncated after truncate on api_keys
      for each statement execute function club_platform_notify_scope(${sql.lit(KEY_SCOPE)})`.execute(db)
    return
  }
  for (const [name, event] of [['insert', sql`insert`], ['update', sql`update of ${columns}`], ['delete', sql`delete`]] as const) {
    await sql`create trigger ${sql.id(`api_keys_${name}_changed`)} after ${event} on api_keys
      begin insert into data_versions (scope, version) values (${sql.lit(KEY_SCOPE)}, 1)
        on conflict (scope) do update set version = version + 1; end`.execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger api_keys_changed on api_keys`.execute(db)
    await sql`drop trigger api_keys_truncated on api_keys`.execute(db)
    return
  }
  for (const name of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.id(`api_keys_${name}_changed`)}`.execute(db)
}
