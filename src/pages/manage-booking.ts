/**
 * The guest's page of a booking, opened from the link in the confirmation mail: what was booked,
 * its state, a button that cancels it, and the free times it can be moved to (a date chosen by a
 * GET form, a time by a POST form: no script needed). Rendered on the server as one small HTML document that
 * needs no JavaScript and loads nothing (its one style sheet is inline, allowed by its hash), in
 * English or German. It shows the club, the court and the time — never the guest's address, other
 * bookings or anything about members.
 */
import { createHash } from 'node:crypto'
import type { GuestBooking } from '../services/booking-cancellation.js'
import type { FreeTime } from '../services/booking-moves.js'
import { escapeHtml } from '../domain/html.js'

export type Language = 'en' | 'de'
export const LANGUAGES: readonly Language[] = ['en', 'de']

const TEXT = {
  en: {
    locale: 'en-GB',
    title: 'Your booking',
    notFoundTitle: 'Booking not found',
    notFound: 'This link does not lead to a booking. It may have been mistyped, or the booking has already taken place.',
    court: 'Court',
    when: 'When',
    status: 'Status',
    confirmed: 'Confirmed',
    cancelled: 'Cancelled',
    cancelledNow: 'Your booking is cancelled. The slot is free again, and a cancellation e-mail is on its way to you.',
    cancelledEarlier: (at: string, by: string) => `This booking was cancelled ${by} on ${at}.`,
    byGuest: 'at your request',
    byClub: 'by the club',
    byHold: 'by the club',
    reason: 'Reason',
    cancelUntil: (until: string) => `You can change or cancel it until ${until}.`,
    changeLink: 'Change the date or time',
    changeTitle: 'Change the date or time',
    changeIntro: (court: string) => `Free times on ${court}, as long as your booking:`,
    dateLabel: 'Date',
    showTimes: 'Show free times',
    noTimes: 'No time is free on this day. Choose another date.',
    timeLegend: 'New time',
    moveButton: 'Move my booking',
    movedNow: 'Your booking has been moved. An e-mail with the calendar update is on its way to you.',
    back: 'Back to your booking',
    taken: 'That time was taken meanwhile. Choose another one.',
    invalidTime: 'That time cannot be booked. Choose one of the free times.',
    tooLateChange: (until: string) => `This booking can no longer be changed here: changes were possible until ${until}. `
      + 'Please contact the club.',
    cancelButton: 'Cancel this booking',
    cannotUndo: 'Cancelling cannot be undone; you would need to book again.',
    tooLate: (until: string) => `This booking can no longer be cancelled here: cancellation was possible until ${until}. `
      + 'Please contact the club.',
    switchLanguage: 'Deutsch',
    privacy: 'Privacy notice of the club',
  },
  de: {
    locale: 'de-DE',
    title: 'Ihre Buchung',
    notFoundTitle: 'Buchung nicht gefunden',
    notFound: 'Dieser Link führt zu keiner Buchung. Vielleicht wurde er falsch übernommen, oder die Buchung liegt schon in der '
      + 'Vergangenheit.',
    court: 'Platz',
    when: 'Wann',
    status: 'Status',
    confirmed: 'Bestätigt',
    cancelled: 'Storniert',
    cancelledNow: 'Ihre Buchung ist storniert. Der Platz ist wieder frei, und eine Stornobestätigung ist per E-Mail unterwegs.',
    cancelledEarlier: (at: string, by: string) => `Diese Buchung wurde am ${at} ${by} storniert.`,
    byGuest: 'auf Ihren Wunsch',
    byClub: 'vom Verein',
    byHold: 'vom Verein',
    reason: 'Grund',
    cancelUntil: (until: string) => `Sie können sie bis ${until} ändern oder stornieren.`,
    changeLink: 'Datum oder Uhrzeit ändern',
    changeTitle: 'Datum oder Uhrzeit ändern',
    changeIntro: (court: string) => `Freie Zeiten auf ${court}, so lang wie Ihre Buchung:`,
    dateLabel: 'Datum',
    showTimes: 'Freie Zeiten zeigen',
    noTimes: 'An diesem Tag ist keine Zeit frei. Wählen Sie ein anderes Datum.',
    timeLegend: 'Neue Zeit',
    moveButton: 'Buchung verlegen',
    movedNow: 'Ihre Buchung ist verlegt. Eine E-Mail mit der Kalenderänderung ist unterwegs.',
    back: 'Zurück zu Ihrer Buchung',
    taken: 'Diese Zeit wurde inzwischen gebucht. Wählen Sie eine andere.',
    invalidTime: 'Diese Zeit kann nicht gebucht werden. Wählen Sie eine der freien Zeiten.',
    tooLateChange: (until: string) => `Diese Buchung kann hier nicht mehr geändert werden: Änderungen waren bis ${until} möglich. `
      + 'Bitte wenden Sie sich an den Verein.',
    cancelButton: 'Diese Buchung stornieren',
    cannotUndo: 'Eine Stornierung lässt sich nicht rückgängig machen; Sie müssten neu buchen.',
    tooLate: (until: string) => `Diese Buchung kann hier nicht mehr storniert werden: Eine Stornierung war bis ${until} möglich. `
      + 'Bitte wenden Sie sich an den Verein.',
    switchLanguage: 'English',
    privacy: 'Datenschutzhinweise des Vereins',
  },
} as const

