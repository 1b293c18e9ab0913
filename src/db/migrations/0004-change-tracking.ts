import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { dialectOf } from '../dialect.js'

/*
 * Change tracking for the response caches (src/db/changes.ts). Triggers, not application code,
 * record every change, so that a write from any path — the API, the command line, an import,
 * another instance, an operator's SQL — is seen by every server process.
 *
 * A change is recorded against a scope: `<area>:<club id>` for a club's listed data, `clubs` for
 * the clubs themselves. The courts listing's area `courts` covers courts, holds and bookings.
 *
 * - SQLite: a counter per scope in data_versions, bumped in the writing transaction (so it commits
 *   or rolls back with the change); a server reads it with one indexed look-up per cached request.
 * - PostgreSQL: pg_notify on the channel club_platform_changes, delivered at commit to every
 *   listening server process; TRUNCATE, which fires no row triggers, notifies `*` (everything).
 */
const AREAS: readonly (readonly [table: string, area: string])[] = [
  ['groups', 'groups'],
  ['events', 'events'],
  ['news', 'news'],
  ['competition_results', 'competition_results'],
  ['courts', 'courts'],
  ['court_holds', 'courts'],
  ['bookings', 'courts'],
]

const CHANGE_CHANNEL = 'club_platform_changes'

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create function club_platform_notify_change() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_argv[0] || ':' || old.club_id); end if;
        if tg_op <> 'DELETE' then perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_argv[0] || ':' || new.club_id); end if;
        return null;
      end $$`.execute(db)
    await sql`create function club_platform_notify_scope() returns trigger language plpgsql as $$
      begin
        perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_argv[0]);
        return null;
      end $$`.execute(db)
    for (const [table, area] of AREAS) {
      await sql`create trigger ${sql.id(`${table}_changed`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function club_platform_notify_change(${sql.lit(area)})`.execute(db)
      await sql`create trigger ${sql.id(`${table}_truncated`)} after truncate on ${sql.table(table)}
        for each statement execute function club_platform_notify_scope('*')`.execute(db)
    }
    await sql`create trigger clubs_changed after insert or update or delete on clubs
      for each row execute function club_platform_notify_scope('clubs')`.execute(db)
    await sql`create trigger clubs_truncated after truncate on clubs
      for each statement execute function club_platform_notify_scope('*')`.execute(db)
    return
  }

  await sql`create table data_versions (scope text primary key, version integer not null) without rowid`.execute(db)
  const bump = (scope: ReturnType<typeof sql>) => sql`insert into data_versions (scope, version) values (${scope}, 1)
    on conflict (scope) do update set version = version + 1;`
  for (const [table, area] of AREAS) {
    const prefix = sql.lit(`${area}:`)
    for (const [event, rows] of [['insert', ['new']], ['update', ['old', 'new']], ['delete', ['old']]] as const) {
      const bumps = rows.map((row) => bump(sql`${prefix} || ${sql.raw(row)}.club_id`))
      await sql`create trigger ${sql.id(`${table}_${event}_changed`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin ${sql.join(bumps, sql` `)} end`.execute(db)
    }
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.id(`clubs_${event}_changed`)} after ${sql.raw(event)} on clubs
      begin ${bump(sql.lit('clubs'))} end`.execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const table of [...AREAS.map(([name]) => name), 'clubs']) {
      await sql`drop trigger ${sql.id(`${table}_changed`)} on ${sql.table(table)}`.execute(db)
      await sql`drop trigger ${sql.id(`${table}_truncated`)} on ${sql.table(table)}`.execute(db)
    }
    await sql`drop function club_platform_notify_change()`.execute(db)
    await sql`drop function club_platform_notify_scope()`.execute(db)
    return
  }
  for (const table of [...AREAS.map(([name]) => name), 'clubs']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.id(`${table}_${event}_changed`)}`.execute(db)
    }
  }
  await sql`drop table data_versions`.execute(db)
}
