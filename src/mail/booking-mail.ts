/**
 * The mails about a booking — its confirmation, its move and its cancellation — rendered when the booking
 * is made or cancelled and stored in the outbox, so that delivery never depends on data that may
 * change later. Booker input (name, notes) only ever
 * appears in bodies — HTML-escaped in the HTML part, escaped per RFC 5545 in the calendar file —
 * and as the display name of the recipient, which the mail library encodes; it never becomes a
 * header line of its own. Links in the notes are replaced by a marker (src/domain/links.ts); the
 * name cannot hold one (the booking rules refuse it).
 */
import { icsInstant, icsParam, icsText, icsUri, vcalendar } from '../domain/icalendar.js'
import { withoutLinks } from '../domain/links.js'
import { escapeHtml } from '../domain/html.js'
import { dateTimeFormat, formatInZone, localDateOf, zoneName } from '../domain/zoned-time.js'
import { mailText } from '../i18n/guest/index.js'
import type { MailMessageKey } from '../i18n/guest/index.js'
import { LOCALES } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'

/** The booking as a mail about it describes it. */

export interface BookingFacts {
  readonly bookingId: string
  readonly clubName: string
  readonly timezone: string
  readonly courtName: string
  readonly start: number
  readonly end: number
  readonly bookerName: string
  /** The guest's address: the calendar event's attendee. */
  readonly bookerEmail: string
  /** The language the booking was made in: every mail about it is written in it. */
  readonly language: GuestLanguage
  /**
   * The club's contact address (its mails' Reply-To), or null; and the service's sender (MAIL_FROM).
   * Calendars show the first, else the second's address, as the event's organiser with the club's
   * name, and the mails say a reply reaches the club when there is the first.
   */
  readonly contactEmail: string | null
  readonly mailFrom: string
  /** The club's postal address (the calendar event's location) and phone number, when it has them. */
  readonly clubAddress?: string | null
  readonly contactPhone?: string | null
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
  /** The club's hosted booking page: the way back to booking another time. */
  readonly bookingPageUrl: string
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly ics: string
}

/** A text of the mails in the booking's language. */
function say(input: { readonly language: GuestLanguage }, key: MailMessageKey, params: Readonly<Record<string, string>> = {}):
string {
  return mailText(input.language, key, params)
}

function formatted(language: GuestLanguage, options: Intl.DateTimeFormatOptions, instant: number, timeZone: string): string {
  return dateTimeFormat(LOCALES[language], { ...options, timeZone }).format(new Date(instant))
}

const LONG_DATE: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }
const SHORT_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }

/**
 * When a booking is, in the club's zone and the guest's language: a span for the body (the zone
 * named) and a shorter one for the subject. Times are written 24-hour in every language.
 */
export function timeOf(input: Pick<BookingFacts, 'language' | 'timezone' | 'start' | 'end'>): { when: string, short: string } {
  const { language, timezone } = input
  const date = localDateOf(input.start, timezone)
  const from = formatInZone(input.start, timezone).slice(11, 16)
  // A booking that ends at midnight ends at 24:00 of its day; one across midnight names both dates.
  const sameDay = localDateOf(input.end - 1, timezone) === date
  const endsAtMidnight = sameDay && localDateOf(input.end, timezone) !== date
  const to = endsAtMidnight ? '24:00' : formatInZone(input.end, timezone).slice(11, 16)
  const long = (instant: number) => formatted(language, LONG_DATE, instant, timezone)
  const short = (instant: number) => formatted(language, SHORT_DATE, instant, timezone)
  const span = sameDay ? `${long(input.start)}, ${from}–${to}` : `${long(input.start)} ${from} – ${long(input.end)} ${to}`
  return { when: `${span} (${zoneName(LOCALES[language], timezone, input.start)})`,
    short: sameDay ? `${short(input.start)}, ${from}–${to}` : `${short(input.start)} ${from} – ${short(input.end)} ${to}` }
}

