import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf, sqlBoolean } from '../dialect.js'

/*
 * The waiting list (docs/waiting-list.md).
 *
 * - waiting_list_entries: an address waiting for one taken slot of a court (its start and end),
 *   with the name and language its mails use and the token of its stop link, which every mail about
 *   the entry carries (kept as is to write those mails; looked up by its SHA-256). An entry
 *   is open until it ends (`ended_at`, `end_reason`: stopped, booked) or its slot starts; each
 *   mail saying the slot is free counts in `notified`.
 * - waiting_list_slot_idx: a court's open entries by start, what a freed slot and the planner read.
 * - waiting_list_open_idx: one open entry per address and slot.
 * - waiting_list_address_idx: an address's entries by creation, for its limits across clubs.
 * - waiting_list_start_idx: every entry by start, for retention to remove those whose slot has passed.
 * - clubs.waiting_list: false when the club has switched the waiting list off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)
  await db.schema.createTable('waiting_list_entries')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('court_id', t.uuid, (col) => col.notNull())
    .addColumn('starts_at', t.timestamp, (col) => col.notNull())
    .addColumn('ends_at', t.timestamp, (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('stop_token', 'text', (col) => col.notNull())
    .addColumn('stop_token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('notified', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('ended_at', t.timestamp)
    .addColumn('end_reason', 'text')
    .execute()
  await sql`create index waiting_list_slot_idx on waiting_list_entries (club_id, court_id, starts_at)
    where ended_at is null`.execute(db)
  await sql`create unique index waiting_list_open_idx on waiting_list_entries (club_id, court_id, starts_at, email)
    where ended_at is null`.execute(db)
  await db.schema.createIndex('waiting_list_address_idx').on('waiting_list_entries').columns(['email', 'created_at']).execute()
  await db.schema.createIndex('waiting_list_start_idx').on('waiting_list_entries').columns(['starts_at']).execute()
  await db.schema.alterTable('clubs')
    .addColumn('waiting_list', t.bool, (col) => col.notNull().defaultTo(sqlBoolean(dialect, true))).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clubs').dropColumn('waiting_list').execute()
  await db.schema.dropTable('waiting_list_entries').execute()
}
