/**
 * Delivers the outbox. Each round claims a batch of due mails under a lease, sends each with its
 * stored Message-ID, and records the outcome: sent; retry later with exponential back-off (30 s,
 * 1 min, 2 min … capped at 2 h, about 16 hours in all); or failed for good (a 5xx answer from the
 * relay, or attempts exhausted), visible in `club-platform mail list --failed`.
 *
 * A batch goes out `concurrency` mails at a time (MAIL_CONNECTIONS: pooled SMTP connections kept
 * while there are mails to send, see transport.ts). The server composes and sends them on a thread
 * of its own, which ends after ten seconds without mail (transport-thread.ts). A mail is recorded as
 * sent as soon as the relay took it; the mails taken while one such update runs are recorded
 * together by the next, so that a burst costs an update per few mails, not one per mail.
 *
 * Leases are short (15 s) and renewed every third of that while the batch is in hand (a heartbeat),
 * so a slow relay never loses a live worker its mails, and the mails a killed process held are
 * claimed again within the lease: after `kill -9` and a restart, within about 15 s. A mail that
 * was being sent at the moment of death is sent again with the same Message-ID.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { claimDueMails, markFailed, markRetry, markSent, releaseMails, renewLeases } from '../db/repositories/outbox.js'
import type { OutboxRow } from '../db/repositories/outbox.js'
import type { Database } from '../db/schema.js'
import { addressOf } from './booking-mail.js'
import { isPermanentMailError } from './transport.js'
import type { MailTransport } from './transport.js'
import { PollingLoop } from '../polling.js'

export interface MailWorkerOptions {
  readonly pollMs?: number
  readonly batchSize?: number
  /** Mails sent at once (MAIL_CONNECTIONS). */
  readonly concurrency?: number
  readonly leaseMs?: number
  readonly maxAttempts?: number
  readonly onError?: (error: unknown, context: string) => void
}

export const DEFAULT_LEASE_MS = 15_000
/** After this long without a mail to send, the transport lets go of what it holds (the mail thread ends). */
export const IDLE_RELEASE_MS = 10_000
export const RETRY_BASE_MS = 30_000
export const RETRY_CAP_MS = 2 * 3_600_000

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_CAP_MS)
}

/** Logs never hold e-mail addresses; relays like to quote them in their errors. */
export function redactEmails(text: string): string {
  return text.replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:]+/g, '[address]')
}

