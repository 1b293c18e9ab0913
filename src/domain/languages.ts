/**
 * The languages a guest meets the service in: the booking widget, the hosted booking page, the
 * booking's own page and the mails about a booking. A club names its default (the booking rules'
 * `language`); a booking keeps the language it was made in, and every mail about it is written in
 * that language.
 */
export const GUEST_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number]

/** The locale whose conventions dates and times follow in each language (English: day before month, 24 hours). */
export const LOCALES: Readonly<Record<GuestLanguage, string>> = {
  en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL',
}

/** Each language named in itself, for a choice of language. */
export const LANGUAGE_NAMES: Readonly<Record<GuestLanguage, string>> = {
  en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano', nl: 'Nederlands',
}

export function isGuestLanguage(value: unknown): value is GuestLanguage {
  return typeof value === 'string' && (GUEST_LANGUAGES as readonly string[]).includes(value)
}

/**
 * The first of the guest's languages (an Accept-Language header, RFC 9110 §12.5.4: by weight, then
 * in order) that the service speaks, if any (the caller falls back to the club's). `de-AT` counts
 * as `de`; a weight of 0 refuses a language; malformed parts are skipped.
 */
export function preferredLanguage(acceptLanguage: string | undefined): GuestLanguage | undefined {
  if (acceptLanguage === undefined || acceptLanguage.length > 500) return undefined
  const ranges = acceptLanguage.split(',').flatMap((part, order) => {
    const [range = '', ...params] = part.trim().split(';')
    const weightParam = params.map((param) => param.trim()).find((param) => /^q=/i.test(param))
    const weight = weightParam === undefined ? 1 : Number(weightParam.slice(2))
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(range) || !Number.isFinite(weight) || weight <= 0 || weight > 1) return []
    return [{ language: range.split('-')[0]?.toLowerCase() ?? '', weight, order }]
  })
  ranges.sort((a, b) => b.weight - a.weight || a.order - b.order)
  return ranges.map((range) => range.language).find(isGuestLanguage)
}
