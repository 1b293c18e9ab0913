/**
 * A club's content as its administrators see it: every member, group, event, news item and
 * competition result, listed or not. Each query takes the club id first. (What the read API lists
 * is in listings.ts.)
 */
import { sql } from 'kysely'
import type { Kysely, Selectable } from 'kysely'
import { descNullsLast, dialectOf } from '../dialect.js'
import type { Database } from '../schema.js'

export type ContentTable = 'members' | 'groups' | 'events' | 'news' | 'competition_results'
export type ContentRow<T extends ContentTable> = Selectable<Database[T]>

export async function listMembers(db: Kysely<Database>, clubId: string): Promise<(ContentRow<'members'> & { results: number })[]> {
  const rows = await db.selectFrom('members').selectAll('members')
    .select((eb) => eb.selectFrom('competition_results').select(eb.fn.countAll<string | number>().as('n'))
      .whereRef('competition_results.club_id', '=', 'members.club_id').whereRef('competition_results.member_id', '=', 'members.id')
      .as('results'))
    .where('members.club_id', '=', clubId).orderBy('members.name').orderBy('members.id').execute()
  return rows.map((row) => ({ ...row, results: Number(row.results ?? 0) }))
}

export async function listGroups(db: Kysely<Database>, clubId: string): Promise<ContentRow<'groups'>[]> {
  return db.selectFrom('groups').selectAll().where('club_id', '=', clubId).orderBy('name').orderBy('id').execute()
}

export async function listEvents(db: Kysely<Database>, clubId: string): Promise<ContentRow<'events'>[]> {
  return db.selectFrom('events').selectAll().where('club_id', '=', clubId).orderBy('starts_at', 'desc').orderBy('id').execute()
}

/** Drafts first, then by publication, the latest first. */
export async function listNews(db: Kysely<Database>, clubId: string): Promise<ContentRow<'news'>[]> {
  return db.selectFrom('news').selectAll().where('club_id', '=', clubId)
    .orderBy(sql`published_at is null`, 'desc').orderBy('published_at', 'desc').orderBy('id').execute()
}

/** In the read API's order: competition date, the latest first (none last), then recorded, the latest first. */
export async function listResults(db: Kysely<Database>, clubId: string): Promise<ContentRow<'competition_results'>[]> {
  return db.selectFrom('competition_results').selectAll().where('club_id', '=', clubId)
    .orderBy(sql`competition_date ${descNullsLast(dialectOf(db))}`).orderBy('created_at', 'desc').orderBy('id').execute()
}

export async function findContent<T extends ContentTable>(db: Kysely<Database>, table: T, clubId: string,
  id: string): Promise<ContentRow<T> | undefined> {
  // One query for any of the tables: Kysely types a union of tables loosely, the caller's T says which.
  const name: ContentTable = table
  const row: unknown = await db.selectFrom(name).selectAll().where('club_id', '=', clubId)
    .where('id', '=', id.toLowerCase()).executeTakeFirst()
  return row as ContentRow<T> | undefined
}

/**
 * Takes the record for a change if it is still at `version`: a write that changes nothing but
 * holds the row (PostgreSQL) or the database (SQLite) until the transaction ends, so that of two
 * edits from one version exactly one goes on. False: no such record, or another version.
 */
export async function claimVersion(db: Kysely<Database>, table: ContentTable, clubId: string, id: string,
  version: number): Promise<boolean> {
  const result = await db.updateTable(table).set((eb) => ({ version: eb.ref('version') })).where('club_id', '=', clubId)
    .where('id', '=', id.toLowerCase()).where('version', '=', version).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function deleteContent(db: Kysely<Database>, table: ContentTable, clubId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where('club_id', '=', clubId).where('id', '=', id.toLowerCase()).executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

export async function countResultsOfMember(db: Kysely<Database>, clubId: string, memberId: string): Promise<number> {
  const row = await db.selectFrom('competition_results').select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('club_id', '=', clubId).where('member_id', '=', memberId.toLowerCase()).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A member about to be removed: their bookings become guest bookings, their news items lose their author. */
export async function detachMember(db: Kysely<Database>, clubId: string, memberId: string): Promise<void> {
  const id = memberId.toLowerCase()
  await db.updateTable('bookings').set({ member_id: null }).where('club_id', '=', clubId).where('member_id', '=', id).execute()
  await db.updateTable('news').set({ created_by: null }).where('club_id', '=', clubId).where('created_by', '=', id).execute()
}