/** A local date and time at the club, in the guest's language: `Tuesday 24 November 2026, 16:00 (Central European Time)`. */
function localMoment(instant: number, input: BookingFacts): string {
  return `${formatted(input.language, LONG_DATE, instant, input.timezone)}, ${formatInZone(instant, input.timezone).slice(11, 16)} `
    + `(${zoneName(LOCALES[input.language], input.timezone, instant)})`
}

export const PAGE_START = '<!doctype html><html><body style="font-family:sans-serif">'

/** How the guest reaches the club, as a mail says it: a reply (its contact address), its phone number. */
function contactOf(input: BookingFacts & { readonly clubName: string }): string[] {
  return [
    ...input.contactEmail === null ? [] : [say(input, 'contact', { club: input.clubName })],
    ...input.contactPhone == null ? [] : [say(input, 'contactPhone', { phone: input.contactPhone })],
  ]
}

function factsTable(input: BookingFacts, when: string): string {
  return '<table>'
    + `<tr><th align="left">${escapeHtml(say(input, 'court'))}</th><td>${escapeHtml(input.courtName)}</td></tr>`
    + `<tr><th align="left">${escapeHtml(say(input, 'when'))}</th><td>${escapeHtml(when)}</td></tr>`
    + `<tr><th align="left">${escapeHtml(say(input, 'bookingId'))}</th><td>${escapeHtml(input.bookingId)}</td></tr>`
    + '</table>'
}

/** The facts as lines of the text part, labels padded to one column. */
function factsLines(input: BookingFacts, when: string): string[] {
  const labels = [say(input, 'court'), say(input, 'when'), say(input, 'bookingId')].map((label) => say(input, 'labelled', { label }))
  const width = Math.max(...labels.map((label) => label.length)) + 1
  return [input.courtName, when, input.bookingId].map((value, i) => `${(labels[i] ?? '').padEnd(width)}${value}`)
}

export function renderBookingConfirmation(confirmation: ConfirmationInput): RenderedMail {
  // The club sees the notes as written; the guest's copy never carries a link a stranger put there.
  const input = { ...confirmation, notes: confirmation.notes === null ? null : withoutLinks(confirmation.notes) }
  const { when, short } = timeOf(input)
  const club = input.clubName
  const subject = oneLine(say(input, 'confirmedSubject', { court: input.courtName, when: short, club }))
  const until = localMoment(input.manage.cancelUntil, input)
  // Booked after the deadline: no promise that has passed; how the club is reached instead.
  const late = input.manage.cancelUntil <= input.createdAt
  const contact = contactOf(input)
  const manageText = late ? say(input, 'manageTextLate', { club }) : say(input, 'manageText', { until })
  const lines = [
    say(input, 'hello', { name: input.bookerName }),
    '',
    say(input, 'confirmedIntro', { club }),
    '',
    ...factsLines(input, when),
    ...(input.notes === null ? [] : ['', say(input, 'notesHeading'), input.notes]),
    '',
    manageText,
    input.manage.url,
    '',
    say(input, 'calendarAdds'),
    ...contact.flatMap((line) => ['', line]),
    ...(input.privacyUrl == null ? [] : ['', `${say(input, 'privacy', { club })}: ${input.privacyUrl}`]),
  ]
  const html = PAGE_START
    + `<p>${escapeHtml(say(input, 'hello', { name: input.bookerName }))}</p>`
    + `<p>${escapeHtml(say(input, 'confirmedIntro', { club }))}</p>`
    + factsTable(input, when)
    + (input.notes === null
      ? ''
      : `<p>${escapeHtml(say(input, 'notesHeading'))}</p><p style="white-space:pre-wrap">${escapeHtml(input.notes)}</p>`)
    + (late
      ? `<p>${escapeHtml(manageText)} <a href="${escapeHtml(input.manage.url)}">${escapeHtml(say(input, 'manageLinkLate'))}</a></p>`
      : `<p><a href="${escapeHtml(input.manage.url)}">${escapeHtml(say(input, 'manageLink'))}</a> `
        + `${escapeHtml(say(input, 'manageUntil', { until }))}</p>`)
      + `<p>${escapeHtml(say(input, 'calendarAdds'))}</p>`
      + contact.map((line) => `<p>${escapeHtml(line)}</p>`).join('')
      + (input.privacyUrl == null
        ? ''
        : `<p style="font-size:small"><a href="${escapeHtml(input.privacyUrl)}">${escapeHtml(say(input, 'privacy', { club }))}</a></p>`)
      + '</body></html>'
  const description = [`${say(input, 'labelled', { label: say(input, 'bookingId') })} ${input.bookingId}`,
    ...(input.notes === null ? [] : [input.notes]),
    say(input, 'descriptionManage', { url: input.manage.url })].join('\n')
  return { subject, text: lines.join('\n'), html,
    ics: bookingIcs(input, { method: 'REQUEST', sequence: 0, url: input.manage.url }, input.createdAt, description) }
}

