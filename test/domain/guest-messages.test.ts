/**
 * The guest's languages: every language file has every text of the English one, none empty, with
 * the same placeholders (a translation that drops `{until}` would mail a guest a sentence without
 * its date); and the language of a booking follows the guest's Accept-Language as RFC 9110 reads it.
 */
import { describe, expect, it } from 'vitest'
import { GUEST_MESSAGES } from '../../src/i18n/guest/index.js'
import { GUEST_LANGUAGES, LOCALES, preferredLanguage } from '../../src/domain/languages.js'
import { fill, isText, placeholdersOf } from '../../src/domain/messages.js'
import type { Text } from '../../src/domain/messages.js'

describe('the guest\'s texts', () => {
  const reference = GUEST_MESSAGES.en
  for (const language of GUEST_LANGUAGES.filter((candidate) => candidate !== 'en')) {
    it(`has every English text in ${language}, with its placeholders`, () => {
      const messages: Record<string, Record<string, Text>> = GUEST_MESSAGES[language]
      const english: Record<string, Record<string, Text>> = reference
      for (const [section, texts] of Object.entries(english)) {
        expect(Object.keys(messages[section] ?? {}).sort(), `${language}.${section}`).toEqual(Object.keys(texts).sort())
        for (const [key, text] of Object.entries(texts)) {
          const translated = messages[section]?.[key] ?? ''
          expect(isText(translated), `${language}.${section}.${key}`).toBe(true)
          // Every form of it says something: a count of 0, 1, 2, 5 and 1,000,000 chooses the form the locale's rules ask for.
          for (const count of [0, 1, 2, 5, 1_000_000]) {
            expect(fill(LOCALES[language], translated, { count }).trim(), `${language}.${section}.${key} (${String(count)})`).not.toBe('')
          }
          expect(placeholdersOf(translated), `${language}.${section}.${key}`).toEqual(placeholdersOf(text))
        }
      }
    })
  }
})

describe('the guest\'s language from Accept-Language', () => {
  it('takes the first language the service speaks, by weight and then order', () => {
    expect(preferredLanguage('de-AT,de;q=0.9,en;q=0.8')).toBe('de')
    expect(preferredLanguage('pl, nl;q=0.5, fr;q=0.7')).toBe('fr')
    expect(preferredLanguage('en;q=0.5, it')).toBe('it')
    expect(preferredLanguage('ES-es')).toBe('es')
  })

  it('has none for languages it does not speak, refused ones and malformed headers', () => {
    expect(preferredLanguage(undefined)).toBeUndefined()
    expect(preferredLanguage('')).toBeUndefined()
    expect(preferredLanguage('pl, cs;q=0.8')).toBeUndefined()
    expect(preferredLanguage('de;q=0, pl')).toBeUndefined()
    expect(preferredLanguage('*')).toBeUndefined()
    expect(preferredLanguage('de;q=abc, ??, fr;q=2')).toBeUndefined()
    expect(preferredLanguage(`${'x'.repeat(600)}, de`)).toBeUndefined()
  })
})
