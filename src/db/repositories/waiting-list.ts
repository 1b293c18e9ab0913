/**
 * The waiting list as stored (docs/waiting-list.md): addresses waiting for a taken slot of a court.
 * An entry is open while it has not ended and its slot has not started. Every read goes through an
 * index: a court's open entries by start (waiting_list_slot_idx), an address's entries by creation
 * (waiting_list_address_idx), an entry by its stop link's hash, every entry by start for retention.
 */
import { sql } from 'kysely'
import type { CompiledQuery, Kysely } from 'kysely'
import { isGuestLanguage } from '../../domain/languages.js'
import type { GuestLanguage } from '../../domain/languages.js'
import type { Interval } from '../../domain/slots.js'
import type { Database, WaitingEndReason } from '../schema.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'

export interface WaitingEntry {
  readonly id: string
  readonly clubId: string
  readonly courtId: string
  readonly start: number
  readonly end: number
  readonly name: string
  readonly email: string
  readonly language: GuestLanguage
  readonly createdAt: number
  /** The stop link's token. */
  readonly stopToken: string
}

const ENTRY_COLUMNS = ['id', 'club_id', 'court_id', 'starts_at', 'ends_at', 'name', 'email', 'language', 'created_at',
  'stop_token'] as const

interface EntryRow {
  id: string
  club_id: string
  court_id: string
  starts_at: Date | string
  ends_at: Date | string
  name: string
  email: string
  language: string
  created_at: Date | string
  stop_token: string
}

function entryOf(row: EntryRow): WaitingEntry {
  return { id: row.id, clubId: row.club_id, courtId: row.court_id, start: Date.parse(isoFromDb(row.starts_at)),
    end: Date.parse(isoFromDb(row.ends_at)), name: row.name, email: row.email,
    language: isGuestLanguage(row.language) ? row.language : 'en', createdAt: Date.parse(isoFromDb(row.created_at)),
    stopToken: row.stop_token }
}

/** The insert of an entry (its unit of work sends it with the change's other rows). */
export function waitingEntryInsert(db: Kysely<Database>, entry: WaitingEntry & { readonly stopTokenHash: string }):
CompiledQuery {
  return db.insertInto('waiting_list_entries').values({ id: entry.id, club_id: entry.clubId, court_id: entry.courtId,
    starts_at: isoForDb(entry.start), ends_at: isoForDb(entry.end), name: entry.name, email: entry.email,
    language: entry.language, stop_token: entry.stopToken, stop_token_hash: entry.stopTokenHash,
    created_at: isoForDb(entry.createdAt), ended_at: null, end_reason: null }).compile()
}

/** The address's open entry for the slot, if it waits for it already. */
export async function openEntryOf(db: Kysely<Database>, clubId: string, courtId: string, start: number, email: string):
Promise<WaitingEntry | undefined> {
  const row = await db.selectFrom('waiting_list_entries').select(ENTRY_COLUMNS).where('club_id', '=', clubId)
    .where('court_id', '=', courtId).where('starts_at', '=', isoForDb(start)).where('email', '=', email)
    .where('ended_at', 'is', null).executeTakeFirst()
  return row === undefined ? undefined : entryOf(row)
}

/**
 * What the address's limits read: its open entries at the club, and the entries made with it at any
 * club since `since`. An address's entries are few (its limits bound them, retention removes those
 * whose slot has passed): all of them are read through waiting_list_address_idx.
 */
export async function waitingStanding(db: Kysely<Database>, clubId: string, email: string, now: number, since: number):
Promise<{ readonly open: number, readonly made: number }> {
  const rows = await db.selectFrom('waiting_list_entries').select(['club_id', 'starts_at', 'ended_at', 'created_at'])
    .where('email', '=', email).orderBy('created_at').execute()
  const open = rows.filter((row) => row.club_id === clubId && row.ended_at === null && Date.parse(isoFromDb(row.starts_at)) > now)
  return { open: open.length, made: rows.filter((row) => Date.parse(isoFromDb(row.created_at)) > since).length }
}

/** The court's open entries whose slot starts within the window and after `now`, by start and creation. */
export async function openEntriesWithin(db: Kysely<Database>, clubId: string, courtId: string, window: Interval, now: number):
Promise<WaitingEntry[]> {
  const rows = await db.selectFrom('waiting_list_entries').select(ENTRY_COLUMNS).where('club_id', '=', clubId)
    .where('court_id', '=', courtId).where('ended_at', 'is', null)
    .where('starts_at', '>=', isoForDb(Math.max(window.start, now + 1))).where('starts_at', '<', isoForDb(window.end))
    .orderBy('starts_at').orderBy('created_at').orderBy('id').execute()
  return rows.map(entryOf)
}