const CANCELLED_BY: Readonly<Record<CancellationInput['by'], MailMessageKey>> = {
  guest: 'cancelledByGuest',
  club: 'cancelledByClub',
  hold: 'cancelledByHold',
}

/**
 * The cancellation: the same calendar event (same UID) with a higher SEQUENCE and METHOD:CANCEL,
 * so that calendars remove the event the confirmation added; and the way back to booking.
 */
export function renderBookingCancellation(input: CancellationInput): RenderedMail {
  const { when, short } = timeOf(input)
  const club = input.clubName
  const subject = oneLine(say(input, 'cancelledSubject', { court: input.courtName, when: short, club }))
  const reason = input.reason === null || input.reason.trim() === '' ? null : input.reason.trim()
  const contact = input.contactEmail === null ? null : say(input, 'contact', { club })
  const lines = [
    say(input, 'hello', { name: input.bookerName }),
    '',
    say(input, CANCELLED_BY[input.by], { club }),
    ...(reason === null ? [] : ['', say(input, 'reason'), reason]),
    '',
    ...factsLines(input, when),
    '',
    say(input, 'slotFree'),
    '',
    `${say(input, 'labelled', { label: say(input, 'bookAgain') })} ${input.bookingPageUrl}`,
    ...(contact === null ? [] : ['', contact]),
  ]
  const html = PAGE_START
    + `<p>${escapeHtml(say(input, 'hello', { name: input.bookerName }))}</p>`
    + `<p>${escapeHtml(say(input, CANCELLED_BY[input.by], { club }))}</p>`
    + (reason === null ? '' : `<p>${escapeHtml(say(input, 'reason'))}</p><p style="white-space:pre-wrap">${escapeHtml(reason)}</p>`)
    + factsTable(input, when)
    + `<p>${escapeHtml(say(input, 'slotFree'))}</p>`
    + `<p><a href="${escapeHtml(input.bookingPageUrl)}">${escapeHtml(say(input, 'bookAgain'))}</a></p>`
    + (contact === null ? '' : `<p>${escapeHtml(contact)}</p>`)
    + '</body></html>'
  const description = [`${say(input, 'labelled', { label: say(input, 'bookingId') })} ${input.bookingId}`,
    ...(reason === null ? [] : [`${say(input, 'reason')} ${reason}`])].join('\n')
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input, { method: 'CANCEL', sequence: input.sequence },
    input.cancelledAt, description) }
}

export interface MoveInput extends BookingFacts {
  /** The guest's notes, repeated as the confirmation had them. */
  readonly notes: string | null
  /** Where and when the booking was before the move. */
  readonly previous: { readonly courtName: string, readonly start: number, readonly end: number }
  /** The event's SEQUENCE after the move: one more than its last mail's. */
  readonly sequence: number
  readonly movedAt: number
  /** Who moved it: the guest (the booking's page) or the club. */
  readonly by: 'guest' | 'club'
  /** The guest's own page of the booking, unchanged by the move. */
  readonly manageUrl: string | null
}

