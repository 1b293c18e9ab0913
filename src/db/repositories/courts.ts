/** Courts, their holds and bookings. Every function takes the club id first. */
import type { Kysely, Selectable } from 'kysely'
import type { Interval, OpeningHours, WeeklyHold } from '../../domain/slots.js'
import type { CourtsTable, Database } from '../schema.js'
import { isoForDb, isoFromDb } from '../values.js'

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

export async function findCourt(db: Kysely<Database>, clubId: string, courtId: string): Promise<Court | undefined> {
  const row = await db.selectFrom('courts').select(COURT_COLUMNS).where('club_id', '=', clubId).where('id', '=', courtId)
    .executeTakeFirst()
  return row === undefined ? undefined : toCourt(row)
}

export interface StoredOccupancy {
  readonly blocks: Interval[]
  readonly reservations: Interval[]
  readonly weeklyBlocks: WeeklyHold[]
  readonly weeklyReservations: WeeklyHold[]
  readonly bookings: Interval[]
}

const interval = (row: { starts_at: Date | string | null, ends_at: Date | string | null }): Interval => ({
  start: Date.parse(isoFromDb(row.starts_at ?? '')),
  end: Date.parse(isoFromDb(row.ends_at ?? '')),
})

/**
 * What occupies each of the courts during a window: one-off holds and bookings that overlap it,
 * and every weekly hold (the caller decides on which dates those apply).
 */
export async function occupancyOf(
  db: Kysely<Database>,
  clubId: string,
  courtIds: readonly string[],
  window: Interval,
): Promise<Map<string, StoredOccupancy>> {
  const result = new Map<string, StoredOccupancy>(courtIds.map((id) => [id, {
    blocks: [], reservations: [], weeklyBlocks: [], weeklyReservations: [], bookings: [],
  }]))
  if (courtIds.length === 0) return result
  const from = isoForDb(window.start)
  const to = isoForDb(window.end)
  const [holds, bookings] = await Promise.all([
    db.selectFrom('court_holds')
      .select(['court_id', 'kind', 'starts_at', 'ends_at', 'weekday', 'start_time', 'end_time', 'valid_from', 'valid_until'])
      .where('club_id', '=', clubId).where('court_id', 'in', [...courtIds])
      .where((eb) => eb.or([
        eb('weekday', 'is not', null),
        eb.and([eb('starts_at', '<', to), eb('ends_at', '>', from)]),
      ]))
      .execute(),
    db.selectFrom('bookings').select(['court_id', 'starts_at', 'ends_at'])
      .where('club_id', '=', clubId).where('court_id', 'in', [...courtIds])
      .where('starts_at', '<', to).where('ends_at', '>', from)
      .execute(),
  ])
  for (const hold of holds) {
    const entry = result.get(hold.court_id)
    if (entry === undefined) continue
    if (hold.weekday === null) {
      (hold.kind === 'block' ? entry.blocks : entry.reservations).push(interval(hold))
    } else {
      (hold.kind === 'block' ? entry.weeklyBlocks : entry.weeklyReservations).push({
        weekday: hold.weekday, startTime: hold.start_time ?? '', endTime: hold.end_time ?? '',
        validFrom: hold.valid_from, validUntil: hold.valid_until,
      })
    }
  }
  for (const booking of bookings) result.get(booking.court_id)?.bookings.push(interval(booking))
  return result
}
