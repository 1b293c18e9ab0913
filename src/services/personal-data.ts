/**
 * Personal data has a lifetime (docs/bookings.md, "Personal data"): retention removes it when its
 * time is over (src/services/retention.ts).
 * - **Export and erasure** of everything held about one address, at one club (its admins, in the
 *   dashboard) or at all (the operator): recorded in the audit log with counts, never the address.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { anonymiseBookings, countMailsOf, deleteMailsTo, findPersonalData } from '../db/repositories/personal-data.js'
import type { PersonalData } from '../db/repositories/personal-data.js'
import type { Database } from '../db/schema.js'
import type { Actor } from './audit.js'
import { deleteEntriesOf } from '../db/repositories/waiting-list.js'
import { write } from './unit-of-work.js'

export interface PersonalDataRequest {
  /** The address, normalised (lower case). */
  readonly email: string
  /** One club's data, or (null) every club's and the dashboard's mails: the operator's request. */
  readonly clubId: string | null
  readonly actor: Actor
}

function summary(data: PersonalData): string {
  return `${String(data.bookings.length)} bookings, ${String(data.mails.length)} mails, `
    + `${String(data.idempotency_records.length)} idempotency records, ${String(data.waiting_list.length)} waiting list entries, `
    + `${String(data.members.length)} member records`
}

/** Everything held about an address, as JSON-ready records. */
export async function exportPersonalData(
  db: Kysely<Database>,
  clock: Clock,
  request: PersonalDataRequest,
): Promise<PersonalData> {
  const data = await findPersonalData(db, request.email, request.clubId)
  await write(db, clock.now(), (work) => work.audit(request.actor, request.clubId, { action: 'personal_data.exported', target: summary(data),
    targetName: 'one address\'s data (the address is not recorded)', detail: summary(data) }))
  return data
}

export interface Erasure {
  readonly bookings: number
  readonly mails: number
  readonly idempotencyRecords: number
  readonly waitingEntries: number
  /** Member records are the club's register, kept in its own member list: they are reported, not removed. */
  readonly memberRecordsKept: number
}

/**
 * Removes everything held about an address: its bookings lose the guest's data (upcoming ones are
 * cancelled, without a mail), and its mails, idempotency records and waiting list entries are deleted, in one transaction.
 */
export async function erasePersonalData(db: Kysely<Database>, clock: Clock, request: PersonalDataRequest): Promise<Erasure> {
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const data = await findPersonalData(trx, request.email, request.clubId)
    // The mails found are deleted with their bookings or by address; a mail the look-up missed (sent to a booking's
    // address in another spelling) goes with its booking, and is counted too.
    const byAddress = await deleteMailsTo(trx, request.email, request.clubId)
    const before = await countMailsOf(trx, data.bookings.map((booking) => booking.id))
    await anonymiseBookings(trx, data.bookings.map((booking) => booking.id), now)
    const waitingEntries = await deleteEntriesOf(trx, request.email, request.clubId)
    const mails = byAddress + before
    // Upcoming bookings are cancelled: their slots are free.
    if (request.clubId !== null) work.changed(`courts:${request.clubId}`)
    await work.audit(request.actor, request.clubId, { action: 'personal_data.erased', target: summary(data),
      targetName: 'one address\'s data (the address is not recorded)', detail: summary(data) })
    return { bookings: data.bookings.length, mails,
      idempotencyRecords: data.idempotency_records.length, waitingEntries, memberRecordsKept: data.members.length }
  })
}
