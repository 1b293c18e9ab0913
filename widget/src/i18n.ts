/**
 * The widget's texts: one file per language, public/messages/<lang>.json (English, en.json, the
 * reference whose keys every other has: test/http/widget.test.ts), fetched when the widget first
 * speaks it, so that no language weighs on the script. A text is written and filled as every text of
 * the service is (src/domain/messages.ts): `{name}` placeholders, plural forms chosen by
 * Intl.PluralRules on `{count}`, punctuation in the text; each refusal code the service answers with
 * has its text under `r.<code>`. Dates and times go through Intl in the club's time zone.
 */
import { LOCALES, isGuestLanguage } from '../../src/domain/languages.js'
import type { GuestLanguage } from '../../src/domain/languages.js'
import { fill, isText } from '../../src/domain/messages.js'
import type { Text } from '../../src/domain/messages.js'
import type { PublicRefusalCode } from '../../src/domain/refusals.js'
import type english from '../public/messages/en.json'

export type MessageKey = keyof typeof english
export type Messages = Readonly<Record<MessageKey, Text>>

/** Every code the booking and waiting-list endpoints can answer with has a text (a missing one fails the type-check). */
export type RefusalKey = `r.${PublicRefusalCode}`
export const EVERY_REFUSAL_SAID: [Exclude<RefusalKey, MessageKey>] extends [never] ? true : never = true
/**
 * The languages the widget speaks, and the locale whose conventions dates follow in each: the
 * service's own (src/domain/languages.ts). English is built in, the others' texts fetched when first
 * needed (`messages/<lang>.json`).
 */
export type Lang = GuestLanguage
export { GUEST_LANGUAGES, LANGUAGE_NAMES, LOCALES } from '../../src/domain/languages.js'

/** The texts of each language once fetched; null: its file could not be read (the language speaks English then, if it can). */
const loaded: Partial<Record<Lang, Messages | null>> = {}
const loading = new Map<Lang, Promise<void>>()

/** Whether the language's texts are at hand: its own or, when they cannot be read, English's. */
export function hasMessages(lang: Lang): boolean {
  return messagesOf(lang) !== undefined
}

/** Neither the language's texts nor English's could be read: the widget has nothing to say. */
export function speechless(lang: Lang): boolean {
  return loaded[lang] === null && loaded.en === null
}

function messagesOf(lang: Lang): Messages | undefined {
  return loaded[lang] ?? (loaded[lang] === null ? loaded.en ?? undefined : undefined)
}

/**
 * Fetches a language's texts from the service that served the widget, once for every widget on the
 * page. A file that cannot be read, or is not one of texts, leaves the language in English.
 */
export function loadMessages(lang: Lang, origin: string): Promise<void> {
  const pending = loading.get(lang) ?? (async () => {
    let texts: Record<string, unknown> | null = null
    try {
      const response = await fetch(`${origin}/widget/v1/messages/${lang}.json`, { credentials: 'omit' })
      const body: unknown = response.ok ? await response.json() : undefined
      if (typeof body === 'object' && body !== null && Object.values(body).every(isText)) texts = body as Record<string, unknown>
    } catch {
      // Unreachable or not JSON: English, as below.
    }
    loaded[lang] = texts as Messages | null
    if (texts === null && lang !== 'en') await loadMessages('en', origin)
  })()
  loading.set(lang, pending)
  return pending
}

export function text(lang: Lang, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  const found = messagesOf(lang)?.[key]
  return found === undefined ? '' : fill(LOCALES[lang], found, params)
}

/** Whether the language has a text of this key (a refusal code of a newer service may have none). */
export function hasText(lang: Lang, key: string): key is MessageKey {
  return Object.hasOwn(messagesOf(lang) ?? {}, key)
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
