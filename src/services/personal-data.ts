/**
 * Personal data has a lifetime (docs/bookings.md, "Personal data").
 *
 * - **Retention:** a booking's guest data (name, address, notes) is removed a club-set number of
 *   days after the booking ended (default 90), with the mails about it; the booking's court, times
 *   and state stay, so the club's history and counts do. Notices that belong to no booking go
 *   after the same period, the dashboard's sign-in and invitation mails after 30 days, and
 *   idempotency records after 24 hours. The server applies it every hour; `club-platform
 *   retention` applies it at once.
 * - **Export and erasure** of everything held about one address, at one club (its admins, in the
 *   dashboard) or at all (the operator): recorded in the audit log with counts, never the address.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import {
  anonymiseBookings, bookingsToAnonymise, countMailsOf, deleteIdempotencyRecords, deleteMailsTo, deleteOldNotices,
  findPersonalData, retentionPeriods,
} from '../db/repositories/personal-data.js'
import type { PersonalData } from '../db/repositories/personal-data.js'
import type { Database } from '../db/schema.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

const DAY = 86_400_000
/** How long a retried booking request with the same Idempotency-Key gets the original answer. */
export const IDEMPOTENCY_RECORD_MS = DAY
/** How long the dashboard's mails (sign-in links, invitations) are kept after they were sent. */
export const DASHBOARD_MAIL_MS = 30 * DAY
const BATCH = 500

export interface RetentionReport {
  readonly bookingsAnonymised: number
  readonly mailsDeleted: number
  readonly idempotencyRecordsDeleted: number
}

/** Applies every club's retention period at `now`. Safe to run anywhere, any number of times, concurrently. */
export async function applyRetention(db: Kysely<Database>, now: number): Promise<RetentionReport> {
  let bookingsAnonymised = 0
  let mailsDeleted = 0
  for (const { clubId, days } of await retentionPeriods(db)) {
    const cutoff = now - days * DAY
    for (;;) {
      const ids = await bookingsToAnonymise(db, clubId, cutoff, BATCH)
      if (ids.length === 0) break
      await write(db, now, (work) => anonymiseBookings(work.db, ids, now))
      bookingsAnonymised += ids.length
    }
    mailsDeleted += await deleteOldNotices(db, clubId, cutoff)
  }
  mailsDeleted += await deleteOldNotices(db, null, now - DASHBOARD_MAIL_MS)
  const idempotencyRecordsDeleted = await deleteIdempotencyRecords(db, now - IDEMPOTENCY_RECORD_MS)
  return { bookingsAnonymised, mailsDeleted, idempotencyRecordsDeleted }
}

export interface PersonalDataRequest {
  /** The address, normalised (lower case). */
  readonly email: string
  /** One club's data, or (null) every club's and the dashboard's mails: the operator's request. */
  readonly clubId: string | null
  readonly actor: Actor
}

function summary(data: PersonalData): string {
  return `${String(data.bookings.length)} bookings, ${String(data.mails.length)} mails, `
    + `${String(data.idempotency_records.length)} idempotency records, ${String(data.members.length)} member records`
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
  /** Member records are the club's register, kept in its own member list: they are reported, not removed. */
  readonly memberRecordsKept: number
}

/**
 * Removes everything held about an address: its bookings lose the guest's data (upcoming ones are
 * cancelled, without a mail), and its mails and idempotency records are deleted, in one transaction.
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
    const mails = byAddress + before
    // Upcoming bookings are cancelled: their slots are free.
    if (request.clubId !== null) work.changed(`courts:${request.clubId}`)
    await work.audit(request.actor, request.clubId, { action: 'personal_data.erased', target: summary(data),
      targetName: 'one address\'s data (the address is not recorded)', detail: summary(data) })
    return { bookings: data.bookings.length, mails,
      idempotencyRecords: data.idempotency_records.length, memberRecordsKept: data.members.length }
  })
}

/** Where the schedule reports what it removed, or why it could not. */
export interface RetentionLog {
  info(details: object, message: string): void
  error(details: object, message: string): void
}

/** Applies retention when started and then every hour, in the background of a server process. */
export class RetentionSchedule {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> = Promise.resolve()
  private log: RetentionLog | undefined

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly intervalMs = 3_600_000,
  ) {}

  reportTo(log: RetentionLog): void {
    this.log = log
  }

  start(): void {
    if (this.timer !== undefined) return
    const run = () => {
      this.running = applyRetention(this.db, this.clock.now()).then((report) => {
        if (report.bookingsAnonymised + report.mailsDeleted + report.idempotencyRecordsDeleted > 0) {
          this.log?.info({ retention: report }, 'personal data past its retention period removed')
        }
      }, (error: unknown) => {
        // The next run tries again; nothing is lost by waiting.
        this.log?.error({ error: error instanceof Error ? error.message : String(error) }, 'applying the retention periods failed')
      })
    }
    run()
    this.timer = setInterval(run, this.intervalMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }
}
