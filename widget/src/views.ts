/**
 * The widget's steps after the grid — the form and the confirmation — and the popup's frame: views
 * of what the element holds, which tell it what the guest did.
 */
import { html, nothing } from 'lit'
import type { TemplateResult } from 'lit'

export interface FormView {
  readonly summary: string
  readonly bookerName: string
  readonly bookerEmail: string
  readonly busy: boolean
  /** The form asks for the waiting list (one taken time): no notes, and the button says so. */
  readonly waiting: boolean
  /** Seconds a 429 still holds the Book button (counted down on it). */
  readonly wait: number
  readonly t: (key: 'name' | 'email' | 'notes' | 'privacy' | 'booking' | 'book' | 'back' | 'notify') => string
  readonly submit: (event: SubmitEvent) => void
  readonly back: () => void
}

export function bookingForm(view: FormView): TemplateResult {
  const { t, wait } = view
  return html`<form part="form" @submit=${view.submit}>
    <p class="chosen-line"><strong>${view.summary}</strong></p>
    <label for="name">${t('name')}</label>
    <input id="name" name="name" part="input" required maxlength="100" autocomplete="name" value=${view.bookerName}>
    <label for="email">${t('email')}</label>
    <input id="email" name="email" part="input" type="email" required maxlength="254" autocomplete="email" value=${view.bookerEmail}>
    ${view.waiting
      ? nothing
      : html`<label for="notes">${t('notes')}</label>
    <textarea id="notes" name="notes" part="input" maxlength="500" rows="2"></textarea>`}
    <p class="hint">${t('privacy')}</p>
    <div class="row">
      <button type="submit" part="button" class="primary" ?disabled=${view.busy || wait > 0}
        >${view.waiting ? t('notify') : view.busy ? t('booking') : t('book')}${wait > 0 ? ` (${String(wait)})` : ''}</button>
      <button type="button" part="button" class="secondary" @click=${view.back}>${t('back')}</button>
    </div>
  </form>`
}

/** A form's text field, trimmed ('' when it has none). */
export function fieldOf(fields: FormData, name: string): string {
  const value = fields.get(name)
  return typeof value === 'string' ? value.trim() : ''
}

export function confirmation(title: string, said: string, another: string, again: () => void): TemplateResult {
  return html`<div part="confirmation" class="done" role="status" tabindex="-1">
    <h3>${title}</h3>
    <p>${said}</p>
    <button type="button" part="button" class="primary" @click=${again}>${another}</button>
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
 * and the close button shut it; the focus comes back to the button). `body`: the widget, once opened.
 */
export function popupFrame(label: string, title: string, close: string, body: TemplateResult | typeof nothing,
  open: () => void): TemplateResult {
  return html`<button type="button" part="button launcher" class="primary launcher" aria-haspopup="dialog" @click=${open}
    >${label}</button>
    <dialog part="dialog" aria-label=${title}>
      <button type="button" part="button close" class="secondary close" aria-label=${close}
        @click=${(event: Event) => { (event.currentTarget as HTMLElement).closest('dialog')?.close() }}>×</button>
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
