/**
 * The idempotency records of bookings: a client's Idempotency-Key, by its SHA-256 (the key as sent
 * is not kept), with the request's hash, the booking it made and its manage token sealed under the key.
 */
import type { CompiledQuery, Kysely } from 'kysely'
import { compiledOnce } from '../compiled.js'
import type { Database } from '../schema.js'
import { isoForDb } from '../values.js'

export interface BookingRequestRecord {
  readonly requestHash: string
  readonly bookingId: string
  /** The booking's manage token sealed under the client's key; null when none was kept (a staff booking). */
  readonly manageTokenSealed: string | null
}

const findRequestQuery = compiledOnce((db, clubId: string, keyHash: string) => db.selectFrom('booking_requests')
  .select(['request_hash', 'booking_id', 'manage_token_sealed']).where('club_id', '=', clubId).where('idempotency_key', '=', keyHash))

/** The idempotency record of a key, by its SHA-256 (`keyHash`: the records keep no key as sent). */
export async function findBookingRequest(
  db: Kysely<Database>,
  clubId: string,
  keyHash: string,
): Promise<BookingRequestRecord | undefined> {
  const [row] = await findRequestQuery.execute(db, clubId, keyHash)
  return row === undefined
    ? undefined
    : { requestHash: row.request_hash, bookingId: row.booking_id, manageTokenSealed: row.manage_token_sealed }
}

const insertRequestQuery = compiledOnce((db, clubId: string, keyHash: string, requestHash: string, bookingId: string,
  manageTokenSealed: string | null, createdAt: string) => db.insertInto('booking_requests').values({ club_id: clubId,
  idempotency_key: keyHash, request_hash: requestHash, booking_id: bookingId, manage_token_sealed: manageTokenSealed,
  created_at: createdAt }))

/** The insert of a booking's idempotency record, under the key's SHA-256. */
export function bookingRequestInsert(
  db: Kysely<Database>,
  clubId: string,
  keyHash: string,
  record: BookingRequestRecord,
  now: number,
): CompiledQuery {
  return insertRequestQuery.compile(db, clubId, keyHash, record.requestHash, record.bookingId, record.manageTokenSealed,
    isoForDb(now))
}