const STYLE = [
  ':root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;'
  + 'background:#f4f5f7}',
  'body{margin:0;padding:1rem}',
  'main{max-width:32rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px #0002}',
  '.club{margin:0;color:#4a4f57;font-weight:600}',
  'h1{margin:.25rem 0 1rem;font-size:1.6rem}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:0 0 1.25rem}',
  'dt{font-weight:600;color:#4a4f57}dd{margin:0}',
  '.notice{border-left:4px solid #1c6b3a;background:#eaf5ee;padding:.75rem 1rem;margin:0 0 1.25rem}',
  '.notice.warn{border-color:#8a4b00;background:#fdf3e6}',
  'button{font:inherit;font-weight:600;color:#fff;background:#b3261e;border:0;border-radius:8px;padding:.75rem 1.25rem;'
  + 'min-height:44px;width:100%;cursor:pointer}',
  'button:focus-visible,a:focus-visible{outline:3px solid #1a4fd6;outline-offset:2px}',
  '.hint{color:#4a4f57;font-size:.95rem}',
  'nav{margin-top:1.5rem;font-size:.95rem}a{color:#1a4fd6}',
  'h2{font-size:1.2rem;margin:1.5rem 0 .5rem}',
  'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.5rem}',
  '.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.5rem}',
  '.times label{display:flex;align-items:center;gap:.4rem;white-space:nowrap;border:1px solid #c4c8cf;border-radius:8px;'
  + 'padding:.5rem .6rem;'
  + 'min-height:44px;box-sizing:border-box}',
  '.date{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:1rem}',
  '.date label{display:flex;flex-direction:column;font-weight:600}',
  'input[type=date]{font:inherit;min-height:44px;padding:0 .5rem;border:1px solid #8a8f98;border-radius:8px}',
  'button.secondary{background:#fff;color:#1a4fd6;border:2px solid #1a4fd6;width:auto}',
  'button.primary{background:#1c6b3a}',
].join('')

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

/** The page's headers: it loads nothing, runs nothing, is never framed or indexed, and sends no Referer. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; frame-ancestors 'none'; `
    + 'base-uri \'none\'',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
}

/**
 * The language of the page: `?lang=` when the guest chose one, otherwise the first of the browser's
 * preferences (Accept-Language, by weight) that the page speaks; English when none.
 */
