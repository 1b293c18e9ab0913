/**
 * A person's own mistakes shown where they were made: a refusal of what they typed (a field the
 * service refused, a conflict with the club's state, a limit reached) is shown at the field, or
 * beside the form's button, in plain words and without the API's field names; the page's banner
 * (ProblemAlert) is kept for faults of the service (5xx, the network, a session that ended).
 */
import type { Problem } from '../api/client'
import { t } from '../i18n.svelte'
import type { MessageKey } from '../i18n.svelte'

/** The kinds of refusal that a person's own input causes; anything else is the service's. */
const THE_PERSONS = new Set(['validation-error', 'conflict', 'edit-conflict', 'rate-limited', 'invalid-token'])

/** A reason as the service words it, in plain words for the person at the field. */
const PLAIN: readonly (readonly [RegExp, MessageKey | ((match: RegExpExecArray) => string)])[] = [
  [/must be in the future/, 'field.future'],
  [/is not an e-mail address|must match format "email"/, 'field.email'],
  [/must NOT have more than (\d+) (characters|items)/, (match) => t('field.tooLong', { n: match[1] ?? '' })],
  [/must NOT have fewer than 1 characters|must be 1–\d+ characters|is empty|is required|must have required property/, 'field.required'],
  [/must name at least one|must NOT have fewer than 1 items/, 'field.chooseOne'],
  [/must match format "date(-time)?"|must match pattern/, 'field.format'],
  [/must be [<>]=? ?(-?\d+)/, 'field.range'],
]

export function plainReason(reason: string): string {
  for (const [pattern, message] of PLAIN) {
    const match = pattern.exec(reason)
    if (match !== null) return typeof message === 'function' ? message(match) : t(message)
  }
  // The service's own sentences ("… is not an http or https address") read as they are, without an API path in front,
  // nor the ids of records, which say nothing to a person.
  const text = reason.replace(/^[a-z_]+(\[\d+\])?(\.[a-z_0-9]+)*: /, '')
    .replace(/ ?\(?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b\)?/gi, '')
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/([^.])$/, '$1.')
}

export class FormErrors {
  /** Messages by the form's own field keys. */
  fields = $state<Record<string, string>>({})
  /** A message about the form as a whole (a conflict, a limit), shown beside its button. */
  form = $state('')

  /**
   * Takes a failed call's problem. `known` maps the API's field names to the form's field keys (a
   * field of a list, `websites.0`, is the list's). True when the person's input caused it (shown at
   * the form); false for a fault of the service, which the page shows in its banner.
   */
  take(problem: Problem, known: Readonly<Record<string, string>> = {}): boolean {
    this.clear()
    if (!THE_PERSONS.has(problem.type.split('/').at(-1) ?? '')) return false
    const unknown: string[] = []
    const fields: Record<string, string> = {}
    for (const param of problem.invalid_params ?? []) {
      const key = known[param.name] ?? known[param.name.replace(/\.\d+$/, '')] ?? known[param.name.split('.')[0] ?? '']
      if (key === undefined) unknown.push(plainReason(param.reason))
      else fields[key] ??= plainReason(param.reason)
    }
    this.fields = fields
    if ((problem.invalid_params ?? []).length === 0) {
      this.form = plainReason(problem.detail.replace(/^(Field|Query parameter|Path parameter|Header) "[^"]*" /, ''))
    } else if (unknown.length > 0) this.form = unknown.join(' ')
    // Each wrong field says so (aria-invalid) and names its message (aria-describedby); the first takes the keyboard focus, so
    // that the person hears and fixes it first. The message's element is there once the page has drawn it.
    requestAnimationFrame(() => {
      for (const key of Object.keys(fields)) mark(key, true)
      const first = Object.keys(fields)[0]
      if (first !== undefined) document.getElementById(first)?.focus()
    })
    return true
  }

  clear(): void {
    for (const key of Object.keys(this.fields)) mark(key, false)
    this.fields = {}
    this.form = ''
  }

  /** The message of a field, if it has one. */
  of(field: string): string | undefined {
    return this.fields[field]
  }
}

/** Marks a field wrong (or right again) for assistive technology: aria-invalid, and its message in aria-describedby. */
function mark(field: string, wrong: boolean): void {
  const element = document.getElementById(field)
  if (element === null) return
  const message = `${field}-error`
  const described = (element.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '' && id !== message)
  if (wrong) {
    element.setAttribute('aria-invalid', 'true')
    element.setAttribute('aria-describedby', [message, ...described].join(' '))
  } else {
    element.removeAttribute('aria-invalid')
    if (described.length === 0) element.removeAttribute('aria-describedby')
    else element.setAttribute('aria-describedby', described.join(' '))
  }
}
