/**
 * Keyset anchors for the deep pages of a club's competition results, read on the list reader
 * threads (SQLite, src/speed/list-readers.ts). SQLite reads a page at offset 1,000 by stepping
 * over a thousand entries of the listing's index before its first row: 60 of the 150 µs such a
 * page took on the benchmark's machine. An anchor is the sort key of
 * every `every`th result of a club's list (the 100th, the 200th, …) under one data version; a page
 * is read from the nearest anchor at or before its offset, which SQLite finds by searching the
 * index (competition_results_listing_idx) for the anchor's date, and steps over fewer than `every`
 * entries from there. A club's anchors are found as far as a page needs them, each from the one
 * before, and forgotten when its results change (a new version).
 *
 * The search reaches dated results only (`competition_date <= ?` is not true of an undated one,
 * and undated results are listed last): an anchor is always a dated result, and a page read from
 * one that comes back short while the club has undated results is read by offset instead.
 * test/speed/result-anchors.test.ts holds every page read from an anchor equal to the page read by offset.
 */
import type { Kysely } from 'kysely'
import { compiledOnce } from '../compiled.js'
import { jsonArray } from '../json-pages.js'
import type { Database } from '../schema.js'
import { inResultOrder, RESULT_COLUMNS, RESULT_JSON_ITEM } from './listings.js'
import type { PageRequest } from './page.js'

/** A result's place in the listing's order. */
interface Anchor {
  readonly date: string
  readonly createdAt: string
  readonly id: string
}

interface ClubAnchors {
  readonly version: number
  /** How many of the club's results are undated (listed after every dated one). */
  readonly undated: number
  /** The anchors found so far: the `every`th result, the 2 × `every`th, … */
  readonly found: Anchor[]
  /** Set once there is no further dated result to anchor to. */
  ended: boolean
}

/** The default distance between anchors: a page read from one steps over 50 index entries on average. */
export const ANCHOR_EVERY = 100

/** Clubs whose anchors a thread keeps (a few kilobytes each); past this many it starts again. */
const MAX_CLUBS = 2_000

/** The club's dated results from the anchor on, in the listing's order: the index is searched for the anchor's date. */
function fromAnchor(db: Kysely<Database>, clubId: string, date: string, createdAt: string, id: string) {
  return db.selectFrom('competition_results').where('club_id', '=', clubId).where('competition_date', '<=', date)
    .where((eb) => eb.not(eb.and([eb('competition_date', '=', date), eb.or([eb('created_at', '>', createdAt),
      eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])])])))
}

const ANCHOR_COLUMNS = ['competition_date', 'created_at', 'id'] as const

const firstAnchor = compiledOnce((db, clubId: string, skip: number) => inResultOrder(db.selectFrom('competition_results')
  .where('club_id', '=', clubId).select(ANCHOR_COLUMNS), db).limit(1).offset(skip))

const nextAnchor = compiledOnce((db, clubId: string, date: string, createdAt: string, id: string, skip: number) =>
  inResultOrder(fromAnchor(db, clubId, date, createdAt, id).select(ANCHOR_COLUMNS), db).limit(1).offset(skip))

const undatedResults = compiledOnce((db, clubId: string) => db.selectFrom('competition_results').where('club_id', '=', clubId)
  .where('competition_date', 'is', null).select((eb) => eb.fn.countAll<number>().as('total')))

const pageFromAnchor = compiledOnce((db, clubId: string, date: string, createdAt: string, id: string, limit: number,
  offset: number) => db.selectFrom(inResultOrder(fromAnchor(db, clubId, date, createdAt, id).select(RESULT_COLUMNS), db)
  .limit(limit).offset(offset).as('page')).select((eb) => [jsonArray(RESULT_JSON_ITEM).as('body'), eb.fn.countAll<number>().as('rows')]))

/** One reader thread's anchors, by club. */
export class ResultAnchors {
  private readonly clubs = new Map<string, ClubAnchors>()

  constructor(private readonly every = ANCHOR_EVERY) {}

  /**
   * The page of the club's results as listCompetitionResultsJson reads it by offset (the JSON
   * array of its items), read from its anchor; undefined when it is to be read by offset. Runs in
   * the read's snapshot, whose data version is `version`.
   */
  async page(db: Kysely<Database>, clubId: string, version: number, page: PageRequest): Promise<string | undefined> {
    const nearest = Math.floor(page.offset / this.every)
    if (nearest === 0) return undefined
    const club = await this.anchorsOf(db, clubId, version, nearest)
    const anchor = club.found[nearest - 1]
    if (anchor === undefined) return undefined
    const [read] = await pageFromAnchor.execute(db, clubId, anchor.date, anchor.createdAt, anchor.id, page.limit,
      page.offset - nearest * this.every)
    if (read === undefined) throw new Error('a page of results returned no row')
    // Short, while undated results follow the dated ones: the page may go on among them.
    if (read.rows < page.limit && club.undated > 0) return undefined
    return read.body
  }

  /** The club's anchors under `version`, found as far as the `wanted`th if there is one. */
  private async anchorsOf(db: Kysely<Database>, clubId: string, version: number, wanted: number): Promise<ClubAnchors> {
    let club = this.clubs.get(clubId)
    if (club?.version !== version) {
      const [undated] = await undatedResults.execute(db, clubId)
      club = { version, undated: undated?.total ?? 0, found: [], ended: false }
      if (this.clubs.size >= MAX_CLUBS) this.clubs.clear()
      this.clubs.set(clubId, club)
    }
    while (club.found.length < wanted && !club.ended) {
      const last = club.found.at(-1)
      const [next] = last === undefined
        ? await firstAnchor.execute(db, clubId, this.every)
        : await nextAnchor.execute(db, clubId, last.date, last.createdAt, last.id, this.every)
      // (created_at is text on SQLite, the only database read here.)
      if (next?.competition_date == null || typeof next.created_at !== 'string') club.ended = true
      else club.found.push({ date: next.competition_date, createdAt: next.created_at, id: next.id })
    }
    return club
  }
}
