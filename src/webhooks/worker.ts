/**
 * Delivers webhooks. Each round claims due deliveries under a lease (any number of instances may
 * run; PostgreSQL's SKIP LOCKED keeps them apart) and attempts them in parallel, each within the
 * timeout, signed with the endpoint's secret (and the previous one during a rotation's overlap).
 *
 * - 2xx: delivered. Redirects are not followed: a 3xx is a failure like any other status.
 * - 410 Gone: the endpoint is disabled and the club's owners are mailed.
 * - Anything else, or no answer: retried after RETRY_SCHEDULE_MS (±10 % jitter), or after the
 *   receiver's Retry-After when it sent one (at most a day), for about three days; then failed.
 * - An endpoint with no success for DISABLE_AFTER_MS is disabled and the owners mailed.
 *
 * The lease covers the timeout with a margin, so a delivery a killed instance held is attempted
 * again (with the same `webhook-id`) once its lease ends.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import {
  claimDueDeliveries, disableEndpoint, endpointFailed, endpointSucceeded, endpointsByIds, messagesByIds,
  ownerAddresses, recordAttempt, releaseDeliveries,
} from '../db/repositories/webhooks.js'
import type { AttemptRecord, DeliveryRow, EndpointRecord } from '../db/repositories/webhooks.js'
import { write } from '../services/unit-of-work.js'
import type { Database } from '../db/schema.js'
import { renderEndpointDisabled } from '../mail/admin-mail.js'
import { PollingLoop } from '../polling.js'
import { RefusedTarget, send } from './sender.js'
import type { Answer, TargetPolicy } from './sender.js'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The wait after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (about 3 days 4 h in all). */
export const RETRY_SCHEDULE_MS = [
  5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR,
]
/** Attempts in all: the first and one per wait. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1
/** The longest wait a Retry-After may ask for. */
export const RETRY_AFTER_CAP_MS = DAY
/** An endpoint without a single success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * DAY

export interface WebhookSettings extends TargetPolicy {
  readonly timeoutMs: number
  readonly deliveriesPerMinute: number
  readonly mailFrom: string
  readonly publicUrl: URL
}

export interface WebhookWorkerOptions {
  readonly pollMs?: number
  readonly batchSize?: number
  /** A number in [0, 1) for the jitter; tests pass a fixed one. */
  readonly random?: () => number
}

/** The wait after `attempts` failed attempts (1-based), with ±10 % jitter; undefined when none is left. */
export function retryDelayMs(attempts: number, random: () => number): number | undefined {
  const base = RETRY_SCHEDULE_MS[attempts - 1]
  if (base === undefined) return undefined
  return Math.round(base * (0.9 + 0.2 * random()))
}

