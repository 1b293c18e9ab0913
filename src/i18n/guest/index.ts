/**
 * The guest's texts the server writes (mails and the booking's page), one file per language (en.ts is the reference; the others
 * have its keys, which the type-check holds and test/domain/guest-messages.test.ts proves with
 * their placeholders). `{name}` placeholders are filled by `message`; the values are plain text,
 * escaped where they go into HTML or a calendar file.
 */
import { LOCALES } from '../../domain/languages.js'
import type { GuestLanguage } from '../../domain/languages.js'
import { fill } from '../../domain/messages.js'
import type { Text } from '../../domain/messages.js'
import type { PublicRefusalCode, Refusal } from '../../domain/refusals.js'
import { dateTimeFormat } from '../../domain/zoned-time.js'
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

type Params = Readonly<Record<string, string | number>>

function filled(language: GuestLanguage, text: Text, params: Params): string {
  return fill(LOCALES[language], text, params)
}

/** A mail's text in the language, its placeholders filled (a missing value leaves the placeholder empty). */
export function mailText(language: GuestLanguage, key: MailMessageKey, params: Params = {}): string {
  return filled(language, GUEST_MESSAGES[language].mail[key], params)
}

/** A text of the booking's page in the language, its placeholders filled. */
export function pageText(language: GuestLanguage, key: PageMessageKey, params: Params = {}): string {
  return filled(language, GUEST_MESSAGES[language].manage[key], params)
}

/** A text of the hosted booking page in the language, its placeholders filled. */
export function bookingPageText(language: GuestLanguage, key: keyof GuestMessages['bookingPage'],
  params: Params = {}): string {
  return filled(language, GUEST_MESSAGES[language].bookingPage[key], params)
}

/** A text of the waiting list (its mails and its stop link's page) in the language, its placeholders filled. */
export function waitingText(language: GuestLanguage, key: keyof GuestMessages['waiting'],
  params: Params = {}): string {
  return filled(language, GUEST_MESSAGES[language].waiting[key], params)
}

/** Whether the guest's texts say this refusal (the public endpoints' codes: src/domain/refusals.ts). */
function isPublicCode(code: Refusal['code']): code is PublicRefusalCode {
  return code in GUEST_MESSAGES.en.refusals
}

/**
 * A refusal as the guest reads it, in the language: its field named in words, its date written out,
 * its count choosing the plural form. A code the guest's texts do not say is `undefined`.
 */
export function refusalText(language: GuestLanguage, refusal: Refusal): string | undefined {
  if (!isPublicCode(refusal.code)) return undefined
  const messages = GUEST_MESSAGES[language]
  const { field } = refusal
  const label = field === undefined ? '' : (messages.fields as Readonly<Record<string, Text>>)[field]
  const date = refusal.params?.date
  const params: Params = {
    ...refusal.params,
    field: label === undefined ? field ?? '' : filled(language, label, {}),
    ...typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date)
      ? { date: dateTimeFormat(LOCALES[language], { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
          .format(new Date(`${date}T12:00:00Z`)) }
      : {},
  }
  return filled(language, messages.refusals[refusal.code], params)
}
