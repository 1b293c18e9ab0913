/**
 * The confirmation after a booking or a place on the waiting list: what it was, where the mail goes,
 * until when the booking can be changed or cancelled (or how the club is reached when it cannot be
 * any more), its page, and the ways to put it in a calendar.
 */
import type { TemplateResult } from 'lit/html.js'
import { googleCalendarUrl, outlookCalendarUrl } from './calendar'
import { momentText } from './format'
import { text } from './i18n'
import type { Lang, MessageKey } from './i18n'
import { cancellableUntil, contactClub, tooLateToCancel } from './policy'
import type { Availability } from './slots'
import { confirmation } from './views'

/** What was booked (or waited for), as the confirmation says it. */
export interface Booked {
  readonly email: string
  readonly summary: string
  readonly waiting: boolean
  /** The booking's page (the 201's `manage_url`); none for the waiting list. */
  readonly manageUrl: string | undefined
  readonly court: string
  readonly start: string
  readonly end: string
}

export function bookedView(language: Lang, listing: Availability | null, booked: Booked, again: () => void): TemplateResult {
  const t = (key: MessageKey, params: Readonly<Record<string, string | number>> = {}) => text(language, key, params)
  const said = [t(booked.waiting ? 'waitingSaid' : 'confirmation', { email: booked.email })]
  const title = t(booked.waiting ? 'waitingTitle' : 'bookedTitle', { summary: booked.summary })
  const manage = booked.manageUrl
  if (booked.waiting || manage === undefined) return confirmation({ title, said, another: t('another'), again })
  const late = tooLateToCancel(listing, booked.start)
  said.push(late
    ? `${t('lateTime')} ${contactClub(language, listing)}`
    : t('cancelUntil', { until: momentText(language, listing?.timezone ?? 'UTC', cancellableUntil(listing, booked.start) ?? 0) }))
  const place = [booked.court, listing?.club_name, listing?.contact.address].filter((part) => part != null && part !== '')
  const event = { title: `${booked.court} — ${listing?.club_name ?? ''}`, start: booked.start, end: booked.end,
    location: place.join(', '), details: manage }
  return confirmation({ title, said, another: t('another'), again, links: {
    manage, manageLabel: t(late ? 'manageLate' : 'manage'), heading: t('addToCalendar'),
    calendar: [[t('calendarFile'), `${manage}/calendar.ics`], ['Google Calendar', googleCalendarUrl(event)],
      ['Outlook', outlookCalendarUrl(event)]],
  } })
}
