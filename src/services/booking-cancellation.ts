/**
 * Cancelling a booking: by its guest, through the personal link of the confirmation mail, until
 * the club's cancellation deadline; or by the club, with a reason, until the booking ends. Either
 * way the slot is free at once, the booking stays in the history as cancelled (who, when, why),
 * and the guest gets one cancellation mail — written in the same transaction as the change, with the
 * `booking.cancelled` webhook event, so a cancellation never goes without its mail or event, and a
 * repeated or concurrent one sends none.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { findBooking, findBookingByManageToken, markCancelled } from '../db/repositories/bookings.js'
import type { BookingDetails, BookingRules, Cancellation } from '../db/repositories/bookings.js'
import type { Database } from '../db/schema.js'
import { hashToken, isWellFormedToken } from '../domain/secret-token.js'
import { formatInZone } from '../domain/zoned-time.js'
import { renderBookingCancellation } from '../mail/booking-mail.js'
import { bookingData } from '../webhooks/booking-events.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'
import { bookingPageUrl } from './guest-links.js'
import { slotsFreed } from './waiting-list.js'
import type { UnitOfWork } from './unit-of-work.js'

const MINUTE = 60_000

/** The last instant at which a guest may cancel a booking starting at `start`. */
export function cancellationDeadline(start: number, rules: Pick<BookingRules, 'cancellationDeadlineMinutes'>): number {
  return start - rules.cancellationDeadlineMinutes * MINUTE
}

/** What the guest's page shows of a booking, and whether its cancel button works now. */
export interface GuestBooking {
  readonly booking: BookingDetails
  readonly cancelUntil: number
  /** `open`: may be cancelled now; `cancelled`: it was; `too-late`: the deadline has passed. */
  readonly state: 'open' | 'cancelled' | 'too-late'
}

/**
 * The booking a guest's link names, while the link is valid: from the booking until its end. An
 * unknown, malformed or expired link is `undefined` (the page says "not found" for each alike).
 */
export async function bookingOfLink(db: Kysely<Database>, clock: Clock, token: string): Promise<GuestBooking | undefined> {
  if (!isWellFormedToken('manage', token)) return undefined
  const booking = await findBookingByManageToken(db, hashToken(token))
  const now = clock.now()
  if (booking === undefined || booking.end <= now) return undefined
  return guestView(booking, now)
}

function guestView(booking: BookingDetails, now: number): GuestBooking {
  const cancelUntil = cancellationDeadline(booking.start, { cancellationDeadlineMinutes: booking.cancellationDeadlineMinutes })
  const state = booking.status === 'cancelled' ? 'cancelled' : now >= cancelUntil ? 'too-late' : 'open'
  return { booking, cancelUntil, state }
}

export interface CancellationSettings {
  readonly mailFrom: string
  /** The service's public base URL: the cancellation links back to the club's booking page. */
  readonly publicUrl: URL
}

/** The settings a cancellation needs, from the service's. */
export function cancellationSettings(config: { readonly mail: { readonly from: string }, readonly publicUrl: URL }):
CancellationSettings {
  return { mailFrom: config.mail.from, publicUrl: config.publicUrl }
}

/**
 * Cancels the booking of a guest's link, with the guest's reason if they gave one (the club reads it).
 * Idempotent: a booking already cancelled stays as it is and no second mail goes out. After the
 * deadline nothing changes and the state says why.
 */
export async function cancelByGuest(
  db: Kysely<Database>,
  clock: Clock,
  settings: CancellationSettings,
  token: string,
  reason: string | null = null,
): Promise<GuestBooking | undefined> {
  const found = await bookingOfLink(db, clock, token)
  if (found?.state !== 'open') return found
  const now = clock.now()
  await cancel(db, now, settings, found.booking, { by: 'guest', reason })
  return bookingOfLink(db, clock, token)
}

export interface ClubCancellation {
  readonly outcome: 'cancelled' | 'already-cancelled' | 'ended'
  /** The booking as it is after the attempt. */
  readonly booking: BookingDetails
}

/**
 * Cancels a booking of the club, with the reason the guest reads in the mail. A booking that has
 * ended stays as it was (it took place, or its history is settled). `undefined`: no such booking
 * at this club.
 */