export function languageOf(query: unknown, acceptLanguage: string | undefined): Language {
  const chosen = typeof query === 'object' && query !== null && 'lang' in query ? query.lang : undefined
  if (chosen === 'en' || chosen === 'de') return chosen
  const preferences = (acceptLanguage ?? '').split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';')
    const weight = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((q) => q !== undefined)
    return { primary: tag.split('-')[0] ?? '', q: weight === undefined ? 1 : Number(weight), index }
  }).filter((preference) => preference.q > 0).sort((a, b) => b.q - a.q || a.index - b.index)
  return preferences.map((preference) => preference.primary).find((tag): tag is Language => tag === 'en' || tag === 'de') ?? 'en'
}

function document(language: Language, title: string, body: string, switchHref: string, privacyUrl: string | null = null): string {
  const text = TEXT[language]
  const other: Language = language === 'en' ? 'de' : 'en'
  const privacy = privacyUrl === null ? '' : ` · <a href="${escapeHtml(privacyUrl)}" rel="noreferrer">${text.privacy}</a>`
  return '<!doctype html>'
    + `<html lang="${language}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`
    + `<body><main>${body}`
    + `<nav><a href="${escapeHtml(switchHref)}" hreflang="${other}" lang="${other}">${text.switchLanguage}</a>${privacy}</nav>`
    + '</main></body></html>'
}

function moment(instant: number, timeZone: string, language: Language): string {
  const locale = TEXT[language].locale
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone }).format(instant)
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(instant)
  return `${date}, ${time}`
}

function span(start: number, end: number, timeZone: string, language: Language): string {
  const locale = TEXT[language].locale
  const day = (instant: number) => new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone }).format(instant)
  const time = (instant: number) =>
    new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(instant)
  // A booking that ends at midnight ends at 24:00 of its day.
  const endsSameDay = day(end - 1) === day(start)
  const to = endsSameDay ? (day(end) === day(start) ? time(end) : '24:00') : `${day(end)}, ${time(end)}`
  return `${day(start)}, ${time(start)}–${to} (${timeZone})`
}

export interface PageView {
  readonly language: Language
  /** The page's own address with the other language chosen. */
  readonly switchHref: string
}

/** The change of time as the page shows it. */
export interface ChangeView {
  /** The local date whose free times are listed. */
  readonly date: string
  readonly times: readonly FreeTime[]
  /** Where the move form posts, and the page without the change open. */
  readonly moveAction: string
  readonly backHref: string
  /** The language the guest chose (`?lang=`), kept by the date form. */
  readonly chosenLanguage: Language | undefined
}

/** What the page says after the guest's own action, or how the change of time is shown. */
export interface PageState {
  /** The guest's cancel button was used just now. */
  readonly justCancelled?: boolean
  /** The guest moved the booking just now. */
  readonly justMoved?: boolean
  /** Why the last change was refused, shown as an alert: the time was taken, is no bookable time, or the deadline passed. */
  readonly refusal?: 'taken' | 'invalid' | 'too-late'
  /** The change of time: the date shown and its free times. */
  readonly change?: ChangeView
  /** The page's address with the change of time open (the link to it). */
  readonly changeHref?: string
}

