import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, descNullsLast, dialectOf, sqlBoolean } from '../dialect.js'

/*
 * Every table that holds club data carries club_id, and references between club data are
 * composite foreign keys (club_id, x_id) → (club_id, id): the database itself refuses a row that
 * points at another club's group or member.
 *
 * Each list endpoint has one index that starts with club_id, holds the filter columns and then
 * the sort order, so a page is an index range scan of one club.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)

  await db.schema.createTable('clubs')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .execute()

  await db.schema.createTable('members')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addUniqueConstraint('members_club_id_id_key', ['club_id', 'id'])
    .addUniqueConstraint('members_club_id_email_key', ['club_id', 'email'])
    .execute()

  await db.schema.createTable('groups')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('name', t.sortableText, (col) => col.notNull())
    .addColumn('sport', 'text', (col) => col.notNull())
    .addColumn('age_min', 'integer')
    .addColumn('age_max', 'integer')
    .addColumn('level', 'text')
    .addColumn('description', 'text')
    .addColumn('active', t.bool, (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addUniqueConstraint('groups_club_id_id_key', ['club_id', 'id'])
    .execute()
  await db.schema.createIndex('groups_listing_idx').on('groups')
    .columns(['club_id', 'active', 'name', 'id']).execute()

  await db.schema.createTable('events')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('group_id', t.uuid)
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('starts_at', t.timestamp, (col) => col.notNull())
    .addColumn('ends_at', t.timestamp)
    .addColumn('location', 'text')
    .addColumn('public_booking', t.bool, (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addForeignKeyConstraint('events_group_fk', ['club_id', 'group_id'], 'groups', ['club_id', 'id'])
    .execute()
  // Partial: only listed events are in it, so `group_id IS NULL` need not precede starts_at (PostgreSQL
  // cannot sort by an index column that follows an IS NULL condition).
  await sql`create index events_listing_idx on events (club_id, starts_at, id)
    where public_booking = ${sqlBoolean(dialect, true)} and group_id is null`.execute(db)

  await db.schema.createTable('news')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('group_id', t.uuid)
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('published_at', t.timestamp)
    .addColumn('created_by', t.uuid)
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addForeignKeyConstraint('news_group_fk', ['club_id', 'group_id'], 'groups', ['club_id', 'id'])
    .addForeignKeyConstraint('news_created_by_fk', ['club_id', 'created_by'], 'members', ['club_id', 'id'])
    .execute()
  await sql`create index news_listing_idx on news (club_id, published_at desc, id)`.execute(db)

  await db.schema.createTable('competition_results')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('member_id', t.uuid, (col) => col.notNull())
    .addColumn('group_id', t.uuid, (col) => col.notNull())
    .addColumn('competition_name', 'text', (col) => col.notNull())
    .addColumn('discipline', 'text')
    .addColumn('placement', 'text')
    .addColumn('points', t.double)
    .addColumn('competition_date', t.date)
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addForeignKeyConstraint('results_member_fk', ['club_id', 'member_id'], 'members', ['club_id', 'id'])
    .addForeignKeyConstraint('results_group_fk', ['club_id', 'group_id'], 'groups', ['club_id', 'id'])
    .execute()
  await sql`create index competition_results_listing_idx on competition_results
    (club_id, competition_date ${descNullsLast(dialect)}, created_at desc, id)`.execute(db)

  await db.schema.createTable('api_keys')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('display_prefix', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .execute()
  await db.schema.createIndex('api_keys_club_idx').on('api_keys').columns(['club_id', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['api_keys', 'competition_results', 'news', 'events', 'groups', 'members', 'clubs']) {
    await db.schema.dropTable(table).execute()
  }
}
