/**
 * The page of a waiting list entry's stop link: the club, the court and the time waited for, and a
 * button (a POST form: mail scanners open links, so GET changes nothing) that stops the mails about
 * it. The manage page's document: no script, nothing loaded, the guest's languages. It never shows
 * the name or address the entry holds.
 */
import { escapeHtml } from '../domain/html.js'
import type { GuestLanguage } from '../domain/languages.js'
import { waitingText } from '../i18n/guest/index.js'
import type { LinkedWaiting } from '../services/waiting-list.js'
import { document, span } from './manage-booking.js'
import type { PageView } from './manage-booking.js'

function say(language: GuestLanguage, key: Parameters<typeof waitingText>[1], params: Readonly<Record<string, string>> = {}):
string {
  return escapeHtml(waitingText(language, key, params))
}

/** The entry, its state, and the stop button while it is open; `justStopped`: after the button. */
export function renderWaitingPage(found: LinkedWaiting, view: PageView, shown: { justStopped: boolean, bookingPageHref: string }):
string {
  const { entry, state } = found
  const { language } = view
  const notice = state === 'waiting'
    ? `<div class="notice" role="status"><p>${say(language, 'waitingNow')}</p></div>`
    : `<div class="notice" role="status"><p>${shown.justStopped
      ? say(language, 'stoppedNow')
      : say(language, state === 'booked' ? 'endedBooked' : 'endedStopped')}</p></div>`
  const action = state === 'waiting'
    ? `<form method="post"><button type="submit">${say(language, 'stopButton')}</button></form>`
    : `<p><a href="${escapeHtml(shown.bookingPageHref)}">${say(language, 'bookAt', { club: entry.clubName })}</a></p>`
  const body = `<p class="club">${escapeHtml(entry.clubName)}</p><h1>${say(language, 'title')}</h1>${notice}`
    + `<dl><dt>${say(language, 'court')}</dt><dd>${escapeHtml(entry.courtName)}</dd>`
    + `<dt>${say(language, 'when')}</dt><dd>${escapeHtml(span(entry.start, entry.end, entry.timezone, language))}</dd></dl>`
    + action
  return document(view, `${waitingText(language, 'title')} — ${entry.clubName}`, body, entry.privacyUrl)
}

export function renderWaitingNotFound(view: PageView): string {
  const { language } = view
  return document(view, waitingText(language, 'notFoundTitle'),
    `<h1>${say(language, 'notFoundTitle')}</h1><p>${say(language, 'notFound')}</p>`)
}
