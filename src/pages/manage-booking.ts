/**
 * The guest's page of a booking, opened from the link in the confirmation mail: what was booked,
 * its state, a button that cancels it, and the free times it can be moved to (a date chosen by a
 * GET form, a time by a POST form: no script needed). Rendered on the server as one small HTML document that
 * needs no JavaScript and loads nothing (its one style sheet is inline, allowed by its hash), in
 * the guest's languages (src/i18n/guest). It shows the club, the court and the time — never the guest's address, other
 * bookings or anything about members.
 */
import { createHash } from 'node:crypto'
import type { GuestBooking } from '../services/booking-cancellation.js'
import type { FreeTime } from '../services/booking-moves.js'
import { telUri } from '../domain/club-contact.js'
import { escapeHtml } from '../domain/html.js'
import { pageText } from '../i18n/guest/index.js'
import type { PageMessageKey } from '../i18n/guest/index.js'
import { GUEST_LANGUAGES, LANGUAGE_NAMES, LOCALES, isGuestLanguage } from '../domain/languages.js'
import { dateTimeFormat, zoneName } from '../domain/zoned-time.js'
import type { GuestLanguage } from '../domain/languages.js'

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
  'button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #1a4fd6;outline-offset:2px}',
  '.hint{color:#4a4f57;font-size:.95rem}',
  'nav{margin-top:1.5rem;font-size:.95rem}a{color:#1a4fd6}',
  'h2{font-size:1.2rem;margin:1.5rem 0 .5rem}',
  'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.5rem}',
  '.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem}',
  '.times label{display:flex;align-items:center;gap:.5rem;white-space:nowrap;border:1px solid #8a8f98;border-radius:8px;'
  + 'padding:.5rem .75rem;min-height:44px;box-sizing:border-box}.times input{margin:0;flex:none}',
  '.date{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:1rem}',
  '.date label{display:flex;flex-direction:column;font-weight:600}',
  'input[type=date]{font:inherit;min-height:44px;padding:0 .5rem;border:1px solid #8a8f98;border-radius:8px}',
  'button.secondary{background:#fff;color:#1a4fd6;border:2px solid #1a4fd6;width:auto}',
  'button.primary{background:#1c6b3a}',
  'nav ul{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:0 1rem}nav [aria-current]{font-weight:600}',
  '.links{display:flex;flex-wrap:wrap;gap:0 1.25rem}',
  // Every link a guest taps is at least 44 px tall and wide (WCAG 2.5.5).
  'main a,nav [aria-current]{display:inline-flex;align-items:center;min-height:44px;min-width:44px}',
  'textarea{font:inherit;width:100%;box-sizing:border-box;min-height:5rem;padding:.5rem;border:1px solid #8a8f98;border-radius:8px}',
  '.stack{display:flex;flex-direction:column;gap:.5rem;margin-bottom:1rem}',
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

/** The language the guest chose on the page (`?lang=`), if any. */
export function chosenLanguage(query: unknown): GuestLanguage | undefined {
  const chosen = typeof query === 'object' && query !== null && 'lang' in query ? query.lang : undefined
  return isGuestLanguage(chosen) ? chosen : undefined
}

/**
 * The language of the page: the guest's choice (`?lang=`), else the booking's (the one its mails are
 * written in), else, without a booking, the browser's first the service speaks, else English.
 */
export function languageOf(query: unknown, fallback: GuestLanguage): GuestLanguage {
  return chosenLanguage(query) ?? fallback
}

function say(language: GuestLanguage, key: PageMessageKey, params: Readonly<Record<string, string>> = {}): string {
  return escapeHtml(pageText(language, key, params))
}

/** A guest's page: the body given, the privacy notice's link, the links to the other languages. */
export function document(view: PageView, title: string, body: string, privacyUrl: string | null = null): string {
  const { language } = view
  const privacy = privacyUrl === null
    ? ''
    : `<p><a href="${escapeHtml(privacyUrl)}" rel="noreferrer">${say(language, 'privacy')}</a></p>`
  const languages = GUEST_LANGUAGES.map((other) => other === language
    ? `<li><span aria-current="true" lang="${other}">${LANGUAGE_NAMES[other]}</span></li>`
    : `<li><a href="${escapeHtml(view.languageHref(other))}" hreflang="${other}" lang="${other}">${LANGUAGE_NAMES[other]}</a></li>`)
  return '<!doctype html>'
    + `<html lang="${language}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`
    + `<body><main>${body}`
    + `<nav aria-label="${say(language, 'languages')}">${privacy}<ul>${languages.join('')}</ul></nav>`
    + '</main></body></html>'
}

function dateFormat(language: GuestLanguage, timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat(LOCALES[language], { dateStyle: 'full', timeZone })
}

