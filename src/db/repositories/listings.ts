/**
 * The four read-API listings. Each takes the club id first: no query here can forget the tenant.
 * Each selects explicit columns (never a member's name or e-mail) and orders by a total order
 * that ends in the id, so that paging never skips or repeats a record.
 */
import { sql } from 'kysely'
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely'
import type { CompetitionResult } from '../../schemas/competition-result.js'
import type { Event } from '../../schemas/event.js'
import type { Group } from '../../schemas/group.js'
import type { News } from '../../schemas/news.js'
import { descNullsLast, dialectOf, sqlBoolean } from '../dialect.js'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'
import type { Page, PageRequest } from './page.js'

type Listing<Table extends keyof Database> = SelectQueryBuilder<Database, Table, object>

async function pageOf<Table extends keyof Database, Row, Out>(
  filtered: Listing<Table>,
  ordered: (query: Listing<Table>) => SelectQueryBuilder<Database, Table, Row>,
  page: PageRequest,
  toApi: (row: Row) => Out,
  knownTotal: number | undefined,
): Promise<Page<Out>> {
  const [rows, total] = await Promise.all([
    ordered(filtered).limit(page.limit).offset(page.offset).execute(),
    knownTotal ?? filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow().then((count) => count.total),
  ])
  return { rows: rows.map(toApi), total }
}

/*
 * Each resource's columns and its shape in the API: the listings and the webhooks' payloads
 * (src/webhooks/content-events.ts) both go through these.
 */
export const GROUP_COLUMNS = ['id', 'name', 'sport', 'age_min', 'age_max', 'level', 'description'] as const
export const EVENT_COLUMNS = ['id', 'title', 'starts_at', 'ends_at', 'location'] as const
export const NEWS_COLUMNS = ['id', 'title', 'content', 'published_at', 'created_by'] as const
export const RESULT_COLUMNS = ['id', 'member_id', 'group_id', 'competition_name', 'discipline', 'placement', 'points',
  'competition_date', 'created_at'] as const

type Row<Table extends keyof Database, Columns extends readonly (keyof Selectable<Database[Table]>)[]>
  = Pick<Selectable<Database[Table]>, Columns[number]>

export function eventOf(row: Row<'events', typeof EVENT_COLUMNS>): Event {
  return {
    id: row.id,
    title: row.title,
    starts_at: isoFromDb(row.starts_at),
    ends_at: isoFromDbOrNull(row.ends_at),
    location: row.location,
  }
}

export function newsOf(row: Omit<Row<'news', typeof NEWS_COLUMNS>, 'published_at'> & { published_at: Date | string }): News {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    published_at: isoFromDb(row.published_at),
    ...(row.created_by === null ? {} : { created_by: row.created_by }),
  }
}

export function resultOf(row: Row<'competition_results', typeof RESULT_COLUMNS>): CompetitionResult {
  return {
    id: row.id,
    member_id: row.member_id,
    group_id: row.group_id,
    competition_name: row.competition_name,
    discipline: row.discipline,
    placement: row.placement,
    points: row.points,
    competition_date: row.competition_date,
    created_at: isoFromDb(row.created_at),
  }
}

/** Active groups, by name then id. */
export function listGroups(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<Page<Group>> {
  return pageOf(
    db.selectFrom('groups').where('club_id', '=', clubId).where('active', '=', true),
    (query) => query.select(GROUP_COLUMNS).orderBy('name').orderBy('id'),
    page,
    (row) => row,
    knownTotal,
  )
}

/** Events released for public booking and assigned to no group, by start then id. */
export function listEvents(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<Page<Event>> {
  return pageOf(
    // The literal matches the predicate of the partial index events_listing_idx.
    db.selectFrom('events').where('club_id', '=', clubId)
      .where('public_booking', '=', sqlBoolean(dialectOf(db), true)).where('group_id', 'is', null),
    (query) => query.select(EVENT_COLUMNS).orderBy('starts_at').orderBy('id'),
    page,
    eventOf,
    knownTotal,
  )
}

/** The filter of listNews excludes drafts, whose published_at is null. */
function publishedAt(value: Date | string | null): string {
  if (value === null) throw new Error('a listed news item has no published_at')
  return isoFromDb(value)
}

/** News published at or before `now`, newest first, then id. */
export function listNews(
  db: Kysely<Database>,
  clubId: string,
  page: PageRequest,
  now: number,
  knownTotal?: number,
): Promise<Page<News>> {
  return pageOf(
    db.selectFrom('news').where('club_id', '=', clubId).where('published_at', '<=', isoForDb(now)),
    (query) => query.select(NEWS_COLUMNS).orderBy('published_at', 'desc').orderBy('id'),
    page,
    (row) => newsOf({ ...row, published_at: publishedAt(row.published_at) }),
    knownTotal,
  )
}

/** When the next news item scheduled after `now` is published (the news listing changes then), if any. */
export async function nextPublication(db: Kysely<Database>, clubId: string, now: number): Promise<number | undefined> {
  const next = await db.selectFrom('news').select('published_at').where('club_id', '=', clubId).where('published_at', '>', isoForDb(now))
    .orderBy('published_at').limit(1).executeTakeFirst()
  return next?.published_at == null ? undefined : Date.parse(isoFromDb(next.published_at))
}

/** Results by competition date (newest first, undated last), then recorded newest first, then id. */
export function listCompetitionResults(
  db: Kysely<Database>,
  clubId: string,
  page: PageRequest,
  knownTotal?: number,
): Promise<Page<CompetitionResult>> {
  return pageOf(
    db.selectFrom('competition_results').where('club_id', '=', clubId),
    (query) => query
      .select(RESULT_COLUMNS)
      .orderBy(sql`competition_date ${descNullsLast(dialectOf(db))}`)
      .orderBy('created_at', 'desc')
      .orderBy('id'),
    page,
    resultOf,
    knownTotal,
  )
}
