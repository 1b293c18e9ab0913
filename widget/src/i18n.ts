/**
 * The widget's texts: English here, the other languages in public/messages/<lang>.json (one file each,
 * with the same keys: test/http/widget.test.ts). Dates and times go through Intl in the club's time zone.
 */
import { isGuestLanguage } from '../../src/domain/languages.js'
import type { GuestLanguage } from '../../src/domain/languages.js'

export const en = {
  title: 'Book a court',
  date: 'Date',
  days: 'Days',
  freeCount: '{count} free',
  full: 'full',
  nextFree: 'Next free time: {when}',
  close: 'Close',
  loading: 'Loading free times…',
  court: 'Court',
  time: 'Time',
  available: 'free',
  booked: 'booked',
  reserved: 'reserved',
  blocked: 'closed',
  notBookable: 'not bookable now',
  selected: 'selected',
  noneBookable: 'No times can be booked on this day.',
  noCourts: 'This club has no courts to book.',
  chosen: '{court}, {from}–{to}',
  continue: 'Continue',
  clear: 'Clear selection',
  pickHint: 'Choose a free time; choose the next one too for a longer booking.',
  maxReached: 'One booking of this court covers at most {count} times.',
  name: 'Your name',
  email: 'Your e-mail address',
  notes: 'Notes (optional)',
  book: 'Book',
  back: 'Back',
  booking: 'Booking…',
  booked_title: 'Booked',
  confirmation: 'The confirmation is on its way to {email}. It has a link to cancel the booking.',
  another: 'Book another time',
  taken: 'Someone booked this time a moment ago. The times are up to date again: please choose another.',
  tooMany: 'Too many attempts. Please try again in {seconds} seconds.',
  unknownClub: 'This club does not exist, or it no longer takes bookings here.',
  unavailable: 'Booking is not available at the moment. Please try again in a little while.',
  refused: 'The booking was not accepted: {detail}',
  privacy: 'Your name and e-mail address are used only for this booking.',
  notify: 'Notify me if it becomes free',
  takenHint: 'This time is taken. We can e-mail you if it becomes free.',
  waitingTitle: 'On the waiting list',
  waitingSaid: 'We will e-mail {email} if this time becomes free. Whoever books first gets it; the mail has a link to stop.',
}

export type MessageKey = keyof typeof en
export type Messages = Readonly<Record<MessageKey, string>>
/**
 * The languages the widget speaks, and the locale whose conventions dates follow in each: the
 * service's own (src/domain/languages.ts). English is built in, the others' texts fetched when first
 * needed (`messages/<lang>.json`).
 */
export type Lang = GuestLanguage
export { LOCALES } from '../../src/domain/languages.js'

const loaded: Partial<Record<Lang, Messages>> = { en }
const loading = new Map<Lang, Promise<void>>()

/** Whether the language's texts are at hand (English always is). */
export function hasMessages(lang: Lang): boolean {
  return loaded[lang] !== undefined
}

/**
 * Fetches a language's texts from the service that served the widget, once for every widget on the
 * page. A file that cannot be read, or lacks a text, leaves the language in English.
 */
export function loadMessages(lang: Lang, origin: string): Promise<void> {
  const pending = loading.get(lang) ?? (async () => {
    let texts: Record<string, unknown> = {}
    try {
      const response = await fetch(`${origin}/widget/v1/messages/${lang}.json`, { credentials: 'omit' })
      const body: unknown = response.ok ? await response.json() : undefined
      if (typeof body === 'object' && body !== null) texts = body as Record<string, unknown>
    } catch {
      // Unreachable or not JSON: English, as below.
    }
    loaded[lang] = Object.keys(en).every((key) => typeof texts[key] === 'string') ? texts as Messages : en
  })()
  loading.set(lang, pending)
  return pending
}

export function text(lang: Lang, key: MessageKey, params: Record<string, string> = {}): string {
  return (loaded[lang] ?? en)[key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}

/** The language of the `lang` attribute, else of the page, else of the browser, that the widget speaks; else English. */
export function languageOf(attribute: string | null | undefined): Lang {
  const candidates = [attribute, document.documentElement.lang, ...navigator.languages, navigator.language]
  for (const value of candidates) {
    const primary = (value ?? '').toLowerCase().split('-')[0]
    if (isGuestLanguage(primary)) return primary
  }
  return 'en'
}