/**
 * The move of a booking to another time or court: the same calendar event (same UID) with a
 * higher SEQUENCE and METHOD:REQUEST (RFC 5546 §3.2.2), so that calendars update the event the
 * confirmation added instead of adding a second one.
 */
export function renderBookingMove(input: MoveInput): RenderedMail {
  const { when, short } = timeOf(input)
  const before = timeOf({ ...input, ...input.previous })
  const club = input.clubName
  const subject = oneLine(say(input, 'movedSubject', { court: input.courtName, when: short, club }))
  const moved = say(input, input.by === 'guest' ? 'movedByGuest' : 'movedByClub', { club })
  const was = say(input, 'was', { before: `${input.previous.courtName}, ${before.when}` })
  const contact = input.contactEmail === null ? null : say(input, 'contact', { club })
  // The guest's copy never carries a link a stranger put into the notes.
  const notes = input.notes === null ? null : withoutLinks(input.notes)
  const lines = [
    say(input, 'hello', { name: input.bookerName }),
    '',
    moved,
    '',
    ...factsLines(input, when),
    ...(notes === null ? [] : ['', say(input, 'notesHeading'), notes]),
    '',
    was,
    '',
    say(input, 'moveCalendar'),
    ...(contact === null ? [] : ['', contact]),
  ]
  const html = PAGE_START
    + `<p>${escapeHtml(say(input, 'hello', { name: input.bookerName }))}</p>`
    + `<p>${escapeHtml(moved)}</p>`
    + factsTable(input, when)
    + (notes === null ? '' : `<p>${escapeHtml(say(input, 'notesHeading'))}</p><p style="white-space:pre-wrap">${escapeHtml(notes)}</p>`)
    + `<p>${escapeHtml(was)}</p>`
    + `<p>${escapeHtml(say(input, 'moveCalendar'))}</p>`
    + (contact === null ? '' : `<p>${escapeHtml(contact)}</p>`)
    + '</body></html>'
  const description = [`${say(input, 'labelled', { label: say(input, 'bookingId') })} ${input.bookingId}`,
    ...(notes === null ? [] : [notes]),
    ...(input.manageUrl === null ? [] : [say(input, 'descriptionManage', { url: input.manageUrl })])].join('\n')
  return { subject, text: lines.join('\n'), html, ics: bookingIcs(input, { method: 'REQUEST', sequence: input.sequence,
    ...(input.manageUrl === null ? {} : { url: input.manageUrl }) }, input.movedAt, description) }
}

/** Why a booking was refused for its address (the kind of limit it met and the count it reached). */
export interface RefusalInput {
  readonly clubName: string
  readonly limit: 'open' | 'daily' | 'members'
  readonly count: number
  /** The language the refused booking was asked in. */
  readonly language: GuestLanguage
}

const REFUSED_BECAUSE: Readonly<Record<RefusalInput['limit'], MailMessageKey>> = {
  open: 'refusedOpen', daily: 'refusedDaily', members: 'refusedMembers',
}

/** The notice to an address whose booking was refused: why, without any text of the requester's. */
export function renderBookingRefusal(input: RefusalInput): Omit<RenderedMail, 'ics'> {
  const club = input.clubName
  const why = say(input, REFUSED_BECAUSE[input.limit], { club, count: String(input.count) })
  const text = [say(input, 'helloAnonymous'), '', say(input, 'refusedIntro', { club, why }), '', say(input, 'refusedNothing')]
  return { subject: oneLine(say(input, 'refusedSubject', { club })), text: text.join('\n'),
    html: `${PAGE_START}${text.filter((line) => line !== '').map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>` }
}

export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ')
}

