/** The mail outbox: claiming due mails (safely across instances), recording outcomes, and listing. */
import { randomUUID } from 'node:crypto'
import type { CompiledQuery, Kysely, Selectable } from 'kysely'
import { compiledOnce } from '../compiled.js'
import { claiming } from '../dialect.js'
import type { Database, MailOutboxTable, MailStatus } from '../schema.js'
import { chunks, isoForDb } from '../values.js'

export type OutboxRow = Selectable<MailOutboxTable>

/**
 * Marks up to `limit` due mails as being sent by this instance until `leaseUntil`: mails whose
 * previous sender's lease ran out (it crashed mid-send) first, then pending mails whose time has
 * come, oldest first. PostgreSQL skips rows another instance is claiming; the update re-checks the
 * condition, so a row claimed meanwhile by another process (SQLite) is not claimed twice.
 *
 * Each read is one range of the (status, next_attempt_at) index, and the update finds its rows by
 * primary key: the cost of a claim is the size of the batch, however many mails wait. (One query
 * with both conditions OR-ed made SQLite read and sort every waiting mail, and its update, seeing
 * the same OR, did the same: 1.6 ms a claim with 4,500 mails waiting after a booking burst.)
 */
export async function claimDueMails(db: Kysely<Database>, now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
  const at = isoForDb(now)
  return db.transaction().execute(async (trx) => {
    const abandoned = claiming(trx, trx.selectFrom('mail_outbox').select('id')
      .where('status', '=', 'sending').where('locked_until', '<=', at)
      .orderBy('next_attempt_at').limit(limit))
    const ids = (await abandoned.execute()).map((row) => row.id)
    if (ids.length < limit) {
      const pending = claiming(trx, trx.selectFrom('mail_outbox').select('id')
        .where('status', '=', 'pending').where('next_attempt_at', '<=', at)
        .orderBy('next_attempt_at').limit(limit - ids.length))
      ids.push(...(await pending.execute()).map((row) => row.id))
    }
    if (ids.length === 0) return []
    const claimed = await trx.updateTable('mail_outbox')
      .set((eb) => ({ status: 'sending', locked_until: isoForDb(leaseUntil), attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', ids)
      // Still due: the time that counts is the pending mail's next attempt, or the sending mail's lease. Written as one
      // expression no index serves, so that the primary key is the only way to the rows.
      .where((eb) => eb(eb.case()
        .when('status', '=', 'pending').then(eb.ref('next_attempt_at'))
        .when('status', '=', 'sending').then(eb.ref('locked_until'))
        .end(), '<=', at))
      .returningAll()
      .execute()
    const order = new Map(ids.map((id, i) => [id, i]))
    return claimed.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
  })
}

/**
 * Extends the lease of mails this instance still holds: those whose lease is still the one it
 * wrote (`heldUntil`), so a lease another instance took over after this one stalled stays theirs.
 * Returns how many it still holds.
 */
export async function renewLeases(
  db: Kysely<Database>,
  ids: readonly string[],
  heldUntil: number,
  leaseUntil: number,
): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.updateTable('mail_outbox').set({ locked_until: isoForDb(leaseUntil) })
    .where('id', 'in', [...ids]).where('status', '=', 'sending').where('locked_until', '=', isoForDb(heldUntil))
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Hands claimed mails back unsent (the worker is stopping), due at once for the next instance. */
export async function releaseMails(db: Kysely<Database>, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('mail_outbox')
    .set((eb) => ({ status: 'pending', next_attempt_at: isoForDb(now), locked_until: null, attempts: eb('attempts', '-', 1) }))
    .where('id', 'in', [...ids]).where('status', '=', 'sending').execute()
}

const markSentQuery = compiledOnce((db, id: string, at: string) => db.updateTable('mail_outbox')
  .set({ status: 'sent', sent_at: at, locked_until: null, last_error: null }).where('id', '=', id))

/** Records these mails as sent, in one statement (one that is compiled once, for one mail). */
export async function markSent(db: Kysely<Database>, ids: readonly string[], now: number): Promise<void> {
  const [first] = ids
  if (first === undefined) return
  if (ids.length === 1) {
    await markSentQuery.execute(db, first, isoForDb(now))
    return
  }
  for (const batch of chunks(ids)) {
    await db.updateTable('mail_outbox').set({ status: 'sent', sent_at: isoForDb(now), locked_until: null, last_error: null })
      .where('id', 'in', batch).execute()
  }
}

export async function markRetry(db: Kysely<Database>, id: string, nextAttemptAt: number, error: string): Promise<void> {
  await db.updateTable('mail_outbox')
    .set({ status: 'pending', next_attempt_at: isoForDb(nextAttemptAt), locked_until: null, last_error: error })
    .where('id', '=', id).execute()
}

export async function markFailed(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: 'failed', locked_until: null, last_error: error }).where('id', '=', id).execute()
}

export interface MailSummary {
  readonly id: string
  readonly clubId: string | null
  readonly bookingId: string | null
  readonly status: MailStatus
  readonly recipient: string
  readonly subject: string
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly lastError: string | null
  readonly createdAt: string
  readonly sentAt: string | null
}

export async function listMails(db: Kysely<Database>, status?: MailStatus): Promise<MailSummary[]> {
  let query = db.selectFrom('mail_outbox')
    .select(['id', 'club_id', 'booking_id', 'status', 'recipient_email', 'subject', 'attempts', 'next_attempt_at', 'last_error',
      'created_at', 'sent_at'])
    .orderBy('created_at').orderBy('id')
  if (status !== undefined) query = query.where('status', '=', status)
  const rows = await query.execute()
  return rows.map((row) => ({
    id: row.id, clubId: row.club_id, bookingId: row.booking_id, status: row.status, recipient: row.recipient_email,
    subject: row.subject, attempts: row.attempts, nextAttemptAt: isoForDb(row.next_attempt_at), lastError: row.last_error,
    createdAt: isoForDb(row.created_at), sentAt: row.sent_at === null ? null : isoForDb(row.sent_at),
  }))
}

/** Puts a failed (or waiting) mail back in line for delivery now. Returns false for unknown or already sent mails. */
export async function retryMail(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('mail_outbox')
    .set({ status: 'pending', next_attempt_at: isoForDb(now), locked_until: null })
    .where('id', '=', id).where('status', 'in', ['failed', 'pending'])
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export interface OutboxStats {
  /** Mails waiting to be sent (pending, or being sent). */
  readonly waiting: number
  /** When the oldest of them was written, or null. */
  readonly oldestWaitingSince: string | null
  readonly failed: number
}

/** The outbox gauges: index look-ups one after the other, on one connection. */
export async function outboxStats(db: Kysely<Database>): Promise<OutboxStats> {
  return db.connection().execute(async (conn) => {
    const waiting = await conn.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['pending', 'sending']).executeTakeFirstOrThrow()
    const oldest = await conn.selectFrom('mail_outbox').select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('status', 'in', ['pending', 'sending']).executeTakeFirst()
    const failed = await conn.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'failed').executeTakeFirstOrThrow()
    return {
      waiting: waiting.n,
      oldestWaitingSince: oldest?.oldest == null ? null : isoForDb(oldest.oldest),
      failed: failed.n,
    }
  })
}

