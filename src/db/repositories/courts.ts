/** Courts, their holds and bookings. Every function takes the club id first. */
import { sql } from 'kysely'
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely'
import { LONGEST_BOOKING_MS, courtNameKey } from '../../domain/court.js'
import type { StoredOccupancy } from '../../domain/booking-rules.js'
import type { Interval, OpeningHours } from '../../domain/slots.js'
import { compiledOnce } from '../compiled.js'
import { lockedForBooking } from '../dialect.js'
import type { CourtHoldsTable, CourtsTable, Database } from '../schema.js'
import { chunks, isoForDb, isoFromDb } from '../values.js'

export interface Court {
  readonly id: string
  readonly name: string
  readonly sport: string
  readonly active: boolean
  readonly slotMinutes: number
  readonly openingHours: OpeningHours
  readonly bookingHorizonDays: number
  readonly maxSlotsPerBooking: number
}

const COURT_COLUMNS = ['id', 'name', 'sport', 'active', 'slot_minutes', 'opening_hours', 'booking_horizon_days',
  'max_slots_per_booking'] as const

function toCourt(row: Pick<Selectable<CourtsTable>, (typeof COURT_COLUMNS)[number]>): Court {
  return {
    id: row.id,
    name: row.name,
    sport: row.sport,
    active: Boolean(row.active),
    slotMinutes: row.slot_minutes,
    openingHours: JSON.parse(row.opening_hours) as OpeningHours,
    bookingHorizonDays: row.booking_horizon_days,
    maxSlotsPerBooking: row.max_slots_per_booking,
  }
}

/** Active courts by name, then id. */
export async function listActiveCourts(db: Kysely<Database>, clubId: string): Promise<Court[]> {
  const rows = await db.selectFrom('courts').select(COURT_COLUMNS).where('club_id', '=', clubId).where('active', '=', true)
    .orderBy('name').orderBy('id').execute()
  return rows.map(toCourt)
}

export async function listCourts(db: Kysely<Database>, clubId: string): Promise<Court[]> {
  const rows = await db.selectFrom('courts').select(COURT_COLUMNS).where('club_id', '=', clubId)
    .orderBy('name').orderBy('id').execute()
  return rows.map(toCourt)
}

const courtQuery = compiledOnce((db, clubId: string, courtId: string) => db.selectFrom('courts').select(COURT_COLUMNS)
  .where('club_id', '=', clubId).where('id', '=', courtId))

export async function findCourt(db: Kysely<Database>, clubId: string, courtId: string): Promise<Court | undefined> {
  const [row] = await courtQuery.execute(db, clubId, courtId)
  return row === undefined ? undefined : toCourt(row)
}

const bookingCourtQuery = compiledOnce((db, clubId: string, courtId: string) => lockedForBooking(db, db.selectFrom('courts')
  .select(COURT_COLUMNS).where('club_id', '=', clubId).where('id', '=', courtId)))

/**
 * The court a booking is for, read in the booking's transaction: on PostgreSQL its row stays locked
 * until the transaction ends, so that the court's bookings are checked and written one at a time.
 */
export async function courtForBooking(trx: Kysely<Database>, clubId: string, courtId: string): Promise<Court | undefined> {
  const [row] = await bookingCourtQuery.execute(trx, clubId, courtId)
  return row === undefined ? undefined : toCourt(row)
}

export interface CourtName {
  readonly id: string
  readonly name: string
  readonly nameKey: string
}

/** Every court's name and name key, for the uniqueness check of an import. */
export async function courtNamesOf(db: Kysely<Database>, clubId: string): Promise<CourtName[]> {
  const rows = await db.selectFrom('courts').select(['id', 'name', 'name_key']).where('club_id', '=', clubId).orderBy('id').execute()
  return rows.map((row) => ({ id: row.id.toLowerCase(), name: row.name, nameKey: row.name_key }))
}

export type CourtRecord = Omit<Insertable<CourtsTable>, 'club_id' | 'name_key'>
export type CourtHoldRecord = Omit<Insertable<CourtHoldsTable>, 'club_id'>

/**
 * Inserts new courts and updates known ones of the club (never another club's), each with the
 * key of its name. The caller has checked that the names stay unique; courts renamed here first
 * give up their old keys, so that courts swapping names never meet in the unique index halfway.
 */
