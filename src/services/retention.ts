/**
 * Retention (docs/bookings.md, "Personal data"): a booking's guest data is removed a club-set
 * number of days after the booking ended (default 90), with the mails about it; the booking's
 * court, times and state stay. Notices that belong to no booking go after the same period, the
 * dashboard's sign-in and invitation mails after 30 days, idempotency records after 24 hours, and
 * the webhook log's finished deliveries and their messages after 30 days, waiting list entries once their slot has started.
 *
 * A run reads its backlog, never the history: each step takes a batch of what is due through an
 * index that holds little else, removes it in a transaction of its own, and goes on until nothing
 * is due. Between batches it stops when asked to (a server that is stopping); what it left is the
 * next run's backlog, found the same way.
 */
import type { Kysely } from 'kysely'
import {
  anonymiseBookings, bookingsToAnonymise, deleteIdempotencyRecords, deleteOldNotices, retentionPeriods,
} from '../db/repositories/personal-data.js'
import { deleteStartedEntries } from '../db/repositories/waiting-list.js'
import { deleteFinishedDeliveries, deleteUndeliveredMessages } from '../db/repositories/webhooks.js'
import type { MessageCursor } from '../db/repositories/webhooks.js'
import type { Database } from '../db/schema.js'
import type { Clock } from '../clock.js'
import type { JobSpec } from './periodic-job.js'
import { write } from './unit-of-work.js'

const DAY = 86_400_000
/** How long a retried booking request with the same Idempotency-Key gets the original answer. */
export const IDEMPOTENCY_RECORD_MS = DAY
/** How long the dashboard's mails (sign-in links, invitations) are kept after they were sent. */
export const DASHBOARD_MAIL_MS = 30 * DAY
/** How long the webhook log keeps a finished delivery (and its message, once no delivery refers to it). */
export const WEBHOOK_LOG_MS = 30 * DAY
/** Rows removed or anonymised in one transaction. */
export const RETENTION_BATCH = 1_000

export interface RetentionReport {
  readonly bookingsAnonymised: number
  readonly mailsDeleted: number
  readonly idempotencyRecordsDeleted: number
  readonly webhookDeliveriesDeleted: number
  readonly webhookMessagesDeleted: number
  /** Waiting list entries whose slot has started. */
  readonly waitingEntriesDeleted: number
  /** False when the run was stopped before its backlog was done. */
  readonly complete: boolean
}

export interface RetentionOptions {
  /** Stops the run between two batches. */
  readonly signal?: AbortSignal
  readonly batchSize?: number
  /** Called before each batch (the schedule renews its lease there); false stops the run. */
  readonly beforeBatch?: () => Promise<boolean>
}

/** Applies every retention period at `now`. Safe to run anywhere, any number of times, concurrently. */
export async function applyRetention(
  db: Kysely<Database>,
  now: number,
  options: RetentionOptions = {},
): Promise<RetentionReport> {
  const limit = options.batchSize ?? RETENTION_BATCH
  const counts = { bookingsAnonymised: 0, mailsDeleted: 0, idempotencyRecordsDeleted: 0, webhookDeliveriesDeleted: 0,
    webhookMessagesDeleted: 0, waitingEntriesDeleted: 0 }
  let stopped = false
  /**
   * Runs `batch` until it read less than a whole batch, or the run is stopped; adds what it removed to `key`. A batch
   * answers a number (it read and removed as many) or what it read and removed.
   */
  const drain = async (key: keyof typeof counts, batch: () => Promise<number | { read: number, deleted: number }>) => {
    for (;;) {
      if (stopped || options.signal?.aborted === true || (options.beforeBatch !== undefined && !await options.beforeBatch())) {
        stopped = true
        return
      }
      const done = await batch()
      const { read, deleted } = typeof done === 'number' ? { read: done, deleted: done } : done
      counts[key] += deleted
      if (read < limit) return
    }
  }
  for (const days of await retentionPeriods(db)) {
    const cutoff = now - days * DAY
    await drain('bookingsAnonymised', async () => {
      const ids = await bookingsToAnonymise(db, days, cutoff, limit)
      if (ids.length > 0) await write(db, now, (work) => anonymiseBookings(work.db, ids, now))
      return ids.length
    })
    await drain('mailsDeleted', () => deleteOldNotices(db, days, cutoff, limit))
  }
  await drain('mailsDeleted', () => deleteOldNotices(db, null, now - DASHBOARD_MAIL_MS, limit))
  await drain('idempotencyRecordsDeleted', () => deleteIdempotencyRecords(db, now - IDEMPOTENCY_RECORD_MS, limit))
  await drain('webhookDeliveriesDeleted', () => deleteFinishedDeliveries(db, now - WEBHOOK_LOG_MS, limit))
  let cursor: MessageCursor | null = null
  await drain('webhookMessagesDeleted', async () => {
    const batch = await deleteUndeliveredMessages(db, now - WEBHOOK_LOG_MS, cursor, limit)
    cursor = batch.next
    return batch
  })
  await drain('waitingEntriesDeleted', () => deleteStartedEntries(db, now, limit))
  return { ...counts, complete: !stopped }
}

/** Rows a run removed or anonymised, in all. */
export function rowsOf(report: RetentionReport): number {
  return report.bookingsAnonymised + report.mailsDeleted + report.idempotencyRecordsDeleted + report.webhookDeliveriesDeleted
    + report.webhookMessagesDeleted + report.waitingEntriesDeleted
}

/** Retention as the server runs it: every hour (counted from the last finished run), one process at a time. */
export function retentionJob(db: Kysely<Database>, clock: Clock,
  settings: { intervalMs: number, batchSize: number }): JobSpec<{ retention: RetentionReport }> {
  return {
    name: 'retention',
    intervalMs: settings.intervalMs,
    leaseMs: 5 * 60_000,
    async run(signal, beforeBatch) {
      const report = await applyRetention(db, clock.now(), { signal, beforeBatch, batchSize: settings.batchSize })
      return { rows: rowsOf(report), complete: report.complete, detail: { retention: report } }
    },
  }
}