export interface NewMail {
  readonly clubId: string | null
  readonly bookingId: string | null
  readonly recipientName: string
  readonly recipientEmail: string
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly ics: string | null
  /** The From display name (a club's name) and the Reply-To (its contact address); absent: the service's sender alone. */
  readonly senderName?: string | null
  readonly replyTo?: string | null
  /** A one-click stop link (RFC 8058), sent as List-Unsubscribe (a waiting list's mails); absent: none. */
  readonly unsubscribeUrl?: string | null
}

/** The Message-ID domain: the sender's, so that replies and bounces thread under the sending domain. */
export function senderDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'club-platform.invalid'
}

// Compiled once (compiled.ts): a booking's transaction writes one.
const insertMailQuery = compiledOnce((db, id: string, clubId: string | null, bookingId: string | null, messageId: string,
  recipientName: string, recipientEmail: string, subject: string, text: string, html: string, ics: string | null,
  senderName: string | null, replyTo: string | null, unsubscribeUrl: string | null, at: string) =>
  db.insertInto('mail_outbox').values({
    id, club_id: clubId, booking_id: bookingId, message_id: messageId, recipient_name: recipientName,
    recipient_email: recipientEmail, subject, text_body: text, html_body: html, ics, sender_name: senderName, reply_to: replyTo,
    unsubscribe_url: unsubscribeUrl, status: 'pending', attempts: 0, next_attempt_at: at, created_at: at,
  }))

/** The insert that queues a mail for the worker (a unit of work sends it with its other inserts), and the mail's id. */
export function mailInsert(db: Kysely<Database>, mail: NewMail, from: string, now: number): { id: string, query: CompiledQuery } {
  const id = randomUUID()
  const query = insertMailQuery.compile(db, id, mail.clubId, mail.bookingId, `<${id}@${senderDomain(from)}>`, mail.recipientName,
    mail.recipientEmail, mail.subject.replace(/[\r\n\t]+/g, ' '), mail.text, mail.html, mail.ics,
    mail.senderName == null ? null : mail.senderName.replace(/[\r\n\t]+/g, ' '), mail.replyTo ?? null,
    mail.unsubscribeUrl == null ? null : mail.unsubscribeUrl.replace(/[\s<>]+/g, ''), isoForDb(now))
  return { id, query }
}

/** Whether a mail that belongs to no booking (a notice) went to the address since an instant. */
export async function hasNoticeSince(db: Kysely<Database>, email: string, since: number): Promise<boolean> {
  const row = await db.selectFrom('mail_outbox').select('id').where('recipient_email', '=', email)
    .where('booking_id', 'is', null).where('created_at', '>', isoForDb(since)).executeTakeFirst()
  return row !== undefined
}
