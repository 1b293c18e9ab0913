/** The widget's requests: the public endpoints of the service that served this script, and what a refusal means to a guest. */
import createClient from 'openapi-fetch'
import { text } from './i18n'
import type { Lang } from './i18n'
import type { components, paths } from '../../clients/typescript/src/schema'

type Problem = components['schemas']['Problem']

/** The service that served this script answers the widget's requests, unless the `api` attribute names another. */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin

export type BookingClient = ReturnType<typeof createClient<paths>>

/** A client of the service at `api`, or of the one that served this script when `api` is empty; never with cookies. */
export function bookingClient(api: string): BookingClient {
  return createClient<paths>({ baseUrl: api === '' ? SCRIPT_ORIGIN : api, credentials: 'omit' })
}

/** What a refusal means to a guest, in their language; a 429 counts the seconds until `waitUntil` (ms). */
export function problemText(language: Lang, status: number, problem: unknown, waitUntil: number): string {
  const known = typeof problem === 'object' && problem !== null && 'type' in problem ? problem as Problem : undefined
  const detail = known?.detail ?? ''
  const type = known?.type ?? ''
  if (type.endsWith('/club-not-found')) return text(language, 'unknownClub')
  if (status === 429) {
    return text(language, 'tooMany', { seconds: String(Math.max(1, Math.ceil((waitUntil - Date.now()) / 1000))) })
  }
  if (status >= 500 || status === 0) return text(language, 'unavailable')
  return text(language, 'refused', { detail })
}
