/**
 * How every text a person reads is written and filled, on the server (mails, pages, refusals), in the
 * widget and in the dashboard: a text with `{name}` placeholders, or — where a number decides the
 * words — its plural forms, chosen by Intl.PluralRules of the locale on the `count` placeholder
 * (CLDR's categories: `one`, `few`, `many`, `other`, …; `other` is always there). Punctuation, French
 * spaces before a colon included, belongs to the texts, never to the code that puts them together.
 */

/** A plural text: the forms of the locale's categories that differ, `other` for the rest. */
export type PluralText = { readonly other: string } & Readonly<Partial<Record<Intl.LDMLPluralRule, string>>>

export type Text = string | PluralText

/** The plural rules of a locale, made once (a PluralRules object takes far longer to make than to ask). */
const rules = new Map<string, Intl.PluralRules>()

function pluralRules(locale: string): Intl.PluralRules {
  let found = rules.get(locale)
  if (found === undefined) {
    found = new Intl.PluralRules(locale)
    rules.set(locale, found)
  }
  return found
}

/**
 * The text with its placeholders filled: a plural text's form for `count` first. A placeholder
 * without a value is left empty; a value is put in as it is (escaping is the caller's, where the
 * text goes into HTML or a calendar file).
 */
export function fill(locale: string, text: Text, params: Readonly<Record<string, string | number>> = {}): string {
  const chosen = typeof text === 'string' ? text : text[pluralRules(locale).select(Number(params.count ?? 0))] ?? text.other
  return chosen.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    return value === undefined ? '' : String(value)
  })
}

/** Whether a value is a text of this kind (a plural text's forms are all strings, and `other` is there). */
export function isText(value: unknown): value is Text {
  if (typeof value === 'string') return true
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const forms = Object.entries(value as Record<string, unknown>)
  return typeof (value as { other?: unknown }).other === 'string'
    && forms.every(([form, text]) => ['zero', 'one', 'two', 'few', 'many', 'other'].includes(form) && typeof text === 'string')
}

/** The placeholders a text uses, in all of its forms, sorted and each once (translations must use the same). */
export function placeholdersOf(text: Text): string[] {
  const forms = typeof text === 'string' ? [text] : Object.values(text).filter((form) => typeof form === 'string')
  return [...new Set(forms.flatMap((form) => [...form.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '')))].sort()
}
