/**
 * What the service holds about guests (bookings, the mails to them, idempotency records) and
 * members, found by e-mail address; and the removal of it. A removed guest leaves the booking's
 * court, times and state behind (the club's history and counts), without name, address or notes.
 */
import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { chunks, isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'

export interface GuestBookingRecord {
  readonly id: string
  readonly club_id: string
  readonly court_name: string
  readonly start_time: string
  readonly end_time: string
  readonly booker_name: string
  readonly booker_email: string
  readonly notes: string | null
  readonly status: string
  readonly created_at: string
  readonly cancelled_at: string | null
}

export interface MailRecord {
  readonly id: string
  readonly club_id: string | null
  readonly booking_id: string | null
  readonly subject: string
  readonly status: string
  readonly created_at: string
  readonly sent_at: string | null
}

export interface IdempotencyRecord {
  readonly club_id: string
  readonly idempotency_key: string
  readonly booking_id: string
  readonly created_at: string
}

export interface MemberRecord {
  readonly id: string
  readonly club_id: string
  readonly name: string
  readonly email: string
}

export interface WaitingRecord {
  readonly id: string
  readonly club_id: string
  readonly court_name: string
  readonly start_time: string
  readonly end_time: string
  readonly name: string
  readonly email: string
  readonly created_at: string
  readonly ended_at: string | null
}

/** An address's bookings, mails, idempotency records, waiting list entries, at one club or (null) at all; its member records. */
export interface PersonalData {
  readonly bookings: GuestBookingRecord[]
  readonly mails: MailRecord[]
  readonly idempotency_records: IdempotencyRecord[]
  readonly waiting_list: WaitingRecord[]
  readonly members: MemberRecord[]
}

const lower = (column: string) => sql<string>`lower(${sql.ref(column)})`

export async function findPersonalData(db: Kysely<Database>, email: string, clubId: string | null): Promise<PersonalData> {
  let bookings = db.selectFrom('bookings')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'bookings.club_id').onRef('courts.id', '=', 'bookings.court_id'))
    .select(['bookings.id', 'bookings.club_id', 'courts.name as court_name', 'bookings.starts_at', 'bookings.ends_at',
      'bookings.booker_name', 'bookings.booker_email', 'bookings.notes', 'bookings.status', 'bookings.created_at',
      'bookings.cancelled_at'])
    .where('bookings.booker_email', '=', email)
  if (clubId !== null) bookings = bookings.where('bookings.club_id', '=', clubId)
  const bookingRows = await bookings.orderBy('bookings.starts_at').execute()
  const ids = bookingRows.map((row) => row.id)

  let mails = db.selectFrom('mail_outbox').select(['id', 'club_id', 'booking_id', 'subject', 'status', 'created_at', 'sent_at'])
    .where(lower('recipient_email'), '=', email)
  if (clubId !== null) mails = mails.where('club_id', '=', clubId)
  const mailRows = await mails.orderBy('created_at').execute()

  const records = []
  for (const batch of chunks(ids)) {
    records.push(...await db.selectFrom('booking_requests').select(['club_id', 'idempotency_key', 'booking_id', 'created_at'])
      .where('booking_id', 'in', batch).execute())
  }
  let waiting = db.selectFrom('waiting_list_entries as w')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'w.club_id').onRef('courts.id', '=', 'w.court_id'))
    .select(['w.id', 'w.club_id', 'courts.name as court_name', 'w.starts_at', 'w.ends_at', 'w.name', 'w.email', 'w.created_at',
      'w.ended_at']).where('w.email', '=', email)
  if (clubId !== null) waiting = waiting.where('w.club_id', '=', clubId)
  const waitingRows = await waiting.orderBy('w.created_at').execute()
  let members = db.selectFrom('members').select(['id', 'club_id', 'name', 'email']).where(lower('email'), '=', email)
  if (clubId !== null) members = members.where('club_id', '=', clubId)

  return {
    bookings: bookingRows.map((row) => ({
      id: row.id, club_id: row.club_id, court_name: row.court_name, start_time: isoFromDb(row.starts_at),
      end_time: isoFromDb(row.ends_at), booker_name: row.booker_name, booker_email: row.booker_email, notes: row.notes,
      status: row.status, created_at: isoFromDb(row.created_at), cancelled_at: isoFromDbOrNull(row.cancelled_at),
    })),
    mails: mailRows.map((row) => ({ ...row, created_at: isoFromDb(row.created_at), sent_at: isoFromDbOrNull(row.sent_at) })),
    idempotency_records: records.map((row) => ({ ...row, created_at: isoFromDb(row.created_at) })),
    waiting_list: waitingRows.map((row) => ({ id: row.id, club_id: row.club_id, court_name: row.court_name,
      start_time: isoFromDb(row.starts_at), end_time: isoFromDb(row.ends_at), name: row.name, email: row.email,
      created_at: isoFromDb(row.created_at), ended_at: isoFromDbOrNull(row.ended_at) })),
    members: await members.orderBy('club_id').execute(),
  }
}