export class WebhookWorker {
  private readonly pollMs: number
  private readonly batchSize: number
  private readonly random: () => number
  private onError: (error: unknown, context: string) => void = () => undefined
  private readonly loop: PollingLoop
  private stopRequested = false

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    options: WebhookWorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000
    this.batchSize = options.batchSize ?? 20
    this.random = options.random ?? Math.random
    this.loop = new PollingLoop(async () => await this.runOnce() === this.batchSize, this.pollMs, (error) => {
      this.onError(error, 'claiming deliveries')
    })
  }

  /** The lease of a claimed delivery: the timeout and a margin for recording the outcome. */
  get leaseMs(): number {
    return this.settings.timeoutMs + 5 * SECOND
  }

  reportTo(log: { error(object: object, message: string): void }): void {
    this.onError = (error, context) => {
      log.error({ error: error instanceof Error ? error.message : String(error) }, `webhook worker: ${context}`)
    }
  }

  start(): void {
    this.stopRequested = false
    this.loop.start()
  }

  /** Look at once (after a change that queued deliveries). */
  wake(): void {
    this.loop.wake()
  }

  /** Stops after the attempts in flight; waits for them. */
  async stop(): Promise<void> {
    this.stopRequested = true
    await this.loop.stop()
  }

  /** One round: claims what is due and attempts it. Returns how many deliveries it attempted. */
  async runOnce(): Promise<number> {
    const now = this.clock.now()
    const leaseUntil = now + this.leaseMs
    const claimed = await claimDueDeliveries(this.db, now, leaseUntil, this.batchSize, this.settings.deliveriesPerMinute)
    if (claimed.length === 0) return 0
    if (this.stopRequested) {
      await releaseDeliveries(this.db, claimed.map((delivery) => delivery.id), now)
      return 0
    }
    const endpoints = await endpointsByIds(this.db, [...new Set(claimed.map((delivery) => delivery.endpoint_id))])
    const messages = await messagesByIds(this.db, [...new Set(claimed.map((delivery) => delivery.message_id))])
    await Promise.all(claimed.map(async (delivery) => {
      const endpoint = endpoints.get(delivery.endpoint_id)
      const message = messages.get(delivery.message_id)
      // Deleted meanwhile (the delivery goes with it).
      if (endpoint === undefined || message === undefined) return
      try {
        await this.attempt(delivery, endpoint, message.payload, leaseUntil)
      } catch (error) {
        // The lease runs out and the delivery is attempted again.
        this.onError(error, 'recording a delivery')
      }
    }))
    return claimed.length
  }

  private async attempt(delivery: DeliveryRow, endpoint: EndpointRecord, payload: string, leaseUntil: number): Promise<void> {
    const started = this.clock.now()
    if (!endpoint.enabled && delivery.trigger === 'event') {
      await recordAttempt(this.db, delivery.id, leaseUntil, { status: 'failed', responseStatus: null, responseBody: null,
        latencyMs: null, error: 'not sent: the endpoint is disabled' }, started)
      return
    }
    const secrets = [endpoint.secret, ...(endpoint.previousSecret !== null && (endpoint.previousSecretUntil ?? 0) > started
      ? [endpoint.previousSecret]
      : [])]
    const clockStart = performance.now()
    let answer: Answer | undefined
    let error: string | null = null
    try {
      answer = await send({ url: endpoint.url, messageId: delivery.message_id, timestamp: Math.floor(started / 1000),
        body: payload, secrets }, this.settings, this.settings.timeoutMs, 'Club-Platform-Webhooks/1', () => this.clock.now())
    } catch (failure) {
      error = failure instanceof RefusedTarget
        ? `not sent: the URL ${failure.message}`
        : failure instanceof Error ? failure.message.slice(0, 500) : String(failure)
    }
    const latencyMs = Math.round(performance.now() - clockStart)
    const now = this.clock.now()
    const seen = { responseStatus: answer?.status ?? null, responseBody: answer?.preview ?? null, latencyMs }
    if (answer !== undefined && answer.status >= 200 && answer.status < 300) {
      await recordAttempt(this.db, delivery.id, leaseUntil, { status: 'delivered', ...seen, error: null }, now)
      await endpointSucceeded(this.db, endpoint.id)
      return
    }
    const reason = error ?? (answer !== undefined && answer.status >= 300 && answer.status < 400
      ? `answered ${String(answer.status)}; redirects are not followed`
      : `answered ${String(answer?.status ?? 0)}`)
    if (answer?.status === 410) {
      await recordAttempt(this.db, delivery.id, leaseUntil, { status: 'failed', ...seen, error: `${reason} (Gone): endpoint disabled` },
        now)
      await this.disable(endpoint, 'gone', 'it answered 410 Gone', now)
      return
    }
    const failingSince = await endpointFailed(this.db, endpoint.id, now)
    if (now - failingSince >= DISABLE_AFTER_MS) {
      await recordAttempt(this.db, delivery.id, leaseUntil, { status: 'failed', ...seen, error: `${reason}; endpoint disabled` }, now)
      await this.disable(endpoint, 'failing', `no delivery to it has succeeded since ${new Date(failingSince).toISOString()}`, now)
      return
    }
    await recordAttempt(this.db, delivery.id, leaseUntil, this.retry(delivery.attempts, answer, reason, seen), now)
  }

  private retry(attempts: number, answer: Answer | undefined, reason: string,
    seen: Pick<AttemptRecord, 'responseStatus' | 'responseBody' | 'latencyMs'>): AttemptRecord {
    const scheduled = retryDelayMs(attempts, this.random)
    if (scheduled === undefined) return { status: 'failed', ...seen, error: `${reason}; no attempts left` }
    const asked = answer?.retryAfterMs
    const wait = asked === undefined ? scheduled : Math.min(Math.max(asked, SECOND), RETRY_AFTER_CAP_MS)
    return { status: 'pending', nextAttemptAt: this.clock.now() + wait, ...seen, error: reason }
  }

  private async disable(endpoint: EndpointRecord, reason: 'gone' | 'failing', why: string, now: number): Promise<void> {
    // The endpoint is disabled and its owners mailed together, or neither.
    await write(this.db, now, async (work) => {
      if (!await disableEndpoint(work.db, endpoint.id, reason, `not sent: the endpoint was disabled (${why})`, now)) return
      const owners = await ownerAddresses(work.db, endpoint.clubId)
      for (const owner of owners) {
        const mail = renderEndpointDisabled({ clubName: owner.clubName, endpointUrl: endpoint.url, why,
          dashboardUrl: new URL(`dashboard/clubs/${owner.clubSlug}/developer-access`, this.settings.publicUrl).href })
        await work.mail({ clubId: endpoint.clubId, bookingId: null, recipientName: '', recipientEmail: owner.email, ...mail,
          ics: null }, this.settings.mailFrom)
      }
    })
  }
}