export async function cancelByClub(
  db: Kysely<Database>,
  clock: Clock,
  settings: CancellationSettings,
  input: { readonly clubId: string, readonly bookingId: string, readonly reason: string | null, readonly actor: Actor },
): Promise<ClubCancellation | undefined> {
  const { clubId, bookingId, reason } = input
  const booking = await findBooking(db, clubId, bookingId)
  if (booking === undefined) return undefined
  const now = clock.now()
  if (booking.status === 'cancelled') return { outcome: 'already-cancelled', booking }
  if (booking.end <= now) return { outcome: 'ended', booking }
  const cancelled = await cancel(db, now, settings, booking, { by: 'club', reason }, input.actor)
  const after = await findBooking(db, clubId, bookingId) ?? booking
  return { outcome: cancelled ? 'cancelled' : 'already-cancelled', booking: after }
}

/** The change and its mail in one transaction; false when another cancellation came first. */
async function cancel(
  db: Kysely<Database>,
  now: number,
  settings: CancellationSettings,
  booking: BookingDetails,
  cancellation: Cancellation,
  actor?: Actor,
): Promise<boolean> {
  return write(db, now, (work) => cancelIn(work, settings, booking, cancellation, actor))
}

/** A booking as the audit log names it: its court and time at the club, never its guest. */
export function bookingLabel(booking: Pick<BookingDetails, 'courtName' | 'start' | 'end' | 'timezone'>): string {
  const [date = '', from = ''] = formatInZone(booking.start, booking.timezone).split('T')
  const until = formatInZone(booking.end, booking.timezone).split('T')[1] ?? ''
  return `${booking.courtName}, ${date} ${from.slice(0, 5)}–${until.slice(0, 5)}`
}

/**
 * Cancels a booking and queues its mail in the caller's unit of work; false when it was no longer
 * confirmed. With an actor, recorded in the audit log, with what caused it (`cause`: a court's
 * change) and the reason. `notify` false: no mail (the rest of a series, cancelled at once).
 */
export async function cancelIn(
  work: UnitOfWork,
  settings: CancellationSettings,
  booking: BookingDetails,
  cancellation: Cancellation,
  actor?: Actor,
  cause?: string,
  notify = true,
): Promise<boolean> {
  const { now } = work
  const sequence = await markCancelled(work.db, booking.clubId, booking.id, cancellation, now)
  if (sequence === undefined) return false
  if (actor !== undefined) {
    const detail = [cause, cancellation.reason].filter((part) => part !== undefined && part !== null && part !== '').join(': ')
    await work.audit(actor, booking.clubId, { action: 'booking.cancelled', target: booking.id,
      targetName: bookingLabel(booking), detail: detail === '' ? null : detail })
  }
  await work.events(booking.clubId, [{ type: 'booking.cancelled', subjectId: booking.id,
    data: bookingData({ ...booking, cancelledAt: now, cancelledBy: cancellation.by }) }])
  // A booking the club took without an address (src/services/bookings.ts, staff bookings) has no one to mail.
  if (notify && booking.bookerEmail !== '') {
    const mail = renderBookingCancellation({
      bookingId: booking.id, clubName: booking.clubName, timezone: booking.timezone, courtName: booking.courtName,
      start: booking.start, end: booking.end, bookerName: booking.bookerName, bookerEmail: booking.bookerEmail,
      language: booking.language, contactEmail: booking.contactEmail, contactPhone: booking.contactPhone,
      clubAddress: booking.clubAddress, mailFrom: settings.mailFrom,
      cancelledAt: now, by: cancellation.by, reason: cancellation.reason, sequence,
      bookingPageUrl: bookingPageUrl(settings.publicUrl, booking.clubSlug),
    })
    await work.mail({
      clubId: booking.clubId, bookingId: booking.id, recipientName: booking.bookerName, recipientEmail: booking.bookerEmail,
      subject: mail.subject, text: mail.text, html: mail.html, ics: mail.ics,
      senderName: booking.clubName, replyTo: booking.contactEmail,
    }, settings.mailFrom)
  }
  // Whoever waits for the time it frees is told now, in the same transaction.
  await slotsFreed(work, settings, { clubId: booking.clubId, courtId: booking.courtId,
    intervals: [{ start: booking.start, end: booking.end }], cause: 'cancellation', bookerEmail: booking.bookerEmail })
  work.changed(`courts:${booking.clubId}`)
  return true
}
