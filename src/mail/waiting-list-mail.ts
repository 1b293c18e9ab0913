/**
 * The waiting list's mails (docs/waiting-list.md): that an address is on the list for a time, and
 * that the time has become free, with a link straight to booking it. Each has the link that stops
 * the mails about that time, so whoever did not ask for them ends them with one click and a button.
 * They carry no text of the requester's but the name, which the service's checks keep free of links.
 */
import { escapeHtml } from '../domain/html.js'
import type { GuestLanguage } from '../domain/languages.js'
import { waitingText } from '../i18n/guest/index.js'
import { mailText } from '../i18n/guest/index.js'
import { oneLine, PAGE_START, timeOf } from './booking-mail.js'

export interface WaitingMailInput {
  readonly clubName: string
  readonly courtName: string
  readonly timezone: string
  readonly start: number
  readonly end: number
  readonly name: string
  readonly language: GuestLanguage
  /** The entry's stop link. */
  readonly stopUrl: string
}

export interface WaitingMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

function render(input: WaitingMailInput, subjectKey: 'joinedSubject' | 'freedSubject', intro: string,
  action: { readonly text: string, readonly link: string, readonly url: string } | undefined): WaitingMail {
  const { language } = input
  const club = input.clubName
  const { when, short } = timeOf(input)
  const say = (key: Parameters<typeof waitingText>[1], params: Record<string, string> = {}) => waitingText(language, key, params)
  const label = (key: 'court' | 'when') => mailText(language, 'labelled', { label: mailText(language, key) })
  const hello = mailText(language, 'hello', { name: input.name })
  const text = [hello, '', intro, '', `${label('court')} ${input.courtName}`, `${label('when')} ${when}`,
    ...action === undefined ? [] : ['', action.text, action.url],
    '', say('firstComes'), '', say('stopText'), input.stopUrl]
  const html = PAGE_START
    + `<p>${escapeHtml(hello)}</p><p>${escapeHtml(intro)}</p>`
    + `<table><tr><th align="left">${escapeHtml(mailText(language, 'court'))}</th><td>${escapeHtml(input.courtName)}</td></tr>`
    + `<tr><th align="left">${escapeHtml(mailText(language, 'when'))}</th><td>${escapeHtml(when)}</td></tr></table>`
    + (action === undefined ? '' : `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.link)}</a></p>`)
    + `<p>${escapeHtml(say('firstComes'))}</p>`
    + `<p style="font-size:small"><a href="${escapeHtml(input.stopUrl)}">${escapeHtml(say('stopLink'))}</a></p>`
    + '</body></html>'
  return { subject: oneLine(say(subjectKey, { court: input.courtName, when: short, club })), text: text.join('\n'), html }
}

/** The address is on the waiting list for the time: what happens when it frees, and how to stop. */
export function renderWaitingJoined(input: WaitingMailInput): WaitingMail {
  return render(input, 'joinedSubject', waitingText(input.language, 'joinedIntro', { club: input.clubName }), undefined)
}

/** The time has become free: the link to book it (the club's booking page on its date and court). */
export function renderSlotFreed(input: WaitingMailInput & { readonly bookUrl: string }): WaitingMail {
  return render(input, 'freedSubject', waitingText(input.language, 'freedIntro', { club: input.clubName }),
    { text: waitingText(input.language, 'bookText'), link: waitingText(input.language, 'bookLink'), url: input.bookUrl })
}
