/** Dates and times as the widget writes them: through Intl in the guest's language, at the club (never the visitor's zone). */
import { LOCALES } from './i18n'
import type { Lang } from './i18n'

/** "18:00" at the club. */
export function clockTime(language: Lang, timeZone: string, instant: string): string {
  return new Intl.DateTimeFormat(LOCALES[language], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
    .format(new Date(instant))
}

/** A local date (YYYY-MM-DD) written with these parts; by default "Wednesday 17 June". */
export function dateText(language: Lang, date: string,
  options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' }): string {
  return new Intl.DateTimeFormat(LOCALES[language], { ...options, timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
}

/** A moment at the club, as a date and a time: "Tuesday 16 June, 14:00". */
export function momentText(language: Lang, timeZone: string, instant: number): string {
  return new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit',
    minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(instant))
}
