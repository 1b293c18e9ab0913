/** The service the widget asks (the one that served this script, unless told otherwise) and what its refusals mean to a guest. */
import { text } from './i18n'
import type { Lang } from './i18n'
import type { components } from '../../clients/typescript/src/schema'

type Problem = components['schemas']['Problem']

/** The service that served this script answers the widget's requests, unless the `api` attribute names another. */
export const SCRIPT_ORIGIN = new URL(import.meta.url).origin

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
