/**
 * What the content editors share: a call's outcome (the record, or the problem and, when someone
 * else saved the record meanwhile, the record as it is now), shown the same way on every page, and
 * the club's times in its zone.
 */
import { problemOf } from '../api/client'
import type { Problem } from '../api/client'
import { i18n, t } from '../i18n.svelte'
import { FormErrors } from './form-errors.svelte'

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

/**
 * The problem or notice a page shows after its last call: a refusal of what the person typed at the
 * form's fields (`errors`; `fields` maps the API's field names to the form's), a fault of the
 * service in the page's banner (`problem`).
 */
export class Outcome<T> {
  problem = $state<Problem | null>(null)
  notice = $state('')
  readonly errors = new FormErrors()

  /** `reload` puts a record as someone else saved it into the page's form. */
  constructor(private readonly reload: (current: T) => void, private readonly fields: Readonly<Record<string, string>> = {}) {}

  /**
   * Shows a call's result: the notice when it succeeded (true); otherwise its problem, and when
   * someone else had saved the record first, their version in the form with a word why.
   */
  settle(result: { readonly ok: true } | { readonly ok: false, readonly problem: Problem, readonly current?: T },
    notice: string): boolean {
    this.errors.clear()
    if (result.ok) {
      this.problem = null
      this.notice = notice
      return true
    }
    this.notice = ''
    this.problem = this.errors.take(result.problem, this.fields) ? null : result.problem
    if (result.current !== undefined) {
      this.reload(result.current)
      this.notice = t('content.reloaded')
    }
    return false
  }

  /** A read that failed. */
  failed(result: { error?: unknown, response: Response }): void {
    this.problem = problemOf(result.error, result.response.status)
  }
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
