/**
 * What each authenticated list reads, by its area of change tracking (migration 0004): its
 * repository function, the moment it changes with the clock alone, and its envelope schema. The
 * route (src/routes/list-route.ts) and the reader threads (src/speed/list-readers.ts) read a page
 * through `readListPage`, so a page read on either is the same read.
 */
import type { TSchema } from '@sinclair/typebox'
import type { Kysely } from 'kysely'
import {
  listCompetitionResults, listCompetitionResultsJson, listEvents, listEventsJson, listGroups, listGroupsJson, listNews,
  listNewsJson, nextPublication,
} from '../db/repositories/listings.js'
import type { ResultSeek } from '../db/repositories/listings.js'
import type { JsonPage, Page, PageRequest } from '../db/repositories/page.js'
import type { ResultAnchors } from '../db/repositories/result-anchors.js'
import type { Database } from '../db/schema.js'
import { CompetitionResult, CompetitionResultList } from '../schemas/competition-result.js'
import { ListMeta } from '../schemas/common.js'
import { Event, EventList } from '../schemas/event.js'
import { Group, GroupList } from '../schemas/group.js'
import { News, NewsList } from '../schemas/news.js'

export type { PageRequest } from '../db/repositories/page.js'
/** The database a list page is read from. */
export type ListDatabase = Kysely<Database>

/**
 * A read of a club's page of a list, counting its records unless `knownTotal` is given; `seek`: a
 * reader thread's keyset anchors, which a listing may read a deep page from (src/db/repositories/result-anchors.ts).
 */
type PageReader<Result> = (db: Kysely<Database>, clubId: string, page: PageRequest, now: number,
  knownTotal: number | undefined, seek?: ResultSeek) => Promise<Result>

export type ListQueryFunction = PageReader<Page<unknown>>
export type ListJsonFunction = PageReader<JsonPage>

export interface ListRead {
  readonly list: ListQueryFunction
  /** The same page as the JSON array of its items, as the route's serialiser writes them (SQLite only: src/db/json-pages.ts). */
  readonly json: ListJsonFunction
  /** The first moment after `now` at which the listing changes with the clock alone (scheduled news). */
  readonly changesAt?: (db: Kysely<Database>, clubId: string, now: number) => Promise<number | undefined>
  /** The item's schema and its list envelope (`GroupList`), both registered with app.addSchema. */
  readonly item: TSchema
  readonly envelope: TSchema
}

export const LIST_READS = {
  groups: { item: Group, envelope: GroupList,
    list: (db, clubId, page, _now, knownTotal) => listGroups(db, clubId, page, knownTotal),
    json: (db, clubId, page, _now, knownTotal) => listGroupsJson(db, clubId, page, knownTotal) },
  events: { item: Event, envelope: EventList,
    list: (db, clubId, page, _now, knownTotal) => listEvents(db, clubId, page, knownTotal),
    json: (db, clubId, page, _now, knownTotal) => listEventsJson(db, clubId, page, knownTotal) },
  // An item scheduled for later appears at its publication time, not when a cached page happens to go.
  news: { item: News, envelope: NewsList, list: listNews, json: listNewsJson, changesAt: nextPublication },
  competition_results: { item: CompetitionResult, envelope: CompetitionResultList,
    list: (db, clubId, page, _now, knownTotal) => listCompetitionResults(db, clubId, page, knownTotal),
    json: (db, clubId, page, _now, knownTotal, seek) => listCompetitionResultsJson(db, clubId, page, knownTotal, seek) },
} as const satisfies Record<string, ListRead>

export type ListArea = keyof typeof LIST_READS

/** The schemas a list envelope refers to, besides its item's. */
export const LIST_SHARED_SCHEMAS: readonly TSchema[] = [ListMeta]

/** A list's total, counted under a data version and good until the clock reaches `validUntil`. */
export interface KnownTotal { readonly version: number, readonly validUntil: number, readonly total: number }

export interface ListPage {
  /** What the route's 200 schema serialises. */
  readonly payload: { readonly data: readonly unknown[], readonly meta: PageRequest & { readonly total: number } }
  /** The clock time at which the page changes without any write (Infinity: only a write changes it). */
  readonly validUntil: number
  /** The total, when it was counted by this read (to be remembered under `version`). */
  readonly counted: KnownTotal | undefined
}

/**
 * Reads one page of a club's list under the data version `version` (undefined: changes cannot be
 * observed), counting its records unless `known` was counted under the same version and is still
 * good at `now`.
 */
export async function readListPage(read: ListRead, db: Kysely<Database>, clubId: string, page: PageRequest, now: number,
  known: KnownTotal | undefined, version: number | undefined): Promise<ListPage> {
  const { result, validUntil, counted } = await readWith(read, read.list, db, clubId, page, now, known, version)
  return { payload: { data: result.rows, meta: { ...page, total: result.total } }, validUntil, counted }
}

/** A page as readListPage reads it, serialised as the route's 200 schema serialises it (SQLite only). */
export interface ListBody {
  readonly body: string
  readonly validUntil: number
  readonly counted: KnownTotal | undefined
}

/**
 * readListPage's page, read as JSON by SQLite (src/db/json-pages.ts) and put in its envelope: the
 * text the route's serialiser writes for readListPage's payload (test/speed/list-json.test.ts). With
 * `anchors` (a reader thread's), a deep page of results is read from its keyset anchor.
 */
export async function readListBody(read: ListRead, db: Kysely<Database>, clubId: string, page: PageRequest, now: number,
  known: KnownTotal | undefined, version: number | undefined, anchors?: ResultAnchors): Promise<ListBody> {
  const seek = anchors === undefined || version === undefined ? undefined : { anchors, version }
  const { result, validUntil, counted } = await readWith(read, read.json, db, clubId, page, now, known, version, seek)
  // The envelope and ListMeta in their schemas' order; the three are integers.
  const meta = `{"limit":${String(page.limit)},"offset":${String(page.offset)},"total":${String(result.total)}}`
  return { body: `{"data":${result.json},"meta":${meta}}`, validUntil, counted }
}

async function readWith<Result extends { readonly total: number }>(read: ListRead, list: PageReader<Result>,
  db: Kysely<Database>, clubId: string, page: PageRequest, now: number, known: KnownTotal | undefined,
  version: number | undefined, seek?: ResultSeek,
): Promise<{ result: Result, validUntil: number, counted: KnownTotal | undefined }> {
  const current = known !== undefined && known.version === version && now < known.validUntil
  const [result, changesAt] = await Promise.all([
    list(db, clubId, page, now, current ? known.total : undefined, seek),
    read.changesAt?.(db, clubId, now),
  ])
  const validUntil = changesAt ?? Number.POSITIVE_INFINITY
  const counted = version === undefined || current ? undefined : { version, validUntil, total: result.total }
  return { result, validUntil, counted }
}