/**
 * What an iCalendar part says of its event (RFC 5546): requested (the confirmation, and anew after a
 * move) or cancelled; both name the organiser (the club) and the attendee (the guest, who booked it
 * and so has accepted it; no reply is asked for). Each change of the event raises its SEQUENCE
 * (RFC 5545 §3.8.7.4): the confirmation is 0, each move and the cancellation one more than the mail
 * before. PUBLISH, without an attendee as RFC 5546 §3.2.1 requires, is the booking page's calendar
 * file (calendarFile).
 */
interface IcsChange {
  readonly method: 'PUBLISH' | 'REQUEST' | 'CANCEL'
  readonly sequence: number
  /** The guest's page of the booking (the event's URL). */
  readonly url?: string
  /** A published event that no longer takes place (the booking page's file of a cancelled booking). */
  readonly cancelled?: boolean
}

/** How long before the start a calendar reminds the guest of a booking (its VALARM). */
export const REMINDER_MINUTES = 120

/** The event's reminder: a calendar shows it two hours before the start (RFC 5545 §3.6.6). */
function reminder(input: BookingFacts): string[] {
  return ['BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${icsText(`${input.courtName} — ${input.clubName}`)}`,
    `TRIGGER:-PT${String(REMINDER_MINUTES / 60)}H`, 'END:VALARM']
}

function bookingIcs(input: BookingFacts, change: IcsChange, stamp: number, description: string): string {
  const { method } = change
  const cancelled = method === 'CANCEL' || change.cancelled === true
  const attendee = method === 'PUBLISH' || input.bookerEmail === ''
    ? []
    : [`ATTENDEE;CN=${icsParam(input.bookerName)};ROLE=REQ-PARTICIPANT${method === 'CANCEL' ? '' : ';PARTSTAT=ACCEPTED;RSVP=FALSE'}`
      + `:mailto:${icsUri(input.bookerEmail)}`]
  return vcalendar([`METHOD:${method}`], [[
    'BEGIN:VEVENT',
    `UID:${input.bookingId}@club-platform`,
    `SEQUENCE:${String(change.sequence)}`,
    `DTSTAMP:${icsInstant(stamp)}`,
    `DTSTART:${icsInstant(input.start)}`,
    `DTEND:${icsInstant(input.end)}`,
    `ORGANIZER;CN=${icsParam(input.clubName)}:mailto:${icsUri(input.contactEmail ?? addressOf(input.mailFrom))}`,
    ...attendee,
    `SUMMARY:${icsText(`${input.courtName} — ${input.clubName}`)}`,
    // Where it is: the club and the court, and the club's address when it has one (a calendar's map finds that).
    `LOCATION:${icsText([input.clubName, input.courtName, input.clubAddress ?? ''].filter((part) => part !== '').join(', '))}`,
    `DESCRIPTION:${icsText(description)}`,
    ...change.url === undefined ? [] : [`URL:${icsUri(change.url)}`],
    `STATUS:${method === 'CANCEL' || change.cancelled === true ? 'CANCELLED' : 'CONFIRMED'}`,
    ...cancelled ? [] : reminder(input),
    'END:VEVENT',
  ]])
}

/**
 * The booking's calendar file as its page offers it to download (METHOD:PUBLISH: the event as it
 * stands, the UID and SEQUENCE of the mails' event, so a calendar that has it updates it).
 */
export interface CalendarFileInput extends BookingFacts {
  /** The event's SEQUENCE now, whether the booking is cancelled, its page, and the file's DTSTAMP. */
  readonly sequence: number
  readonly cancelled: boolean
  readonly manageUrl: string
  readonly stamp: number
}

export function calendarFile(input: CalendarFileInput): string {
  const description = [`${say(input, 'labelled', { label: say(input, 'bookingId') })} ${input.bookingId}`,
    say(input, 'descriptionManage', { url: input.manageUrl })]
    .join('\n')
  return bookingIcs(input, { method: 'PUBLISH', sequence: input.sequence, url: input.manageUrl, cancelled: input.cancelled },
    input.stamp, description)
}

/** The address of a From setting such as `Club Platform <no-reply@example.org>`. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim()
}
