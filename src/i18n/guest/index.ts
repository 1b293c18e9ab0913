/**
 * The guest's texts the server writes (mails and the booking's page), one file per language (en.ts is the reference; the others
 * have its keys, which the type-check holds and test/domain/guest-messages.test.ts proves with
 * their placeholders). `{name}` placeholders are filled by `message`; the values are plain text,
 * escaped where they go into HTML or a calendar file.
 */
import type { GuestLanguage } from '../../domain/languages.js'
import { de } from './de.js'
import { en } from './en.js'
import type { GuestMessages } from './en.js'
import { es } from './es.js'
import { fr } from './fr.js'
import { it } from './it.js'
import { nl } from './nl.js'

export const GUEST_MESSAGES: Readonly<Record<GuestLanguage, GuestMessages>> = { en, de, fr, es, it, nl }

export type MailMessageKey = keyof GuestMessages['mail']
export type PageMessageKey = keyof GuestMessages['manage']

function filled(text: string, params: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}

/** A mail's text in the language, its placeholders filled (a missing value leaves the placeholder empty). */
export function mailText(language: GuestLanguage, key: MailMessageKey, params: Readonly<Record<string, string>> = {}): string {
  return filled(GUEST_MESSAGES[language].mail[key], params)
}

/** A text of the booking's page in the language, its placeholders filled. */
export function pageText(language: GuestLanguage, key: PageMessageKey, params: Readonly<Record<string, string>> = {}): string {
  return filled(GUEST_MESSAGES[language].manage[key], params)
}

/** A text of the hosted booking page in the language, its placeholders filled. */
export function bookingPageText(language: GuestLanguage, key: keyof GuestMessages['bookingPage'],
  params: Readonly<Record<string, string>> = {}): string {
  return filled(GUEST_MESSAGES[language].bookingPage[key], params)
}

/** A text of the waiting list (its mails and its stop link's page) in the language, its placeholders filled. */
export function waitingText(language: GuestLanguage, key: keyof GuestMessages['waiting'],
  params: Readonly<Record<string, string>> = {}): string {
  return filled(GUEST_MESSAGES[language].waiting[key], params)
}

/** Each language named in itself, for a choice of language. */
export const LANGUAGE_NAMES: Readonly<Record<GuestLanguage, string>> = {
  en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano', nl: 'Nederlands',
}
