/**
 * The dashboard's language and the functions that put its texts (`i18n/en`, `i18n/de`) on the page; the language
 * follows the browser until the person picks one.
 */
import { de } from './i18n/de'
import { en } from './i18n/en'
import type { MessageKey } from './i18n/en'

export type { MessageKey } from './i18n/en'

export type Language = 'en' | 'de'
const STORED = 'club-platform.language'

function initialLanguage(): Language {
  const stored = window.localStorage.getItem(STORED)
  if (stored === 'en' || stored === 'de') return stored
  return window.navigator.language.toLowerCase().startsWith('de') ? 'de' : 'en'
}

export const i18n = $state({ lang: initialLanguage() })

export function setLanguage(lang: Language): void {
  i18n.lang = lang
  window.localStorage.setItem(STORED, lang)
  document.documentElement.lang = lang
}

export function t(key: MessageKey, params: Record<string, string> = {}): string {
  const text = i18n.lang === 'de' ? de[key] : en[key]
  return text.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}

/**
 * An instant as a date and time in the person's language: at the club (`timeZone`, on every club
 * page, which says so with `times.club`), or in the person's own zone (the account's events).
 */
export function formatInstant(iso: string | null, timeZone?: string): string {
  if (iso === null) return '—'
  return new Intl.DateTimeFormat(i18n.lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short',
    ...(timeZone === undefined ? {} : { timeZone }) }).format(new Date(iso))
}
