/**
 * What the service's refusals mean to a guest in the widget: each code the public endpoints answer
 * with (src/domain/refusals.ts) has a text of the widget's (`r.<code>`, src/i18n.ts), in the guest's
 * language, and the field of the form it concerns when it concerns one. A code the widget does not
 * know (a newer service) is said in the service's own words, which follow the widget's language too.
 */
import { problemText } from './api'
import { hasText, text } from './i18n'
import type { Lang, MessageKey } from './i18n'

/** The form's fields, by the names the booking and the waiting-list requests give them. */
export type FormField = 'name' | 'email' | 'notes'

const FIELDS: Readonly<Record<string, FormField>> = {
  booker_name: 'name', name: 'name', booker_email: 'email', email: 'email', notes: 'notes',
}

/** One reason of a refusal as the problem document gives it. */
interface Reason { readonly code?: unknown, readonly name?: unknown, readonly reason?: unknown }

/** The widget's text of a code (`r.<code>` of its texts), if it knows the code. */
export function refusalKey(language: Lang, code: unknown): MessageKey | undefined {
  const key = `r.${String(code)}`
  return typeof code === 'string' && hasText(language, key) ? key : undefined
}

/**
 * A refusal's reasons at the form's fields (each field's first), and the ones that concern none of
 * them (the times, the club, the request): said beside the fields and in the alert.
 */
export function reasonsOf(problem: unknown): { fields: Partial<Record<FormField, Reason>>, others: Reason[] } {
  const body: { code?: unknown, detail?: unknown, invalid_params?: unknown } = typeof problem === 'object' && problem !== null
    ? problem
    : {}
  const params = Array.isArray(body.invalid_params) ? body.invalid_params as Reason[] : []
  const fields: Partial<Record<FormField, Reason>> = {}
  const others: Reason[] = []
  for (const param of params) {
    const field = typeof param.name === 'string' ? FIELDS[param.name] : undefined
    if (field === undefined) others.push(param)
    else fields[field] ??= param
  }
  if (params.length === 0) others.push({ code: body.code, reason: body.detail })
  return { fields, others }
}

/**
 * A refusal of the form as the guest reads it: each field's reason (shown at the field), the alert
 * (how many fields to correct, and every reason that concerns none), and the first field refused.
 */
export function saidAtFields(language: Lang, status: number, problem: unknown, waitUntil: number):
{ errors: Partial<Record<FormField, string>>, alert: string, first: FormField | undefined } {
  const { fields, others } = reasonsOf(problem)
  const errors: Partial<Record<FormField, string>> = {}
  for (const field of ['name', 'email', 'notes'] as const) {
    const reason = fields[field]
    if (reason !== undefined) errors[field] = problemText(language, status, reason, waitUntil)
  }
  const invalid = Object.keys(errors) as FormField[]
  const alert = [...invalid.length === 0 ? [] : [text(language, 'fixFields', { count: invalid.length })],
    ...others.map((reason) => problemText(language, status, reason, waitUntil))].join(' ')
  return { errors, alert, first: invalid[0] }
}