export async function saveCourts(trx: Transaction<Database>, clubId: string, courts: readonly CourtRecord[]): Promise<void> {
  const renamed: string[] = []
  for (const chunk of chunks(courts)) {
    const stored = await trx.selectFrom('courts').select(['id', 'name_key']).where('club_id', '=', clubId)
      .where('id', 'in', chunk.map((court) => court.id)).execute()
    const keys = new Map(stored.map((row) => [row.id.toLowerCase(), row.name_key]))
    for (const court of chunk) {
      const key = keys.get(court.id.toLowerCase())
      if (key !== undefined && key !== courtNameKey(court.name)) renamed.push(court.id)
    }
  }
  for (const chunk of chunks(renamed)) {
    // A key no name has (keys never begin with whitespace), one per court.
    await trx.updateTable('courts').set({ name_key: sql<string>`cast(${'\t'} as text) || cast(id as text)` })
      .where('club_id', '=', clubId).where('id', 'in', chunk).execute()
  }
  for (const chunk of chunks(courts)) {
    await trx.insertInto('courts')
      .values(chunk.map((court) => ({ ...court, club_id: clubId, name_key: courtNameKey(court.name) })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'), name_key: eb.ref('excluded.name_key'), sport: eb.ref('excluded.sport'),
        active: eb.ref('excluded.active'), slot_minutes: eb.ref('excluded.slot_minutes'),
        opening_hours: eb.ref('excluded.opening_hours'), booking_horizon_days: eb.ref('excluded.booking_horizon_days'),
        max_slots_per_booking: eb.ref('excluded.max_slots_per_booking'),
      })).where('courts.club_id', '=', clubId))
      .execute()
  }
}

/** Inserts new holds and updates known ones of the club (never another club's). */
export async function saveCourtHolds(
  trx: Transaction<Database>,
  clubId: string,
  holds: readonly CourtHoldRecord[],
): Promise<void> {
  for (const chunk of chunks(holds)) {
    await trx.insertInto('court_holds')
      .values(chunk.map((hold) => ({ ...hold, club_id: clubId })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
        court_id: eb.ref('excluded.court_id'), kind: eb.ref('excluded.kind'), reason: eb.ref('excluded.reason'),
        starts_at: eb.ref('excluded.starts_at'), ends_at: eb.ref('excluded.ends_at'), weekday: eb.ref('excluded.weekday'),
        start_time: eb.ref('excluded.start_time'), end_time: eb.ref('excluded.end_time'), valid_from: eb.ref('excluded.valid_from'),
        valid_until: eb.ref('excluded.valid_until'),
      })).where('court_holds.club_id', '=', clubId))
      .execute()
  }
}

const interval = (row: { starts_at: Date | string | null, ends_at: Date | string | null }): Interval => ({
  start: Date.parse(isoFromDb(row.starts_at ?? '')),
  end: Date.parse(isoFromDb(row.ends_at ?? '')),
})

type OccupancyKind = 'block' | 'reservation' | 'booking'

/**
 * What occupies the courts during a window, in one statement: their holds — one-off ones that overlap
 * the window and every weekly one — and, as rows of kind `booking`, the confirmed bookings that overlap
 * it: those that start in it or at most the longest a booking can be before it, a range of
 * bookings_court_idx, whatever the court's history.
 */
function occupancyQuery(db: Kysely<Database>, clubId: string, courtIds: string[], to: string, from: string, startsAfter: string) {
  return db.selectFrom('court_holds')
    .select((eb) => ['id', 'court_id', eb.ref('kind').$castTo<OccupancyKind>().as('kind'), 'starts_at', 'ends_at', 'weekday', 'start_time',
      'end_time', 'valid_from', 'valid_until'])
    .where('club_id', '=', clubId).where('court_id', 'in', courtIds)
    .where((eb) => eb.or([
      eb('weekday', 'is not', null),
      eb.and([eb('starts_at', '<', to), eb('ends_at', '>', from)]),
    ]))
    .unionAll(db.selectFrom('bookings').select(['id', 'court_id', sql.lit('booking').$castTo<OccupancyKind>().as('kind'), 'starts_at', 'ends_at',
      sql<number | null>`null`.as('weekday'), sql<string | null>`null`.as('start_time'), sql<string | null>`null`.as('end_time'),
      sql<string | null>`null`.as('valid_from'), sql<string | null>`null`.as('valid_until')])
      .where('club_id', '=', clubId).where('court_id', 'in', courtIds)
      .where('starts_at', '>', startsAfter).where('starts_at', '<', to)
      .where('ends_at', '>', from).where('status', '=', 'confirmed'))
}

