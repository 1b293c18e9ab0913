/**
 * What the content editors share: a save's outcome (the record, or the problem and, when someone
 * else saved the record meanwhile, the record as it is now), and the club's times in its zone.
 */
import { problemOf } from '../api/client'
import type { Problem } from '../api/client'
import { i18n } from '../i18n.svelte'

export type Saved<T> = { readonly ok: true, readonly record: T }
  | { readonly ok: false, readonly problem: Problem, readonly current?: T }

/** The answer of a create, change or removal call as a value. */
export function savedOf<T>(result: { data?: T, error?: unknown, response: Response }): Saved<T> {
  if (result.response.ok) return { ok: true, record: result.data as T }
  const problem = problemOf(result.error, result.response.status)
  const current = typeof result.error === 'object' && result.error !== null && 'current' in result.error
    ? (result.error as { current?: T }).current
    : undefined
  return current === undefined ? { ok: false, problem } : { ok: false, problem, current }
}

/** An instant as a date and time at the club. */
export function clubTime(iso: string | null, timeZone: string): string {
  if (iso === null) return '—'
  return new Intl.DateTimeFormat(i18n.lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone })
    .format(new Date(iso))
}

/** A field's text: empty means none. */
export function orNull(text: string): string | null {
  const trimmed = text.trim()
  return trimmed === '' ? null : trimmed
}