/** The booking as its guest sees it, after the guest's own action or with the change of time open. */
export function renderBookingPage(found: GuestBooking, view: PageView, shown: PageState = {}): string {
  const { booking, cancelUntil, state } = found
  const justCancelled = shown.justCancelled === true
  const language = view.language
  const text = TEXT[language]
  const tz = booking.timezone
  const until = `${moment(cancelUntil, tz, language)} (${tz})`
  let notice = ''
  let action = ''
  if (state === 'cancelled') {
    const by = booking.cancelledBy === 'guest' ? text.byGuest : booking.cancelledBy === 'hold' ? text.byHold : text.byClub
    const earlier = text.cancelledEarlier(moment(booking.cancelledAt ?? booking.start, tz, language), by)
    notice = `<div class="notice" role="status"><p>${escapeHtml(justCancelled ? text.cancelledNow : earlier)}</p>`
      + (booking.cancelReason === null ? '' : `<p><strong>${text.reason}:</strong> ${escapeHtml(booking.cancelReason)}</p>`)
      + '</div>'
  } else if (state === 'too-late') {
    notice = `<div class="notice warn" role="status"><p>${escapeHtml(text.tooLate(until))}</p></div>`
  } else if (shown.change !== undefined) {
    action = changeForm(booking, shown.change, language)
  } else {
    if (shown.justMoved === true) notice = `<div class="notice" role="status"><p>${escapeHtml(text.movedNow)}</p></div>`
    action = `<p>${escapeHtml(text.cancelUntil(until))}</p>`
      + (shown.changeHref === undefined ? '' : `<p><a href="${escapeHtml(shown.changeHref)}">${text.changeLink}</a></p>`)
      + `<form method="post"><button type="submit">${text.cancelButton}</button></form>`
      + `<p class="hint">${text.cannotUndo}</p>`
  }
  if (shown.refusal !== undefined) {
    const why = shown.refusal === 'taken' ? text.taken : shown.refusal === 'invalid' ? text.invalidTime : text.tooLateChange(until)
    notice = `<div class="notice warn" role="alert"><p>${escapeHtml(why)}</p></div>${state === 'too-late' ? '' : notice}`
  }
  const body = `<p class="club">${escapeHtml(booking.clubName)}</p><h1>${text.title}</h1>${notice}`
    + '<dl>'
    + `<dt>${text.court}</dt><dd>${escapeHtml(booking.courtName)}</dd>`
    + `<dt>${text.when}</dt><dd>${escapeHtml(span(booking.start, booking.end, tz, language))}</dd>`
    + `<dt>${text.status}</dt><dd>${state === 'cancelled' ? text.cancelled : text.confirmed}</dd>`
    + `</dl>${action}`
  return document(language, `${text.title} — ${booking.clubName}`, body, view.switchHref, booking.privacyUrl)
}

/**
 * The change of time: a GET form that shows another date's free times, and a POST form with one
 * radio button per free time. Works without script.
 */
function changeForm(booking: GuestBooking['booking'], change: ChangeView, language: Language): string {
  const text = TEXT[language]
  const locale = text.locale
  const time = (value: string) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    timeZone: booking.timezone }).format(Date.parse(value))
  // A time that ends at midnight ends at 24:00 of its day, as everywhere on the page.
  const until = (value: string) => (time(value) === '00:00' ? '24:00' : time(value))
  const times = change.times.map((free, i) => `<label><input type="radio" name="start" value="${escapeHtml(free.start_time)}"`
    + `${i === 0 ? ' required' : ''}>${escapeHtml(`${time(free.start_time)}–${until(free.end_time)}`)}</label>`).join('')
  const pick = change.times.length === 0
    ? `<p role="status">${text.noTimes}</p>`
    : `<form method="post" action="${escapeHtml(change.moveAction)}">`
      + `<fieldset><legend>${text.timeLegend}</legend><div class="times">${times}</div></fieldset>`
      + `<button type="submit" class="primary">${text.moveButton}</button></form>`
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(Date.parse(`${change.date}T12:00:00Z`))
  return `<h2>${text.changeTitle}</h2><p>${escapeHtml(text.changeIntro(booking.courtName))}</p>`
    + '<form method="get" class="date">'
    + (change.chosenLanguage === undefined ? '' : `<input type="hidden" name="lang" value="${change.chosenLanguage}">`)
    + '<input type="hidden" name="change" value="1">'
    + `<label>${text.dateLabel}<input type="date" name="date" value="${escapeHtml(change.date)}" required></label>`
    + `<button type="submit" class="secondary">${text.showTimes}</button></form>`
    + `<p class="club">${escapeHtml(day)}</p>${pick}`
    + `<p><a href="${escapeHtml(change.backHref)}">${text.back}</a></p>`
}

export function renderNotFoundPage(view: PageView): string {
  const text = TEXT[view.language]
  return document(view.language, text.notFoundTitle, `<h1>${text.notFoundTitle}</h1><p>${text.notFound}</p>`, view.switchHref)
}
