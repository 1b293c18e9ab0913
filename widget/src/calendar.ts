/**
 * "Add to your calendar" after a booking: the booking's own calendar file (its page's, with the UID
 * and SEQUENCE of the mails' event, so a calendar that has it from the mail keeps one event), and
 * links that open Google Calendar and Outlook with the event filled in. Links only: nothing is
 * fetched from either.
 */

/** An instant as both calendars read it: 20260616T160000Z. */
function utc(instant: string): string {
  return new Date(instant).toISOString().replace(/[-:]|\.\d{3}/g, '')
}

export interface CalendarEvent {
  readonly title: string
  readonly start: string
  readonly end: string
  readonly location: string
  /** The booking's page, where the guest changes or cancels it. */
  readonly details: string
}

export function googleCalendarUrl(event: CalendarEvent): string {
  return `https://calendar.google.com/calendar/render?${new URLSearchParams({ action: 'TEMPLATE', text: event.title,
    dates: `${utc(event.start)}/${utc(event.end)}`, details: event.details, location: event.location }).toString()}`
}

export function outlookCalendarUrl(event: CalendarEvent): string {
  return `https://outlook.live.com/calendar/0/deeplink/compose?${new URLSearchParams({ path: '/calendar/action/compose',
    rru: 'addevent', subject: event.title, startdt: new Date(event.start).toISOString(), enddt: new Date(event.end).toISOString(),
    body: event.details, location: event.location }).toString()}`
}
