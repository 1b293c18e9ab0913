/**
 * The four read-API listings. Each takes the club id first: no query here can forget the tenant.
 * Each selects explicit columns (never a member's name or e-mail) and orders by a total order
 * that ends in the id, so that paging never skips or repeats a record.
 */
import { sql } from 'kysely'
import type { Kysely, RawBuilder, Selectable, SelectQueryBuilder } from 'kysely'
import type { CompetitionResult } from '../../schemas/competition-result.js'
import type { Event } from '../../schemas/event.js'
import type { Group } from '../../schemas/group.js'
import type { News } from '../../schemas/news.js'
import { compiledOnce } from '../compiled.js'
import type { Argument, CompiledOnce } from '../compiled.js'
import { descNullsLast, dialectOf, sqlBoolean } from '../dialect.js'
import { column, jsonArray, jsonObject, jsonObjectWithout, numberColumn } from '../json-pages.js'
import type { JsonProperty } from '../json-pages.js'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'
import type { JsonPage, Page, PageRequest } from './page.js'
import type { ResultAnchors } from './result-anchors.js'

type Filtered<Table extends keyof Database> = SelectQueryBuilder<Database, Table, object>

/**
 * A listing's two statements, each compiled once (src/db/compiled.ts): a miss of the response
 * cache runs one or both. Building them with Kysely on every miss was 1.5 % of a listing's
 * instructions (counted with callgrind); SQLite reading the rows is nearly all the rest.
 * `page` and `json` take the listing's arguments, then the limit and the offset; `count` the listing's.
 */
interface Listing<Args extends readonly Argument[], Row> {
  readonly page: CompiledOnce<[...Args, number, number], Row>
  /** SQLite only: the page as the JSON array of the API's items (src/db/json-pages.ts). */
  readonly json: CompiledOnce<[...Args, number, number], { body: string }>
  readonly count: CompiledOnce<Args, { total: number }>
}

/**
 * The listing of the rows `filtered` selects, in the order and with the columns `ordered` gives;
 * `item` is one row as the API's item, in SQLite's JSON (what the row's `toApi` of `pageOf` makes).
 */
function listing<Table extends keyof Database, Args extends readonly Argument[], Row>(
  filtered: (db: Kysely<Database>, ...args: Args) => Filtered<Table>,
  ordered: (query: Filtered<Table>, db: Kysely<Database>) => SelectQueryBuilder<Database, Table, Row>,
  item: RawBuilder<unknown>,
): Listing<Args, Row> {
  const pageQuery = (db: Kysely<Database>, args: readonly [...Args, number, number]) => {
    const limit = args[args.length - 2] as number
    const offset = args[args.length - 1] as number
    return ordered(filtered(db, ...(args.slice(0, -2) as unknown as Args)), db).limit(limit).offset(offset)
  }
  return {
    page: compiledOnce((db, ...args: [...Args, number, number]) => pageQuery(db, args), filtered.length + 1),
    json: compiledOnce((db, ...args: [...Args, number, number]) => db.selectFrom(pageQuery(db, args).as('page'))
      .select(jsonArray(item).as('body')), filtered.length + 1),
    count: compiledOnce((db, ...args: Args) => filtered(db, ...args).select((eb) => eb.fn.countAll<number>().as('total')),
      filtered.length - 1),
  }
}

/** The listing's total: `knownTotal`, or counted. */
async function totalOf<Args extends readonly Argument[]>(db: Kysely<Database>, count: CompiledOnce<Args, { total: number }>,
  args: Args, knownTotal: number | undefined): Promise<number> {
  if (knownTotal !== undefined) return knownTotal
  const [counted] = await count.execute(db, ...args)
  if (counted === undefined) throw new Error('a count returned no row')
  return counted.total
}

async function pageOf<Args extends readonly Argument[], Row, Out>(
  db: Kysely<Database>,
  { page: pageQuery, count }: Listing<Args, Row>,
  args: Args,
  page: PageRequest,
  toApi: (row: Row) => Out,
  knownTotal: number | undefined,
): Promise<Page<Out>> {
  const [rows, total] = await Promise.all([
    pageQuery.execute(db, ...args, page.limit, page.offset),
    totalOf(db, count, args, knownTotal),
  ])
  return { rows: rows.map(toApi), total }
}