export class MailWorker {
  private readonly pollMs: number
  private readonly batchSize: number
  private readonly concurrency: number
  private readonly sentMarks: SentMarks
  private readonly leaseMs: number
  private readonly maxAttempts: number
  private onError: (error: unknown, context: string) => void
  private onRetry: (mailId: string, attempts: number, reason: string) => void = () => undefined
  private readonly loop: PollingLoop
  /** The mails of the batch in hand not yet sent, and the lease they hold. */
  private held: { readonly ids: readonly string[], readonly until: number } = { ids: [], until: 0 }
  /** stop() was called: finish the mail in hand, hand back the rest of the batch. */
  private stopRequested = false
  /** When a round last found mail to send, and whether the transport was let go since. */
  private lastBusyAt: number
  private released = false

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly transport: MailTransport,
    private readonly from: string,
    options: MailWorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000
    this.concurrency = options.concurrency ?? 1
    this.batchSize = options.batchSize ?? Math.max(10, 10 * this.concurrency)
    this.sentMarks = new SentMarks(db, clock)
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
    this.maxAttempts = options.maxAttempts ?? 15
    this.onError = options.onError ?? (() => undefined)
    this.lastBusyAt = clock.now()
    this.loop = new PollingLoop(async () => await this.runOnce() === this.batchSize, this.pollMs, (error) => {
      this.onError(error, 'claiming mail')
    })
  }

  /** Where the worker reports its failures (the server's log); the recipient's address is never included. */
  reportTo(log: { warn(object: object, message: string): void, error(object: object, message: string): void }): void {
    this.onError = (error, context) => {
      log.error({ error: redactEmails(error instanceof Error ? error.message : String(error)) }, `mail worker: ${context}`)
    }
    this.onRetry = (mailId, attempts, reason) => {
      log.warn({ mail_id: mailId, attempts, reason: redactEmails(reason) }, 'mail not delivered; will retry or has failed')
    }
  }

  get transportDescription(): string {
    return this.transport.description
  }

  /** Starts polling; wake() makes it look at once (after a booking). */
  start(): void {
    this.stopRequested = false
    this.loop.start()
  }

  wake(): void {
    this.loop.wake()
  }

  /** Stops after the mail being sent now; waits for it. */
  async stop(): Promise<void> {
    this.stopRequested = true
    await this.loop.stop()
    this.transport.close()
  }

  /** One round: claims and sends what is due. Returns how many mails it handled. */
  async runOnce(): Promise<number> {
    const now = this.clock.now()
    const claimed = await claimDueMails(this.db, now, now + this.leaseMs, this.batchSize)
    if (claimed.length === 0) {
      if (!this.released && now - this.lastBusyAt >= IDLE_RELEASE_MS) {
        this.released = true
        this.transport.idle?.()
      }
      return 0
    }
    this.lastBusyAt = now
    this.released = false
    this.held = { ids: claimed.map((mail) => mail.id), until: now + this.leaseMs }
    const heartbeat = setInterval(() => {
      this.renewLeases().catch((error: unknown) => {
        this.onError(error, 'renewing mail leases')
      })
    }, Math.max(1, Math.floor(this.leaseMs / 3)))
    heartbeat.unref()
    try {
      const queue = [...claimed]
      const lane = async () => {
        for (let mail = queue.shift(); mail !== undefined; mail = queue.shift()) {
          if (this.stopRequested) {
            queue.unshift(mail)
            return
          }
          const { id: sent } = mail
          await this.deliver(mail)
          this.held = { ids: this.held.ids.filter((id) => id !== sent), until: this.held.until }
        }
      }
      await Promise.all(Array.from({ length: Math.min(this.concurrency, claimed.length) }, lane))
      if (queue.length > 0) await releaseMails(this.db, queue.map((unsent) => unsent.id), this.clock.now())
    } finally {
      clearInterval(heartbeat)
      this.held = { ids: [], until: 0 }
    }
    return claimed.length
  }

  /** The heartbeat: extends the lease of the mails of the batch in hand that are not yet sent. */
  async renewLeases(): Promise<number> {
    const held = this.held
    if (held.ids.length === 0) return 0
    const until = this.clock.now() + this.leaseMs
    const renewed = await renewLeases(this.db, held.ids, held.until, until)
    // Only if the batch is still the same one (a send may have finished meanwhile; its id is dropped either way).
    if (this.held.until === held.until) this.held = { ids: this.held.ids, until }
    return renewed
  }

  private async deliver(mail: OutboxRow): Promise<void> {
    try {
      await this.transport.send({
        id: mail.id,
        messageId: mail.message_id,
        // A club's mail: its name before the service's address (the address stays the service's, which its domain vouches for).
        from: mail.sender_name === null ? this.from : { name: mail.sender_name, address: addressOf(this.from) },
        ...mail.reply_to === null ? {} : { replyTo: mail.reply_to },
        ...mail.unsubscribe_url === null ? {} : { unsubscribeUrl: mail.unsubscribe_url },
        to: { name: mail.recipient_name, address: mail.recipient_email },
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        ics: mail.ics,
      })
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error)
      this.onRetry(mail.id, mail.attempts, reason)
      try {
        if (isPermanentMailError(error) || mail.attempts >= this.maxAttempts) await markFailed(this.db, mail.id, reason)
        else await markRetry(this.db, mail.id, this.clock.now() + retryDelayMs(mail.attempts), reason)
      } catch (recordError) {
        // The lease runs out and the mail is tried again.
        this.onError(recordError, 'recording a failed send')
      }
      return
    }
    try {
      await this.sentMarks.mark(mail.id)
    } catch (error) {
      this.onError(error, 'recording a sent mail')
    }
  }
}

/**
 * Records mails as sent: at once when no such update runs; those sent meanwhile wait for it and go
 * together in the next (one statement for all of them).
 */
class SentMarks {
  private waiting: { readonly id: string, resolve(): void, reject(error: unknown): void }[] = []
  private running = false

  constructor(private readonly db: Kysely<Database>, private readonly clock: Clock) {}

  mark(id: string): Promise<void> {
    const marked = new Promise<void>((resolve, reject) => {
      this.waiting.push({ id, resolve, reject })
    })
    if (!this.running) void this.drain()
    return marked
  }

  private async drain(): Promise<void> {
    this.running = true
    while (this.waiting.length > 0) {
      const batch = this.waiting
      this.waiting = []
      try {
        await markSent(this.db, batch.map((entry) => entry.id), this.clock.now())
        for (const entry of batch) entry.resolve()
      } catch (error) {
        for (const entry of batch) entry.reject(error)
      }
    }
    this.running = false
  }
}