/**
 * Removes the guest from bookings: name, address, notes, the club's reason, the member link and
 * the manage link go; court, times, state and who cancelled stay. Their mails and idempotency
 * records are deleted. An upcoming confirmed booking is cancelled first (by the club, without a
 * mail: there is no address left to send it to), so that nobody turns up to a slot nobody holds.
 */
export async function anonymiseBookings(db: Kysely<Database>, ids: readonly string[], now: number): Promise<void> {
  for (const batch of chunks(ids)) {
    await db.deleteFrom('booking_requests').where('booking_id', 'in', batch).execute()
    await db.deleteFrom('mail_outbox').where('booking_id', 'in', batch).execute()
    await db.updateTable('bookings')
      .set({ status: 'cancelled', cancelled_at: isoForDb(now), cancelled_by: 'club' })
      .where('id', 'in', batch).where('status', '=', 'confirmed').where('ends_at', '>', isoForDb(now))
      .execute()
    await db.updateTable('bookings')
      .set({ booker_name: '', booker_email: '', notes: null, cancel_reason: null, member_id: null, manage_token_hash: null,
        anonymised_at: isoForDb(now) })
      .where('id', 'in', batch)
      .execute()
  }
}

/** How many mails belong to these bookings. */
export async function countMailsOf(db: Kysely<Database>, bookingIds: readonly string[]): Promise<number> {
  let count = 0
  for (const batch of chunks(bookingIds)) {
    const row = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('booking_id', 'in', batch).executeTakeFirstOrThrow()
    count += Number(row.n)
  }
  return count
}

/** Deletes every mail to an address (at one club, or at all and the dashboard's); returns how many. */
export async function deleteMailsTo(db: Kysely<Database>, email: string, clubId: string | null): Promise<number> {
  let query = db.deleteFrom('mail_outbox').where(lower('recipient_email'), '=', email)
  if (clubId !== null) query = query.where('club_id', '=', clubId)
  return Number((await query.executeTakeFirst()).numDeletedRows)
}

/** The retention periods the clubs have chosen, in days: each is one pass of retention. */
export async function retentionPeriods(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('clubs').select('booking_retention_days').distinct().execute()
  return rows.map((row) => row.booking_retention_days).sort((a, b) => a - b)
}

/**
 * The ids of bookings of the clubs that keep guest data `days` days that ended before `cutoff` and
 * still hold a guest's data (at most `limit`): for each such club, one search of the index of its
 * bookings not yet anonymised (bookings_to_anonymise_idx), however long its history.
 */
export async function bookingsToAnonymise(db: Kysely<Database>, days: number, cutoff: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('clubs').innerJoin('bookings', 'bookings.club_id', 'clubs.id').select('bookings.id')
    .where('clubs.booking_retention_days', '=', days).where('bookings.anonymised_at', 'is', null)
    .where('bookings.ends_at', '<', isoForDb(cutoff)).limit(limit).execute()
  return rows.map((row) => row.id)
}

/**
 * Deletes at most `limit` delivered or given-up mails that belong to no booking (notices) created
 * before `cutoff`: of the clubs that keep guest data `days` days, or (null) the dashboard's, which
 * belong to no club. Through mail_outbox_notices_idx, which holds nothing else.
 */
export async function deleteOldNotices(
  db: Kysely<Database>,
  days: number | null,
  cutoff: number,
  limit: number,
): Promise<number> {
  const notices = days === null
    ? db.selectFrom('mail_outbox').select('mail_outbox.id').where('mail_outbox.club_id', 'is', null)
    : db.selectFrom('clubs').innerJoin('mail_outbox', 'mail_outbox.club_id', 'clubs.id').select('mail_outbox.id')
        .where('clubs.booking_retention_days', '=', days)
  const ids = await notices.where('mail_outbox.booking_id', 'is', null).where('mail_outbox.status', 'in', ['sent', 'failed'])
    .where('mail_outbox.created_at', '<', isoForDb(cutoff)).limit(limit).execute()
  if (ids.length === 0) return 0
  const result = await db.deleteFrom('mail_outbox').where('id', 'in', ids.map((row) => row.id)).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Deletes at most `limit` idempotency records created before `cutoff`, oldest first. */
export async function deleteIdempotencyRecords(db: Kysely<Database>, cutoff: number, limit: number): Promise<number> {
  const keys = await db.selectFrom('booking_requests').select(['club_id', 'idempotency_key'])
    .where('created_at', '<', isoForDb(cutoff)).orderBy('created_at').limit(limit).execute()
  if (keys.length === 0) return 0
  const result = await db.deleteFrom('booking_requests')
    .where((eb) => eb(eb.refTuple('club_id', 'idempotency_key'), 'in', keys.map((key) => eb.tuple(key.club_id, key.idempotency_key))))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