/** Of these addresses, which booked a slot of the court starting within the window, and when (any state since). */
export async function bookersWithin(db: Kysely<Database>, clubId: string, courtId: string, window: Interval,
  emails: readonly string[]): Promise<{ email: string, start: number, end: number, createdAt: number }[]> {
  if (emails.length === 0) return []
  const rows = await db.selectFrom('bookings').select(['booker_email', 'starts_at', 'ends_at', 'created_at'])
    .where('club_id', '=', clubId).where('starts_at', '>=', isoForDb(window.start)).where('starts_at', '<', isoForDb(window.end))
    .where('court_id', '=', courtId).where('booker_email', 'in', [...new Set(emails)]).execute()
  return rows.map((row) => ({ email: row.booker_email, start: Date.parse(isoFromDb(row.starts_at)),
    end: Date.parse(isoFromDb(row.ends_at)), createdAt: Date.parse(isoFromDb(row.created_at)) }))
}

/**
 * Ends entries (their stop link, or their address booked the slot); one that had ended keeps its end.
 * Found by id alone, so that the primary key finds them.
 */
export async function endEntries(db: Kysely<Database>, ids: readonly string[], reason: WaitingEndReason, now: number):
Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('waiting_list_entries')
    .set({ ended_at: sql<string>`coalesce(ended_at, ${isoForDb(now)})`, end_reason: sql<WaitingEndReason>`coalesce(end_reason, ${reason})` })
    .where('id', 'in', [...ids]).execute()
}

/** Counts a mail saying the slot is free for each entry. */
export async function markNotified(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('waiting_list_entries').set((eb) => ({ notified: eb('notified', '+', 1) })).where('id', 'in', [...ids])
    .execute()
}

/** An entry as its stop link's page shows it: with its club, its court's name and whether it is still open. */
export interface LinkedEntry extends WaitingEntry {
  readonly clubName: string
  readonly clubSlug: string
  readonly courtName: string
  readonly timezone: string
  readonly privacyUrl: string | null
  readonly endedAt: string | null
  readonly endReason: WaitingEndReason | null
}

export async function entryByStopToken(db: Kysely<Database>, tokenHash: string): Promise<LinkedEntry | undefined> {
  const row = await db.selectFrom('waiting_list_entries as w')
    .innerJoin('clubs', 'clubs.id', 'w.club_id')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'w.club_id').onRef('courts.id', '=', 'w.court_id'))
    .select(['w.id', 'w.club_id', 'w.court_id', 'w.starts_at', 'w.ends_at', 'w.name', 'w.email', 'w.language', 'w.created_at',
      'w.stop_token', 'w.ended_at', 'w.end_reason', 'clubs.name as club_name', 'clubs.slug as club_slug', 'clubs.timezone',
      'clubs.privacy_url', 'courts.name as court_name'])
    .where('w.stop_token_hash', '=', tokenHash).executeTakeFirst()
  if (row === undefined) return undefined
  return { ...entryOf(row), clubName: row.club_name, clubSlug: row.club_slug, courtName: row.court_name, timezone: row.timezone,
    privacyUrl: row.privacy_url, endedAt: isoFromDbOrNull(row.ended_at), endReason: row.end_reason }
}

/** How many open entries wait for each slot of the club's courts starting within the window (the planner's counts). */
export async function waitingCounts(db: Kysely<Database>, clubId: string, courtIds: readonly string[], window: Interval):
Promise<{ courtId: string, start: number, count: number }[]> {
  if (courtIds.length === 0) return []
  const rows = await db.selectFrom('waiting_list_entries')
    .select((eb) => ['court_id', 'starts_at', eb.fn.countAll<number | string>().as('n')])
    .where('club_id', '=', clubId).where('court_id', 'in', [...courtIds]).where('ended_at', 'is', null)
    .where('starts_at', '>=', isoForDb(window.start)).where('starts_at', '<', isoForDb(window.end))
    .groupBy(['court_id', 'starts_at']).orderBy('court_id').orderBy('starts_at').execute()
  return rows.map((row) => ({ courtId: row.court_id, start: Date.parse(isoFromDb(row.starts_at)), count: Number(row.n) }))
}

/** Retention: removes up to `limit` entries whose slot started before `cutoff`; returns how many. */
export async function deleteStartedEntries(db: Kysely<Database>, cutoff: number, limit: number): Promise<number> {
  const ids = db.selectFrom('waiting_list_entries').select('id').where('starts_at', '<', isoForDb(cutoff)).limit(limit)
  const result = await db.deleteFrom('waiting_list_entries').where('id', 'in', ids).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Erasure: removes the address's entries (at one club, or at all with `clubId` null); returns how many. */
export async function deleteEntriesOf(db: Kysely<Database>, email: string, clubId: string | null): Promise<number> {
  let query = db.deleteFrom('waiting_list_entries').where('email', '=', email)
  if (clubId !== null) query = query.where('club_id', '=', clubId)
  const result = await query.executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The address's entries (at one club, or at all), for its export of personal data. */
export async function entriesOf(db: Kysely<Database>, email: string, clubId: string | null): Promise<WaitingEntry[]> {
  let query = db.selectFrom('waiting_list_entries').select(ENTRY_COLUMNS).where('email', '=', email)
  if (clubId !== null) query = query.where('club_id', '=', clubId)
  return (await query.orderBy('created_at').orderBy(sql`id`).execute()).map(entryOf)
}
