/**
 * The widget's steps after the grid — the form and the confirmation — and the popup's frame: views
 * of what the element holds, which tell it what the guest did.
 */
import { html, nothing } from 'lit/html.js'
import type { TemplateResult } from 'lit/html.js'
import type { FormField } from './refusals'

/** What the guest typed, kept while the widget lives: after a refusal, a time taken meanwhile, another booking. */
export type FormValues = Record<FormField, string>

export interface FormView {
  readonly summary: string
  readonly values: FormValues
  /** Why a field was refused, in the guest's language, by field. */
  readonly errors: Partial<Record<FormField, string>>
  readonly busy: boolean
  /** The form asks for the waiting list (one taken time): no notes, and the button says so. */
  readonly waiting: boolean
  /** Seconds a 429 still holds the Book button (counted down on it). */
  readonly wait: number
  /** The booking's answer was lost: the button offers to try again (the same booking, never a second). */
  readonly retry: boolean
  /** The club's cancellation policy for the chosen time, said before the guest books. */
  readonly policy: string
  readonly t: (key: 'name' | 'email' | 'notes' | 'privacy' | 'privacyWaiting' | 'booking' | 'book' | 'back' | 'notify'
    | 'tryAgain') => string
  readonly input: (field: FormField, value: string) => void
  readonly submit: (event: SubmitEvent) => void
  readonly back: () => void
}

/** A field of the form, its refusal beside it (described by it, marked invalid). */
function field(view: FormView, name: FormField, label: string, control: (attributes: { invalid: boolean, described: string })
=> TemplateResult): TemplateResult {
  const error = view.errors[name]
  return html`<label for=${name}>${label}</label>
    ${control({ invalid: error !== undefined, described: error === undefined ? '' : `${name}-error` })}
    ${error === undefined ? nothing : html`<p class="field-error" id=${`${name}-error`} part="field-error">${error}</p>`}`
}

export function bookingForm(view: FormView): TemplateResult {
  const { t, wait, values } = view
  const typed = (name: FormField) => (event: Event) => {
    view.input(name, (event.target as HTMLInputElement | HTMLTextAreaElement).value)
  }
  const label = view.busy ? t('booking') : view.retry ? t('tryAgain') : view.waiting ? t('notify') : t('book')
  return html`<form part="form" novalidate @submit=${view.submit}>
    <p class="chosen-line"><strong>${view.summary}</strong></p>
    ${view.policy === '' ? nothing : html`<p class="hint policy" part="policy">${view.policy}</p>`}
    ${field(view, 'name', t('name'), (a) => html`<input id="name" name="name" part="input" required maxlength="100"
      autocomplete="name" .value=${values.name} aria-invalid=${a.invalid ? 'true' : 'false'} aria-describedby=${a.described}
      @input=${typed('name')}>`)}
    ${field(view, 'email', t('email'), (a) => html`<input id="email" name="email" part="input" type="email" required
      maxlength="254" autocomplete="email" .value=${values.email} aria-invalid=${a.invalid ? 'true' : 'false'}
      aria-describedby=${a.described} @input=${typed('email')}>`)}
    ${view.waiting
      ? nothing
      : field(view, 'notes', t('notes'), (a) => html`<textarea id="notes" name="notes" part="input" maxlength="500" rows="2"
        .value=${values.notes} aria-invalid=${a.invalid ? 'true' : 'false'} aria-describedby=${a.described}
        @input=${typed('notes')}></textarea>`)}
    <p class="hint">${view.waiting ? t('privacyWaiting') : t('privacy')}</p>
    <div class="row">
      <button type="submit" part="button" class="primary" ?disabled=${view.busy || wait > 0}
        >${label}${wait > 0 ? ` (${String(wait)})` : ''}</button>
      <button type="button" part="button" class="secondary" @click=${view.back}>${t('back')}</button>
    </div>
  </form>`
}

/** The confirmation: what was booked, where the mail goes, the booking's page and the ways to put it in a calendar. */
export interface ConfirmationView {
  readonly title: string
  readonly said: readonly string[]
  /** The booking's page and its calendar links; none for the waiting list. */
  readonly links?: {
    readonly manage: string
    readonly manageLabel: string
    readonly heading: string
    readonly calendar: readonly (readonly [string, string])[]
  }
  readonly another: string
  readonly again: () => void
}

export function confirmation(view: ConfirmationView): TemplateResult {
  const { links } = view
  return html`<div part="confirmation" class="done" role="status" tabindex="-1">
    <h3>${view.title}</h3>
    ${view.said.map((line) => html`<p>${line}</p>`)}
    ${links === undefined
      ? nothing
      : html`<p><a part="link" class="manage" href=${links.manage} target="_blank" rel="noopener">${links.manageLabel}</a></p>
      <p class="label">${links.heading}</p>
      <ul class="links">${links.calendar.map(([label, href], i) => html`<li><a part="link" href=${href}
        ?download=${i === 0} target=${i === 0 ? nothing : '_blank'} rel="noopener">${label}</a></li>`)}</ul>`}
    <button type="button" part="button" class="primary" @click=${view.again}>${view.another}</button>
  </div>`
}

/**
 * The chosen times and their next step, kept at the bottom of the screen while the grid scrolls, with
 * why a time cannot be added (`info`).
 */
export function selectionBar(summary: string, info: string | undefined, labels: readonly [string, string], next: () => void,
  clear: () => void): TemplateResult | typeof nothing {
  if (summary === '' && info === undefined) return nothing
  return html`<div class="chosen" part="selection">
    ${info === undefined ? nothing : html`<p class="bar-notice" role="status">${info}</p>`}
    ${summary === ''
      ? nothing
      : html`<p>${summary}</p>
    <div class="row">
      <button type="button" part="button" class="primary" @click=${next}>${labels[0]}</button>
      <button type="button" part="button" class="secondary" @click=${clear}>${labels[1]}</button>
    </div>`}
  </div>`
}

/**
 * The popup and floating-button modes: a button that opens the widget in a modal dialog (Escape
 * and the close button, which stays at the dialog's top while it scrolls, shut it; the focus comes
 * back to the button). `body`: the widget, once opened.
 */
export function popupFrame(label: string, title: string, close: string, body: TemplateResult | typeof nothing,
  open: () => void): TemplateResult {
  return html`<button type="button" part="button launcher" class="primary launcher" aria-haspopup="dialog" @click=${open}
    >${label}</button>
    <dialog part="dialog" aria-label=${title}>
      <div class="bar"><button type="button" part="button close" class="secondary close" aria-label=${close}
        @click=${(event: Event) => { (event.currentTarget as HTMLElement).closest('dialog')?.close() }}>×</button></div>
      ${body}
    </dialog>`
}

/**
 * Calls `tick` each second until `until` (ms), then `done` (a 429's countdown on the Book button);
 * returns what stops it.
 */
export function countdown(until: number, tick: () => void, done: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const step = () => {
    const left = until - Date.now()
    if (left <= 0) {
      done()
      return
    }
    tick()
    timer = setTimeout(step, Math.min(1000, left % 1000 || 1000))
  }
  step()
  return () => {
    clearTimeout(timer)
  }
}
