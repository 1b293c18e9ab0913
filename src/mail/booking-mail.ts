/**
 * The mails about a booking — its confirmation, its move and its cancellation — rendered when the booking
 * is made or cancelled and stored in the outbox, so that delivery never depends on data that may
 * change later. Booker input (name, notes) only ever
 * appears in bodies — HTML-escaped in the HTML part, escaped per RFC 5545 in the calendar file —
 * and as the display name of the recipient, which the mail library encodes; it never becomes a
 * header line of its own. Links in the notes are replaced by a marker (src/domain/links.ts); the
 * name cannot hold one (the booking rules refuse it).
 */
import { withoutLinks } from '../domain/links.js'
import { escapeHtml } from '../domain/html.js'
import { formatInZone, localDateOf } from '../domain/zoned-time.js'

/** The booking as a mail about it describes it. */

export interface BookingFacts {
  readonly bookingId: string
  readonly clubName: string
  readonly timezone: string
  readonly courtName: string
  readonly start: number
  readonly end: number
  readonly bookerName: string
  /** The address calendars show as the event's organiser (the service's sender address). */
  readonly organizer: string
}

export interface ConfirmationInput extends BookingFacts {
  readonly notes: string | null
  readonly createdAt: number
  /** The guest's own page of the booking (see and cancel), and until when it may cancel. */
  readonly manage: { readonly url: string, readonly cancelUntil: number }
  /** The club's privacy notice, when it has set one. */
  readonly privacyUrl?: string | null
}

export interface CancellationInput extends BookingFacts {
  /** The event's SEQUENCE after the cancellation: one more than its last mail's. */
  readonly sequence: number
  readonly cancelledAt: number
  readonly by: 'guest' | 'club' | 'hold'
  /** The club's reason, shown to the guest as written (escaped). */
  readonly reason: string | null
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly ics: string
}

/** When a booking is, in the club's zone: a span for the body and a shorter one for the subject. */
function timeOf(input: BookingFacts): { when: string, short: string } {
  const date = localDateOf(input.start, input.timezone)
  const from = formatInZone(input.start, input.timezone).slice(11, 16)
  // A booking that ends at midnight ends at 24:00 of its day; one across midnight names both dates.
  const sameDay = localDateOf(input.end - 1, input.timezone) === date
  const endsAtMidnight = sameDay && localDateOf(input.end, input.timezone) !== date
  const to = endsAtMidnight ? '24:00' : formatInZone(input.end, input.timezone).slice(11, 16)
  const span = sameDay ? `${date}, ${from}–${to}` : `${date} ${from} – ${localDateOf(input.end, input.timezone)} ${to}`
  return { when: `${span} (${input.timezone})`, short: sameDay ? `${date} ${from}–${to}` : span }
}

/** A local date and time in the club's zone, as the mails write it: `2026-11-24 16:00 (Europe/Berlin)`. */
function localMoment(instant: number, timeZone: string): string {
  return `${formatInZone(instant, timeZone).slice(0, 16).replace('T', ' ')} (${timeZone})`
}

export function renderBookingConfirmation(confirmation: ConfirmationInput): RenderedMail {
  // The club sees the notes as written; the guest's copy never carries a link a stranger put there.
  const input = { ...confirmation, notes: confirmation.notes === null ? null : withoutLinks(confirmation.notes) }
  const { when, short } = timeOf(input)
  const subject = oneLine(`Booking confirmed: ${input.courtName}, ${short} — ${input.clubName}`)
  const until = localMoment(input.manage.cancelUntil, input.timezone)
  const lines = [
    `Hello ${input.bookerName},`,
    '',
    `your booking at ${input.clubName} is confirmed.`,
    '',
    `Court:      ${input.courtName}`,
    `When:       ${when}`,
    `Booking id: ${input.bookingId}`,
    ...(input.notes === null ? [] : ['', 'Your notes:', input.notes]),
    '',
    `Your booking's page, where you can cancel it until ${until}:`,
    input.manage.url,
    '',
    'The attached calendar file adds the booking to your calendar.',
    ...(input.privacyUrl == null ? [] : ['', `How ${input.clubName} handles your data: ${input.privacyUrl}`]),
  ]
  const html = '<!doctype html><html><body style="font-family:sans-serif">'
    + `<p>Hello ${escapeHtml(input.bookerName)},</p>`
    + `<p>your booking at <strong>${escapeHtml(input.clubName)}</strong> is confirmed.</p>`
    + '<table>'
    + `<tr><th align="left">Court</th><td>${escapeHtml(input.courtName)}</td></tr>`
    + `<tr><th align="left">When</th><td>${escapeHtml(when)}</td></tr>`
    + `<tr><th align="left">Booking id</th><td>${escapeHtml(input.bookingId)}</td></tr>`
    + '</table>'
    + (input.notes === null ? '' : `<p>Your notes:</p><p style="white-space:pre-wrap">${escapeHtml(input.notes)}</p>`)
    + `<p><a href="${escapeHtml(input.manage.url)}">See or cancel your booking</a> (cancellation possible until `
    + `${escapeHtml(until)}).</p>`
    + '<p>The attached calendar file adds the booking to your calendar.</p>'
    + (input.privacyUrl == null
      ? ''
      : `<p style="font-size:small"><a href="${escapeHtml(input.privacyUrl)}">How `
        + `${escapeHtml(input.clubName)} handles your data</a></p>`)
      + '</body></html>'
  const description = [`Booking id: ${input.bookingId}`, ...(input.notes === null ? [] : [`Notes: ${input.notes}`])].join('\n')
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input, { method: 'PUBLISH', sequence: 0 }, input.createdAt,
    description) }
}

