/** Weekly series of bookings (migration 0018): the series row, its bookings' inserts, and its bookings from a date on. */
import type { CompiledQuery, Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { isoForDb } from '../values.js'
import type { NewBooking } from './bookings.js'

export interface NewSeries {
  readonly id: string
  readonly clubId: string
  readonly courtId: string
  readonly startTime: string
  readonly endTime: string
  readonly firstDate: string
  readonly lastDate: string
}

export interface StoredSeries extends NewSeries {
  readonly createdAt: string
}

export function seriesInsert(db: Kysely<Database>, series: NewSeries, now: number): CompiledQuery {
  return db.insertInto('booking_series').values({ id: series.id, club_id: series.clubId, court_id: series.courtId,
    start_time: series.startTime, end_time: series.endTime, first_date: series.firstDate, last_date: series.lastDate,
    created_at: isoForDb(now) }).compile()
}

/** A booking of a series: a booking like any other, naming its series. */
export function seriesBookingInsert(db: Kysely<Database>, booking: NewBooking, seriesId: string, now: number): CompiledQuery {
  return db.insertInto('bookings').values({ id: booking.id, club_id: booking.clubId, court_id: booking.courtId,
    starts_at: isoForDb(booking.start), ends_at: isoForDb(booking.end), booker_name: booking.bookerName,
    booker_email: booking.bookerEmail, member_id: booking.memberId, notes: booking.notes, created_at: isoForDb(now),
    manage_token_hash: booking.manageTokenHash, series_id: seriesId, language: booking.language }).compile()
}

export async function findSeries(db: Kysely<Database>, clubId: string, seriesId: string): Promise<StoredSeries | undefined> {
  const row = await db.selectFrom('booking_series').selectAll().where('club_id', '=', clubId).where('id', '=', seriesId)
    .executeTakeFirst()
  return row === undefined
    ? undefined
    : { id: row.id, clubId: row.club_id, courtId: row.court_id, startTime: row.start_time,
        endTime: row.end_time, firstDate: row.first_date, lastDate: row.last_date, createdAt: String(row.created_at) }
}

/** The series' confirmed bookings that start at or after `from` and have not ended by `now` (bookings_series_idx). */
export async function seriesBookingsFrom(db: Kysely<Database>, clubId: string, seriesId: string, from: number, now: number):
Promise<string[]> {
  const rows = await db.selectFrom('bookings').select('id').where('series_id', '=', seriesId).where('starts_at', '>=', isoForDb(from))
    .where('club_id', '=', clubId).where('status', '=', 'confirmed').where('ends_at', '>', isoForDb(now)).orderBy('starts_at')
    .execute()
  return rows.map((row) => row.id)
}

/** The member of the club with this address (lower case), if any. */
export async function memberWithAddress(db: Kysely<Database>, clubId: string, email: string): Promise<string | null> {
  if (email === '') return null
  const row = await db.selectFrom('members').select('id').where('club_id', '=', clubId).where('email', '=', email).executeTakeFirst()
  return row?.id ?? null
}