/** The page pageOf reads, as the JSON array of the API's items (SQLite only). */
async function jsonPageOf<Args extends readonly Argument[], Row>(
  db: Kysely<Database>,
  { json, count }: Listing<Args, Row>,
  args: Args,
  page: PageRequest,
  knownTotal: number | undefined,
): Promise<JsonPage> {
  const [[row], total] = await Promise.all([
    json.execute(db, ...args, page.limit, page.offset),
    totalOf(db, count, args, knownTotal),
  ])
  if (row === undefined) throw new Error('a JSON page returned no row')
  return { json: row.body, total }
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

const groups = listing(
  (db, clubId: string) => db.selectFrom('groups').where('club_id', '=', clubId).where('active', '=', true),
  (query) => query.select(GROUP_COLUMNS).orderBy('name').orderBy('id'),
  jsonObject(GROUP_COLUMNS.map(column)),
)

/** Active groups, by name then id. */
export function listGroups(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<Page<Group>> {
  return pageOf(db, groups, [clubId], page, (row) => row, knownTotal)
}

/** listGroups' page as JSON (SQLite only). */
export function listGroupsJson(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<JsonPage> {
  return jsonPageOf(db, groups, [clubId], page, knownTotal)
}

const events = listing(
  // The literal matches the predicate of the partial index events_listing_idx.
  (db, clubId: string) => db.selectFrom('events').where('club_id', '=', clubId)
    .where('public_booking', '=', sqlBoolean(dialectOf(db), true)).where('group_id', 'is', null),
  (query) => query.select(EVENT_COLUMNS).orderBy('starts_at').orderBy('id'),
  jsonObject(EVENT_COLUMNS.map(column)),
)

/** Events released for public booking and assigned to no group, by start then id. */
export function listEvents(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<Page<Event>> {
  return pageOf(db, events, [clubId], page, eventOf, knownTotal)
}

/** listEvents' page as JSON (SQLite only). */
export function listEventsJson(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number): Promise<JsonPage> {
  return jsonPageOf(db, events, [clubId], page, knownTotal)
}

/** The filter of listNews excludes drafts, whose published_at is null. */
function publishedAt(value: Date | string | null): string {
  if (value === null) throw new Error('a listed news item has no published_at')
  return isoFromDb(value)
}

const news = listing(
  (db, clubId: string, now: string) => db.selectFrom('news').where('club_id', '=', clubId).where('published_at', '<=', now),
  (query) => query.select(NEWS_COLUMNS).orderBy('published_at', 'desc').orderBy('id'),
  // newsOf: no created_by when it is unknown.
  jsonObjectWithout(NEWS_COLUMNS.map(column), 'created_by'),
)

/** News published at or before `now`, newest first, then id. */
export function listNews(
  db: Kysely<Database>,
  clubId: string,
  page: PageRequest,
  now: number,
  knownTotal?: number,
): Promise<Page<News>> {
  return pageOf(db, news, [clubId, isoForDb(now)], page, (row) => newsOf({ ...row, published_at: publishedAt(row.published_at) }),
    knownTotal)
}

/** listNews' page as JSON (SQLite only). */
export function listNewsJson(db: Kysely<Database>, clubId: string, page: PageRequest, now: number, knownTotal?: number,
): Promise<JsonPage> {
  return jsonPageOf(db, news, [clubId, isoForDb(now)], page, knownTotal)
}

const nextPublished = compiledOnce((db, clubId: string, now: string) => db.selectFrom('news').select('published_at')
  .where('club_id', '=', clubId).where('published_at', '>', now).orderBy('published_at').limit(1))

/** When the next news item scheduled after `now` is published (the news listing changes then), if any. */
export async function nextPublication(db: Kysely<Database>, clubId: string, now: number): Promise<number | undefined> {
  const [next] = await nextPublished.execute(db, clubId, isoForDb(now))
  return next?.published_at == null ? undefined : Date.parse(isoFromDb(next.published_at))
}

/** Results in the listing's order: by competition date (newest first, undated last), then recorded newest first, then id. */
export function inResultOrder<Selected>(query: SelectQueryBuilder<Database, 'competition_results', Selected>,
  db: Kysely<Database>): SelectQueryBuilder<Database, 'competition_results', Selected> {
  return query.orderBy(sql`competition_date ${descNullsLast(dialectOf(db))}`).orderBy('created_at', 'desc').orderBy('id')
}

/** A listed result as the API's item, in SQLite's JSON. */
export const RESULT_JSON_ITEM = jsonObject(RESULT_COLUMNS.map((name): JsonProperty => (name === 'points'
  ? numberColumn(name)
  : column(name))))

const results = listing(
  (db, clubId: string) => db.selectFrom('competition_results').where('club_id', '=', clubId),
  (query, db) => inResultOrder(query.select(RESULT_COLUMNS), db),
  RESULT_JSON_ITEM,
)

/** Results by competition date (newest first, undated last), then recorded newest first, then id. */
export function listCompetitionResults(
  db: Kysely<Database>,
  clubId: string,
  page: PageRequest,
  knownTotal?: number,
): Promise<Page<CompetitionResult>> {
  return pageOf(db, results, [clubId], page, resultOf, knownTotal)
}

/** Where a page of results may be read from an anchor: the reader thread's anchors, and the version of the read's snapshot. */
export interface ResultSeek {
  readonly anchors: ResultAnchors
  readonly version: number
}

/** listCompetitionResults' page as JSON (SQLite only), from its keyset anchor when `seek` is given and has one. */
export async function listCompetitionResultsJson(db: Kysely<Database>, clubId: string, page: PageRequest, knownTotal?: number,
  seek?: ResultSeek): Promise<JsonPage> {
  const anchored = seek === undefined ? undefined : await seek.anchors.page(db, clubId, seek.version, page)
  if (anchored === undefined) return jsonPageOf(db, results, [clubId], page, knownTotal)
  return { json: anchored, total: await totalOf(db, results.count, [clubId], knownTotal) }
}