const CANCELLED_BY: Readonly<Record<CancellationInput['by'], string>> = {
  guest: 'as you asked',
  club: 'by the club',
  hold: 'by the club: the court is not available at that time after all',
}

/**
 * The cancellation: the same calendar event (same UID) with a higher SEQUENCE and METHOD:CANCEL,
 * so that calendars remove the event the confirmation added.
 */
export function renderBookingCancellation(input: CancellationInput): RenderedMail {
  const { when, short } = timeOf(input)
  const subject = oneLine(`Booking cancelled: ${input.courtName}, ${short} — ${input.clubName}`)
  const reason = input.reason === null || input.reason.trim() === '' ? null : input.reason.trim()
  const lines = [
    `Hello ${input.bookerName},`,
    '',
    `your booking at ${input.clubName} has been cancelled ${CANCELLED_BY[input.by]}.`,
    ...(reason === null ? [] : ['', 'Reason:', reason]),
    '',
    `Court:      ${input.courtName}`,
    `When:       ${when}`,
    `Booking id: ${input.bookingId}`,
    '',
    'The slot is free again. The attached calendar file removes the booking from your calendar.',
  ]
  const html = '<!doctype html><html><body style="font-family:sans-serif">'
    + `<p>Hello ${escapeHtml(input.bookerName)},</p>`
    + `<p>your booking at <strong>${escapeHtml(input.clubName)}</strong> has been cancelled ${escapeHtml(CANCELLED_BY[input.by])}.</p>`
    + (reason === null ? '' : `<p>Reason:</p><p style="white-space:pre-wrap">${escapeHtml(reason)}</p>`)
    + '<table>'
    + `<tr><th align="left">Court</th><td>${escapeHtml(input.courtName)}</td></tr>`
    + `<tr><th align="left">When</th><td>${escapeHtml(when)}</td></tr>`
    + `<tr><th align="left">Booking id</th><td>${escapeHtml(input.bookingId)}</td></tr>`
    + '</table>'
    + '<p>The slot is free again. The attached calendar file removes the booking from your calendar.</p></body></html>'
  const description = [`Booking id: ${input.bookingId}`, ...(reason === null ? [] : [`Reason: ${reason}`])].join('\n')
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input, { method: 'CANCEL', sequence: input.sequence },
    input.cancelledAt, description) }
}

export interface MoveInput extends BookingFacts {
  /** Where and when the booking was before the move. */
  readonly previous: { readonly courtName: string, readonly start: number, readonly end: number }
  /** The event's SEQUENCE after the move: one more than its last mail's. */
  readonly sequence: number
  readonly movedAt: number
  /** Who moved it: the guest (the booking's page) or the club. */
  readonly by: 'guest' | 'club'
  /** The guest's address: the event's attendee. */
  readonly attendee: string
}

/**
 * The move of a booking to another time or court: the same calendar event (same UID) with a
 * higher SEQUENCE and METHOD:REQUEST (RFC 5546 §3.2.2), so that calendars update the event the
 * confirmation added instead of adding a second one.
 */