function timeFormat(language: GuestLanguage, timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat(LOCALES[language], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
}

function moment(instant: number, timeZone: string, language: GuestLanguage): string {
  return `${dateFormat(language, timeZone).format(instant)}, ${timeFormat(language, timeZone).format(instant)}`
}

/** A booking's or slot's time as the guest's pages write it: `Tuesday, 16 June 2026, 18:00–19:00 (Central European Time)`. */
export function span(start: number, end: number, timeZone: string, language: GuestLanguage): string {
  const day = (instant: number) => dateFormat(language, timeZone).format(instant)
  const time = (instant: number) => timeFormat(language, timeZone).format(instant)
  // A booking that ends at midnight ends at 24:00 of its day.
  const endsSameDay = day(end - 1) === day(start)
  const to = endsSameDay ? (day(end) === day(start) ? time(end) : '24:00') : `${day(end)}, ${time(end)}`
  return `${day(start)}, ${time(start)}–${to} (${zoneName(LOCALES[language], timeZone, start)})`
}

export interface PageView {
  readonly language: GuestLanguage
  /** The page's own address with a language chosen. */
  readonly languageHref: (language: GuestLanguage) => string
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
  readonly chosenLanguage: GuestLanguage | undefined
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
  /** The booking's calendar file (PUBLISH), and the club's booking page (offered once the booking is cancelled). */
  readonly calendarHref?: string
  readonly bookingPageHref?: string
  /** The booking was made just now (the hosted booking page sent the guest here). */
  readonly justBooked?: boolean
  /** The guest asked to cancel: the page asks to confirm (and for a reason), and posts the cancellation to `cancelAction`. */
  readonly confirming?: { readonly cancelAction: string, readonly backHref: string }
  /** The page's address with the cancellation to confirm (the cancel button's). */
  readonly cancelHref?: { readonly path: string, readonly language: GuestLanguage | undefined }
}

/** How the guest reaches the club, wherever the page sends them to it: its phone number and contact address, as links. */
function contactLine(booking: GuestBooking['booking'], language: GuestLanguage): string {
  const links = [
    ...booking.contactPhone === null ? [] : [`<a href="${escapeHtml(telUri(booking.contactPhone))}">${escapeHtml(booking.contactPhone)}</a>`],
    ...booking.contactEmail === null ? [] : [`<a href="mailto:${escapeHtml(booking.contactEmail)}">${escapeHtml(booking.contactEmail)}</a>`],
  ]
  return links.length === 0 ? '' : `<p>${say(language, 'contactClub')} <span class="links">${links.join('')}</span></p>`
}

/** The cancellation asked for: one more tap to confirm it, and the guest's reason if they give one; no script. */
function confirmForm(confirming: NonNullable<PageState['confirming']>, language: GuestLanguage): string {
  return `<h2>${say(language, 'confirmTitle')}</h2><p>${say(language, 'confirmIntro')} ${say(language, 'cannotUndo')}</p>`
    + `<form method="post" action="${escapeHtml(confirming.cancelAction)}" class="stack">`
    + `<label for="reason">${say(language, 'reasonLabel')}</label><textarea id="reason" name="reason" maxlength="500" rows="3">`
    + '</textarea>'
    + `<button type="submit">${say(language, 'confirmButton')}</button></form>`
    + `<p><a href="${escapeHtml(confirming.backHref)}">${say(language, 'keepLink')}</a></p>`
}

/** The booking as its guest sees it, after the guest's own action or with the change of time open. */
export function renderBookingPage(found: GuestBooking, view: PageView, shown: PageState = {}): string {
  const { booking, cancelUntil, state } = found
  const justCancelled = shown.justCancelled === true
  const language = view.language
  const tz = booking.timezone
  const until = `${moment(cancelUntil, tz, language)} (${zoneName(LOCALES[language], tz, cancelUntil)})`
  let notice = ''
  let action = ''
  if (state === 'cancelled') {
    const by = pageText(language, booking.cancelledBy === 'guest' ? 'byGuest' : 'byClub')
    const earlier = pageText(language, 'cancelledEarlier', { at: moment(booking.cancelledAt ?? booking.start, tz, language), by })
    notice = `<div class="notice" role="status"><p>${justCancelled ? say(language, 'cancelledNow') : escapeHtml(earlier)}</p>`
      + (booking.cancelReason === null ? '' : `<p><strong>${say(language, 'reason')}:</strong> ${escapeHtml(booking.cancelReason)}</p>`)
      + '</div>'
    action = shown.bookingPageHref === undefined
      ? ''
      : `<p><a href="${escapeHtml(shown.bookingPageHref)}">${say(language, 'bookAgain', { club: booking.clubName })}</a></p>`
  } else if (state === 'too-late') {
    notice = `<div class="notice warn" role="status"><p>${say(language, 'tooLate', { until })}</p></div>`
    action = contactLine(booking, language)
  } else if (shown.change !== undefined) {
    action = changeForm(booking, shown.change, language)
  } else if (shown.confirming !== undefined) {
    action = confirmForm(shown.confirming, language)
  } else {
    if (shown.justMoved === true) notice = `<div class="notice" role="status"><p>${say(language, 'movedNow')}</p></div>`
    if (shown.justBooked === true) notice = `<div class="notice" role="status"><p>${say(language, 'bookedNow')}</p></div>`
    const links = [
      ...shown.changeHref === undefined ? [] : [`<a href="${escapeHtml(shown.changeHref)}">${say(language, 'changeLink')}</a>`],
      ...shown.calendarHref === undefined
        ? []
        : [`<a href="${escapeHtml(shown.calendarHref)}" download="booking.ics">${say(language, 'addToCalendar')}</a>`],
    ]
    const cancel = shown.cancelHref
    action = `<p>${say(language, 'cancelUntil', { until })}</p>`
      + (links.length === 0 ? '' : `<p class="links">${links.join('')}</p>`)
      + (cancel === undefined
        ? `<form method="post"><button type="submit">${say(language, 'cancelButton')}</button></form>`
        : `<form method="get" action="${escapeHtml(cancel.path)}">`
          + (cancel.language === undefined ? '' : `<input type="hidden" name="lang" value="${cancel.language}">`)
          + `<input type="hidden" name="cancel" value="1"><button type="submit">${say(language, 'cancelButton')}</button></form>`)
  }
  if (shown.refusal !== undefined) {
    const why = shown.refusal === 'taken'
      ? say(language, 'taken')
      : shown.refusal === 'invalid' ? say(language, 'invalidTime') : say(language, 'tooLateChange', { until })
    notice = `<div class="notice warn" role="alert"><p>${why}</p></div>${state === 'too-late' ? '' : notice}`
    if (shown.refusal === 'too-late' && state !== 'too-late') action = `${contactLine(booking, language)}${action}`
  }
  const body = `<p class="club">${escapeHtml(booking.clubName)}</p><h1>${say(language, 'title')}</h1>${notice}`
    + '<dl>'
    + `<dt>${say(language, 'court')}</dt><dd>${escapeHtml(booking.courtName)}</dd>`
    + `<dt>${say(language, 'when')}</dt><dd>${escapeHtml(span(booking.start, booking.end, tz, language))}</dd>`
    + (booking.clubAddress === null ? '' : `<dt>${say(language, 'where')}</dt><dd>${escapeHtml(booking.clubAddress)}</dd>`)
    + `<dt>${say(language, 'status')}</dt><dd>${say(language, state === 'cancelled' ? 'cancelled' : 'confirmed')}</dd>`
    + `</dl>${action}`
  return document(view, `${pageText(language, 'title')} — ${booking.clubName}`, body, booking.privacyUrl)
}

/**
 * The change of time: a GET form that shows another date's free times, and a POST form with one
 * radio button per free time. Works without script.
 */
function changeForm(booking: GuestBooking['booking'], change: ChangeView, language: GuestLanguage): string {
  const time = (value: string) => timeFormat(language, booking.timezone).format(Date.parse(value))
  // A time that ends at midnight ends at 24:00 of its day, as everywhere on the page.
  const until = (value: string) => (time(value) === '00:00' ? '24:00' : time(value))
  const times = change.times.map((free, i) => `<label><input type="radio" name="start" value="${escapeHtml(free.start_time)}"`
    + `${i === 0 ? ' required' : ''}>${escapeHtml(`${time(free.start_time)}–${until(free.end_time)}`)}</label>`).join('')
  const pick = change.times.length === 0
    ? `<p role="status">${say(language, 'noTimes')}</p>`
    : `<form method="post" action="${escapeHtml(change.moveAction)}">`
      + `<fieldset><legend>${say(language, 'timeLegend')}</legend><div class="times">${times}</div></fieldset>`
      + `<button type="submit" class="primary">${say(language, 'moveButton')}</button></form>`
  const day = dateFormat(language, 'UTC').format(Date.parse(`${change.date}T12:00:00Z`))
  return `<h2>${say(language, 'changeTitle')}</h2><p>${say(language, 'changeIntro', { court: booking.courtName })}</p>`
    + '<form method="get" class="date">'
    + (change.chosenLanguage === undefined ? '' : `<input type="hidden" name="lang" value="${change.chosenLanguage}">`)
    + '<input type="hidden" name="change" value="1">'
    + `<label>${say(language, 'dateLabel')}<input type="date" name="date" value="${escapeHtml(change.date)}" required></label>`
    + `<button type="submit" class="secondary">${say(language, 'showTimes')}</button></form>`
    + `<p class="club">${escapeHtml(day)}</p>${pick}`
    + `<p><a href="${escapeHtml(change.backHref)}">${say(language, 'back')}</a></p>`
}

export function renderNotFoundPage(view: PageView): string {
  const { language } = view
  return document(view, pageText(language, 'notFoundTitle'),
    `<h1>${say(language, 'notFoundTitle')}</h1><p>${say(language, 'notFound')}</p>`)
}
