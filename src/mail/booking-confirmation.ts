/**
 * The booking confirmation, rendered when the booking is made and stored in the outbox, so that
 * delivery never depends on data that may change later. Booker input (name, notes) only ever
 * appears in bodies — HTML-escaped in the HTML part, escaped per RFC 5545 in the calendar file —
 * and as the display name of the recipient, which the mail library encodes; it never becomes a
 * header line of its own. Links in the notes are replaced by a marker (src/domain/links.ts); the
 * name cannot hold one (the booking rules refuse it).
 */
import { withoutLinks } from '../domain/links.js'
import { formatInZone, localDateOf } from '../domain/zoned-time.js'

export interface ConfirmationInput {
  readonly bookingId: string
  readonly clubName: string
  readonly timezone: string
  readonly courtName: string
  readonly start: number
  readonly end: number
  readonly bookerName: string
  readonly notes: string | null
  readonly createdAt: number
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly ics: string
}

export function renderBookingConfirmation(confirmation: ConfirmationInput): RenderedMail {
  // The club sees the notes as written; the guest's copy never carries a link a stranger put there.
  const input = { ...confirmation, notes: confirmation.notes === null ? null : withoutLinks(confirmation.notes) }
  const date = localDateOf(input.start, input.timezone)
  const from = formatInZone(input.start, input.timezone).slice(11, 16)
  // A booking that ends at midnight ends at 24:00 of its day; one across midnight names both dates.
  const sameDay = localDateOf(input.end - 1, input.timezone) === date
  const endsAtMidnight = sameDay && localDateOf(input.end, input.timezone) !== date
  const to = endsAtMidnight ? '24:00' : formatInZone(input.end, input.timezone).slice(11, 16)
  const span = sameDay ? `${date}, ${from}–${to}` : `${date} ${from} – ${localDateOf(input.end, input.timezone)} ${to}`
  const when = `${span} (${input.timezone})`
  const subject = oneLine(`Booking confirmed: ${input.courtName}, ${sameDay ? `${date} ${from}–${to}` : span} — ${input.clubName}`)
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
    'The attached calendar file adds the booking to your calendar.',
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
    + '<p>The attached calendar file adds the booking to your calendar.</p></body></html>'
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input) }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`)
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

function bookingIcs(input: ConfirmationInput): string {
  const description = [`Booking id: ${input.bookingId}`, ...(input.notes === null ? [] : [`Notes: ${input.notes}`])].join('\n')
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Club Platform//Court booking//EN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${input.bookingId}@club-platform`,
    `DTSTAMP:${icsInstant(input.createdAt)}`,
    `DTSTART:${icsInstant(input.start)}`,
    `DTEND:${icsInstant(input.end)}`,
    `SUMMARY:${icsText(`${input.courtName} — ${input.clubName}`)}`,
    `LOCATION:${icsText(`${input.clubName}, ${input.courtName}`)}`,
    `DESCRIPTION:${icsText(description)}`,
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ].map(fold).join('\r\n') + '\r\n'
}
