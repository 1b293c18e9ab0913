import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

/*
 * The audit log as a club reads it:
 * - target_name: what an entry's target was called when it happened (a court's name, a key's name
 *   and prefix, a person's address, an endpoint's URL), beside `target`, which keeps its id;
 * - detail: why, in the actor's words where there are some (the reason a booking was cancelled);
 * - kind: the part of `action` before its dot (`booking`, `court`, `sign_in`…), what the log is
 *   filtered by, backfilled for the entries before it;
 * - indexes for the filters by kind and by actor within a club, newest first.
 * The entries of a person (sign-ins, sign-outs, passkeys) are written from now on once for each club
 * the person administers, so that the club's owners read them there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('target_name', 'text').execute()
  await db.schema.alterTable('audit_log').addColumn('detail', 'text').execute()
  await db.schema.alterTable('audit_log').addColumn('kind', 'text').execute()
  await (dialectOf(db) === 'postgres'
    ? sql`update audit_log set kind = split_part(action, '.', 1)`
    : sql`update audit_log set kind = substr(action, 1, instr(action || '.', '.') - 1)`).execute(db)
  await db.schema.createIndex('audit_log_kind_idx').on('audit_log').columns(['club_id', 'kind', 'created_at']).execute()
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['club_id', 'actor', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_idx').execute()
  await db.schema.dropIndex('audit_log_kind_idx').execute()
  await db.schema.alterTable('audit_log').dropColumn('kind').execute()
  await db.schema.alterTable('audit_log').dropColumn('detail').execute()
  await db.schema.alterTable('audit_log').dropColumn('target_name').execute()
}