export function renderBookingMove(input: MoveInput): RenderedMail {
  const { when, short } = timeOf(input)
  const before = timeOf({ ...input, ...input.previous })
  const subject = oneLine(`Booking moved: ${input.courtName}, ${short} — ${input.clubName}`)
  const moved = input.by === 'guest' ? 'has been moved as you asked' : 'has been moved by the club'
  const lines = [
    `Hello ${input.bookerName},`,
    '',
    `your booking at ${input.clubName} ${moved}.`,
    '',
    `Court:      ${input.courtName}`,
    `When:       ${when}`,
    `Booking id: ${input.bookingId}`,
    '',
    `It was: ${input.previous.courtName}, ${before.when}.`,
    '',
    'The link in your confirmation mail still leads to your booking\'s page. The attached calendar file moves the booking '
    + 'in your calendar.',
  ]
  const html = '<!doctype html><html><body style="font-family:sans-serif">'
    + `<p>Hello ${escapeHtml(input.bookerName)},</p>`
    + `<p>your booking at <strong>${escapeHtml(input.clubName)}</strong> ${escapeHtml(moved)}.</p>`
    + '<table>'
    + `<tr><th align="left">Court</th><td>${escapeHtml(input.courtName)}</td></tr>`
    + `<tr><th align="left">When</th><td>${escapeHtml(when)}</td></tr>`
    + `<tr><th align="left">Booking id</th><td>${escapeHtml(input.bookingId)}</td></tr>`
    + '</table>'
    + `<p>It was: ${escapeHtml(`${input.previous.courtName}, ${before.when}`)}.</p>`
    + '<p>The link in your confirmation mail still leads to your booking\'s page. The attached calendar file moves the booking '
    + 'in your calendar.</p></body></html>'
  const description = `Booking id: ${input.bookingId}`
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input, { method: 'REQUEST', sequence: input.sequence,
    attendee: { name: input.bookerName, address: input.attendee } }, input.movedAt, description) }
}

/** Why a booking was refused for its address (the kind of limit it met and the count it reached). */
export interface RefusalInput {
  readonly clubName: string
  readonly limit: 'open' | 'daily' | 'members'
  readonly count: number
}

/** The notice to an address whose booking was refused: why, without any text of the requester's. */
export function renderBookingRefusal(input: RefusalInput): Omit<RenderedMail, 'ics'> {
  const why = {
    open: `this address already holds ${String(input.count)} upcoming bookings at ${input.clubName}, the most allowed`,
    daily: `this address was used for ${String(input.count)} court bookings in the last 24 hours, the most allowed`,
    members: `only members of ${input.clubName} can book its courts online, and this address is not on its member list (if you `
      + 'are a member, book with the address the club has for you)',
  }[input.limit]
  const text = ['Hello,', '', `someone (perhaps you) tried to book a court at ${input.clubName} with this e-mail address. The `
    + `booking was not accepted: ${why}.`, '', 'If it was not you, nothing needs to be done; no booking was made with your '
    + 'address. You will receive at most one such message a day.']
  return { subject: `Booking not accepted — ${input.clubName}`, text: text.join('\n'),
    html: `<!doctype html><html><body style="font-family:sans-serif">${
      text.filter((line) => line !== '').map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>` }
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ')
}

/** RFC 5545 TEXT escaping. */
function icsText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n').replace(/\r/g, '')
}

function icsInstant(instant: number): string {
  return new Date(instant).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** Lines longer than 75 octets are folded (RFC 5545 §3.1), never inside a UTF-8 sequence. */
function fold(line: string): string {
  const out: string[] = []
  let current = ''
  let bytes = 0
  for (const char of line) {
    const size = Buffer.byteLength(char)
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current)
      current = ''
      bytes = 0
    }
    current += char
    bytes += size
  }
  out.push(current)
  return out.join('\r\n ')
}

/**
 * What an iCalendar part says of its event: published (the confirmation), requested anew (a move)
 * or cancelled. Each change of the event raises its SEQUENCE (RFC 5545 §3.8.7.4): the confirmation
 * is 0, each move and the cancellation one more than the mail before.
 */
interface IcsChange {
  readonly method: 'PUBLISH' | 'REQUEST' | 'CANCEL'
  readonly sequence: number
  readonly attendee?: { readonly name: string, readonly address: string }
}

function bookingIcs(input: BookingFacts, change: IcsChange, stamp: number, description: string): string {
  const { method, attendee } = change
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Club Platform//Court booking//EN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:${input.bookingId}@club-platform`,
    `SEQUENCE:${String(change.sequence)}`,
    `DTSTAMP:${icsInstant(stamp)}`,
    `DTSTART:${icsInstant(input.start)}`,
    `DTEND:${icsInstant(input.end)}`,
    `ORGANIZER;CN=${icsParam(input.clubName)}:mailto:${input.organizer}`,
    ...attendee === undefined
      ? []
      : [`ATTENDEE;CN=${icsParam(attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:${
          attendee.address.replace(/[\r\n]/g, '')}`],
    `SUMMARY:${icsText(`${input.courtName} — ${input.clubName}`)}`,
    `LOCATION:${icsText(`${input.clubName}, ${input.courtName}`)}`,
    `DESCRIPTION:${icsText(description)}`,
    `STATUS:${method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ].map(fold).join('\r\n') + '\r\n'
}

/** An RFC 5545 parameter value: quoted, without the characters a quoted value cannot hold. */
function icsParam(text: string): string {
  return `"${text.replace(/["\r\n\t]/g, ' ')}"`
}

/** The address of a From setting such as `Club Platform <no-reply@example.org>`. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim()
}