const courtOccupancyQuery = compiledOnce((db, clubId: string, courtId: string, to: string, from: string, startsAfter: string) =>
  occupancyQuery(db, clubId, [courtId], to, from, startsAfter))

/**
 * What occupies each of the courts during a window: one-off holds and confirmed bookings that overlap it,
 * and every weekly hold (the caller decides on which dates those apply). One statement. `except`: a
 * booking that does not count (the one being moved).
 */
export async function occupancyOf(
  db: Kysely<Database>,
  clubId: string,
  courtIds: readonly string[],
  window: Interval,
  except?: string,
): Promise<Map<string, StoredOccupancy>> {
  const result = new Map<string, StoredOccupancy>(courtIds.map((id) => [id, {
    blocks: [], reservations: [], weeklyBlocks: [], weeklyReservations: [], bookings: [],
  }]))
  if (courtIds.length === 0) return result
  const from = isoForDb(window.start)
  const to = isoForDb(window.end)
  const startsAfter = isoForDb(window.start - LONGEST_BOOKING_MS)
  const [courtId] = courtIds
  // One court (a booking's check) runs the statement compiled once; a day of all courts builds it for its list.
  const rows = courtIds.length === 1 && courtId !== undefined
    ? await courtOccupancyQuery.execute(db, clubId, courtId, to, from, startsAfter)
    : await occupancyQuery(db, clubId, [...courtIds], to, from, startsAfter).execute()
  for (const row of rows) {
    const entry = result.get(row.court_id)
    if (entry === undefined) continue
    if (row.kind === 'booking') {
      if (row.id !== except) entry.bookings.push(interval(row))
    } else if (row.weekday === null) {
      (row.kind === 'block' ? entry.blocks : entry.reservations).push(interval(row))
    } else {
      (row.kind === 'block' ? entry.weeklyBlocks : entry.weeklyReservations).push({
        weekday: row.weekday, startTime: row.start_time ?? '', endTime: row.end_time ?? '',
        validFrom: row.valid_from, validUntil: row.valid_until,
      })
    }
  }
  return result
}

/** A block or reservation as stored: one-off (instants) or weekly (weekday 1–7, local times, optional dates). */
export interface CourtHold {
  readonly id: string
  readonly courtId: string
  readonly kind: 'block' | 'reservation'
  readonly reason: string | null
  readonly startsAt: string | null
  readonly endsAt: string | null
  readonly weekday: number | null
  readonly startTime: string | null
  readonly endTime: string | null
  readonly validFrom: string | null
  readonly validUntil: string | null
}

function holdsOf(db: Kysely<Database>, clubId: string) {
  return db.selectFrom('court_holds').select(['id', 'court_id', 'kind', 'reason', 'starts_at', 'ends_at', 'weekday', 'start_time',
    'end_time', 'valid_from', 'valid_until']).where('club_id', '=', clubId)
}

function toHold(row: Awaited<ReturnType<ReturnType<typeof holdsOf>['executeTakeFirstOrThrow']>>): CourtHold {
  return {
    id: row.id, courtId: row.court_id, kind: row.kind, reason: row.reason,
    startsAt: row.starts_at === null ? null : isoFromDb(row.starts_at),
    endsAt: row.ends_at === null ? null : isoFromDb(row.ends_at),
    weekday: row.weekday, startTime: row.start_time, endTime: row.end_time,
    validFrom: row.valid_from, validUntil: row.valid_until,
  }
}

/** A court's holds: weekly ones by weekday and time, then one-off ones by start. */
export async function listHolds(db: Kysely<Database>, clubId: string, courtId: string): Promise<CourtHold[]> {
  const rows = await holdsOf(db, clubId).where('court_id', '=', courtId)
    .orderBy(sql`weekday is null`).orderBy('weekday').orderBy('start_time').orderBy('starts_at').orderBy('id').execute()
  return rows.map(toHold)
}

export async function findHold(db: Kysely<Database>, clubId: string, holdId: string): Promise<CourtHold | undefined> {
  const row = await holdsOf(db, clubId).where('id', '=', holdId).executeTakeFirst()
  return row === undefined ? undefined : toHold(row)
}

/** Deletes a hold of the club (never another club's); false when there is none with this id. */
export async function deleteHold(db: Kysely<Database>, clubId: string, holdId: string): Promise<boolean> {
  const result = await db.deleteFrom('court_holds').where('club_id', '=', clubId).where('id', '=', holdId).executeTakeFirst()
  return result.numDeletedRows > 0n
}
