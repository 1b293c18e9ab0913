/**
 * <club-booking club="tc-riverside" lang="de"></club-booking>: live court booking on any web page.
 * It lists the club's courts for a day (public endpoints of the service that served this script),
 * lets a guest pick one or more consecutive free times of a court, asks for name and e-mail, books,
 * and says what happened. Shadow DOM keeps the page's CSS out; colours, font and radius follow CSS
 * custom properties (--club-booking-*), and every part can be styled with ::part. Times are the
 * club's, through Intl in the club's time zone, never the visitor's. No cookies, no other origins.
 */
import { LitElement, css, html, nothing } from 'lit'
import type { PropertyValues, TemplateResult } from 'lit'
import createClient from 'openapi-fetch'
import './frame-height'
import { SCRIPT_ORIGIN, problemText } from './api'
import { LOCALES, hasMessages, languageOf, loadMessages, text } from './i18n'
import type { Lang, MessageKey } from './i18n'
import { bookable, columns, isSelected, maxSlots, selectionAfter } from './slots'
import type { Availability, Slot } from './slots'
import type { paths } from '../../clients/typescript/src/schema'

interface Notice {
  readonly kind: 'error' | 'info'
  readonly text: string
}

interface Booked {
  readonly email: string
  readonly summary: string
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

export class ClubBooking extends LitElement {
  static override properties = {
    club: { type: String },
    lang: { type: String },
    api: { type: String },
    day: { state: true },
    today: { state: true },
    listing: { state: true },
    selection: { state: true },
    step: { state: true },
    notice: { state: true },
    busy: { state: true },
    booked: { state: true },
    waitUntil: { state: true },
  }

  declare club: string
  declare lang: string
  declare api: string
  /** The date shown (YYYY-MM-DD); empty until the first answer says which day it is at the club. */
  declare day: string
  /** Today at the club (the first answer's date): no earlier day is offered. */
  declare today: string
  declare listing: Availability | null
  /** The chosen slots: consecutive, of one court, in order. */
  declare selection: readonly Slot[]
  declare step: 'pick' | 'form' | 'done'
  declare notice: Notice | null
  declare busy: boolean
  declare booked: Booked | null
  /** Until when (ms) a 429's Retry-After holds the booking button. */
  declare waitUntil: number

  private client: ReturnType<typeof createClient<paths>> | null = null
  private loadCount = 0
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor() {
    super()
    this.club = ''
    this.lang = ''
    this.api = ''
    this.day = ''
    this.today = ''
    this.listing = null
    this.selection = []
    this.step = 'pick'
    this.notice = null
    this.busy = false
    this.booked = null
    this.waitUntil = 0
  }

  private get language(): Lang {
    return languageOf(this.lang)
  }

  private t(key: MessageKey, params: Record<string, string> = {}): string {
    return text(this.language, key, params)
  }

  override connectedCallback(): void {
    super.connectedCallback()
    this.client = createClient<paths>({ baseUrl: this.api === '' ? SCRIPT_ORIGIN : this.api, credentials: 'omit' })
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this.timer)
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('club') && this.club !== '') void this.load()
    // A language other than English: its texts are fetched once for the page, and the widget shows itself when they are in.
    const language = this.language
    if (!hasMessages(language)) {
      void loadMessages(language, this.api === '' ? SCRIPT_ORIGIN : this.api).then(() => {
        this.requestUpdate()
      })
    }
  }

  /** A new step takes the keyboard focus: the form's first field, or the confirmation. */
  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('step') || changed.get('step') === undefined) return
    const target = this.step === 'form' ? '#name' : this.step === 'done' ? '.done' : undefined
    if (target !== undefined) this.renderRoot.querySelector<HTMLElement>(target)?.focus()
  }

  /** Loads the day's listing; an answer to an earlier request never replaces a later one's. */
  private async load(): Promise<void> {
    const client = this.client
    if (client === null) return
    const request = ++this.loadCount
    try {
      const { data, error, response } = await client.GET('/api/v1/public/{clubSlug}/courts', {
        params: { path: { clubSlug: this.club }, query: this.day === '' ? {} : { date: this.day } },
        // Revalidated every time (a 304 when nothing changed): after a booking the grid must show it, not a cached copy.
        cache: 'no-cache',
      })
      if (request !== this.loadCount) return
      if (data === undefined) {
        this.listing = null
        this.notice = { kind: 'error', text: problemText(this.language, response.status, error, this.waitUntil) }
        return
      }
      this.listing = data
      if (this.day === '') this.today = data.date
      this.day = data.date
    } catch {
      if (request === this.loadCount) this.notice = { kind: 'error', text: this.t('unavailable') }
    }
  }

  private async showDay(date: string): Promise<void> {
    if (date === '' || date === this.day) return
    this.day = date
    this.selection = []
    this.notice = null
    // The grid of the day before is gone at once: no time of it can be chosen while the new day loads.
    this.listing = null
    await this.load()
  }

  private time(instant: string): string {
    return new Intl.DateTimeFormat(LOCALES[this.language],
      { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: this.listing?.timezone ?? 'UTC' }).format(new Date(instant))
  }

  private dayLabel(date: string): string {
    return new Intl.DateTimeFormat(LOCALES[this.language],
      { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
  }

  /** A click on a free time: the chosen times change, or a notice says the court's maximum is reached. */
  private choose(slot: Slot): void {
    this.notice = null
    const max = maxSlots(this.listing, slot.court_id)
    const selection = selectionAfter(this.selection, slot, max)
    if (selection === null) this.notice = { kind: 'info', text: this.t('maxReached', { count: String(max) }) }
    else this.selection = selection
  }

  private summary(): string {
    const first = this.selection[0]
    const last = this.selection.at(-1)
    if (first === undefined || last === undefined) return ''
    return this.t('chosen', { court: first.court_name, from: this.time(first.start_time), to: this.time(last.end_time) })
  }

  private async book(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const fields = new FormData(form)
    const field = (name: string): string => {
      const value = fields.get(name)
      return typeof value === 'string' ? value.trim() : ''
    }
    const first = this.selection[0]
    const last = this.selection.at(-1)
    if (this.client === null || first === undefined || last === undefined || Date.now() < this.waitUntil) return
    const notes = field('notes')
    const email = field('email')
    this.busy = true
    this.notice = null
    try {
      const { data, error, response } = await this.client.POST('/api/v1/public/{clubSlug}/courts/book', {
        // The language of the mails about the booking: the widget's.
        params: { path: { clubSlug: this.club }, header: { 'accept-language': this.language } },
        body: { court_id: first.court_id, start_time: first.start_time, end_time: last.end_time,
          booker_name: field('name'), booker_email: email, ...(notes === '' ? {} : { notes }) },
      })
      if (data !== undefined) {
        this.booked = { email, summary: this.summary() }
        this.step = 'done'
        this.selection = []
        await this.load()
        return
      }
      // The contract answers a taken time with 400 and the problem type slot-conflict.
      if (typeof error === 'object' && 'type' in error && error.type.endsWith('/slot-conflict')) {
        this.selection = []
        this.step = 'pick'
        await this.load()
        this.notice = { kind: 'error', text: this.t('taken') }
        return
      }
      if (response.status === 429) this.holdFor(Number(response.headers.get('retry-after') ?? '1'))
      this.notice = { kind: 'error', text: problemText(this.language, response.status, error, this.waitUntil) }
    } catch {
      this.notice = { kind: 'error', text: this.t('unavailable') }
    } finally {
      this.busy = false
    }
  }

  /** A 429: the booking button waits the Retry-After, then is offered again. */
  private holdFor(seconds: number): void {
    this.waitUntil = Date.now() + Math.max(1, Number.isFinite(seconds) ? seconds : 1) * 1000
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.waitUntil = 0
      this.notice = null
    }, this.waitUntil - Date.now())
  }

  private go(step: 'pick' | 'form'): void {
    this.step = step
    this.notice = null
    this.booked = null
  }

  private statusText(slot: Slot): string {
    if (isSelected(this.selection, slot)) return this.t('selected')
    if (slot.status !== 'available') return this.t(slot.status)
    return bookable(this.listing, slot) ? this.t('available') : this.t('notBookable')
  }

  private renderGrid(): TemplateResult {
    const grid = columns(this.listing)
    if (grid.length === 0) return html`<p part="empty">${this.t('noCourts')}</p>`
    const starts = [...new Set(grid.flatMap((column) => column.slots.map((slot) => slot.start_time)))]
      .sort((a, b) => Date.parse(a) - Date.parse(b))
    const anyBookable = grid.some((column) => column.slots.some((slot) => bookable(this.listing, slot)))
    return html`
      ${anyBookable ? html`<p class="hint" part="hint">${this.t('pickHint')}</p>` : html`<p part="empty">${this.t('noneBookable')}</p>`}
      <div class="scroll" part="grid">
        <table>
          <caption class="sr">${this.dayLabel(this.day)}</caption>
          <thead><tr><th scope="col">${this.t('time')}</th>${grid.map((column) => html`<th scope="col">${column.name}</th>`)}</tr></thead>
          <tbody>${starts.map((start) => html`<tr>
            <th scope="row">${this.time(start)}</th>
            ${grid.map((column) => {
              const slot = column.slots.find((candidate) => candidate.start_time === start)
              if (slot === undefined) return html`<td></td>`
              const free = bookable(this.listing, slot)
              const label = `${column.name}, ${this.time(slot.start_time)}–${this.time(slot.end_time)}: ${this.statusText(slot)}`
              return html`<td><button type="button" part="slot ${free ? 'slot-free' : 'slot-taken'}"
                class=${`slot ${slot.status}${free ? '' : ' unavailable'}`} aria-pressed=${isSelected(this.selection, slot) ? 'true' : 'false'}
                aria-label=${label} ?disabled=${!free && !isSelected(this.selection, slot)} @click=${() => { this.choose(slot) }}
                >${this.statusText(slot)}</button></td>`
            })}
          </tr>`)}</tbody>
        </table>
      </div>
      ${this.selection.length === 0
        ? nothing
        : html`<div class="chosen" part="selection">
        <p>${this.summary()}</p>
        <button type="button" part="button" class="primary" @click=${() => { this.go('form') }}>${this.t('continue')}</button>
        <button type="button" part="button" class="secondary" @click=${() => { this.selection = [] }}>${this.t('clear')}</button>
      </div>`}`
  }

  private renderForm(): TemplateResult {
    const waiting = Date.now() < this.waitUntil
    return html`<form part="form" @submit=${(event: SubmitEvent) => this.book(event)}>
      <p class="chosen-line"><strong>${this.summary()}</strong></p>
      <label for="name">${this.t('name')}</label>
      <input id="name" name="name" part="input" required maxlength="100" autocomplete="name">
      <label for="email">${this.t('email')}</label>
      <input id="email" name="email" part="input" type="email" required maxlength="254" autocomplete="email">
      <label for="notes">${this.t('notes')}</label>
      <textarea id="notes" name="notes" part="input" maxlength="500" rows="2"></textarea>
      <p class="hint">${this.t('privacy')}</p>
      <div class="row">
        <button type="submit" part="button" class="primary" ?disabled=${this.busy || waiting}
          >${this.busy ? this.t('booking') : this.t('book')}</button>
        <button type="button" part="button" class="secondary" @click=${() => { this.go('pick') }}>${this.t('back')}</button>
      </div>
    </form>`
  }

  private renderDone(): TemplateResult {
    return html`<div part="confirmation" class="done" role="status" tabindex="-1">
      <h3>${this.t('booked_title')}: ${this.booked?.summary ?? ''}</h3>
      <p>${this.t('confirmation', { email: this.booked?.email ?? '' })}</p>
      <button type="button" part="button" class="primary" @click=${() => { this.go('pick') }}>${this.t('another')}</button>
    </div>`
  }

  private renderStep(): TemplateResult | typeof nothing {
    if (this.listing === null) return this.notice === null ? html`<p role="status">${this.t('loading')}</p>` : nothing
    if (this.step === 'done') return this.renderDone()
    return this.step === 'form' ? this.renderForm() : this.renderGrid()
  }

  protected override render(): TemplateResult {
    // Until the language's texts are in, nothing that would show in another language.
    if (!hasMessages(this.language)) return html`<section part="container" lang=${this.language} aria-busy="true"></section>`
    return html`<section part="container" lang=${this.language} aria-label=${this.t('title')}>
      <div class="day" part="day">
        <button type="button" part="button" class="secondary" aria-label=${this.t('previousDay')}
          @click=${() => this.showDay(addDays(this.day, -1))} ?disabled=${this.day === '' || this.day <= this.today}>‹</button>
        <label class="sr" for="date">${this.t('date')}</label>
        <input id="date" type="date" part="input" .value=${this.day} min=${this.today}
          @change=${(event: Event) => this.showDay((event.target as HTMLInputElement).value)}>
        <span class="day-name">${this.day === '' ? '' : this.dayLabel(this.day)}</span>
        <button type="button" part="button" class="secondary" aria-label=${this.t('nextDay')}
          @click=${() => this.showDay(addDays(this.day, 1))} ?disabled=${this.day === ''}>›</button>
      </div>
      <div class="notice ${this.notice?.kind ?? ''}" part="notice" role=${this.notice?.kind === 'error' ? 'alert' : 'status'}
        >${this.notice?.text ?? ''}</div>
      ${this.renderStep()}
    </section>`
  }

  static override styles = css`
    :host {
      display: block !important;
      --_accent: var(--club-booking-accent, #0b5cad);
      --_ink: var(--club-booking-ink, #1b1f24);
      --_paper: var(--club-booking-background, #ffffff);
      --_free: var(--club-booking-free, #e7f5ea);
      --_taken: var(--club-booking-taken, #eceef1);
      --_radius: var(--club-booking-radius, 0.375rem);
    }
    * { box-sizing: border-box; }
    /* On the section, not the host: a page's rules (even * { all: unset }) reach the host element, never inside it. */
    section { display: block; padding: 0.5rem; font-family: var(--club-booking-font, system-ui, sans-serif); color: var(--_ink);
      background: var(--_paper); line-height: 1.4; font-size: 1rem; text-align: start; }
    .day { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-bottom: 0.5rem; }
    .day-name { font-weight: 600; }
    .day input { width: auto; flex: 1 1 9rem; max-width: 12rem; }
    button, input, textarea { font: inherit; color: inherit; }
    button { min-height: 2.75rem; min-width: 2.75rem; border-radius: var(--_radius); border: 1px solid var(--_accent); cursor: pointer;
      padding: 0.25rem 0.75rem; }
    button.primary { background: var(--_accent); color: #fff; }
    button.secondary { background: var(--_paper); color: var(--_accent); }
    button:disabled { cursor: not-allowed; opacity: 0.7; }
    button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
    input, textarea { min-height: 2.75rem; padding: 0.5rem; border: 1px solid #6b7480; border-radius: var(--_radius);
      background: #fff; width: 100%; max-width: 28rem; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { padding: 0.125rem; text-align: center; }
    thead th { font-size: 0.9rem; }
    tbody th { font-weight: 600; font-size: 0.9rem; white-space: nowrap; padding-right: 0.5rem; }
    .slot { width: 100%; border-color: transparent; font-size: 0.85rem; }
    .slot.available { background: var(--_free); color: #14532d; }
    .slot.unavailable, .slot.booked, .slot.reserved, .slot.blocked { background: var(--_taken); color: #3b424c; }
    .slot[aria-pressed="true"] { background: var(--_accent); color: #fff; border-color: var(--_accent); }
    .chosen, form { display: flex; flex-direction: column; gap: 0.5rem; align-items: flex-start; margin-top: 0.75rem; }
    .row { display: flex; flex-wrap: wrap; gap: 0.5rem; }
    .hint { color: #4a5360; font-size: 0.9rem; margin: 0.25rem 0; }
    .notice:empty { display: none; }
    .notice { padding: 0.5rem 0.75rem; border-radius: var(--_radius); margin: 0.5rem 0; }
    .notice.error { background: #fde8e8; border: 1px solid #a4161a; color: #7a1114; }
    .notice.info { background: #e7f5ea; }
    .done h3 { margin: 0.5rem 0; font-size: 1.1rem; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `
}

if (customElements.get('club-booking') === undefined) customElements.define('club-booking', ClubBooking)

declare global {
  interface HTMLElementTagNameMap {
    'club-booking': ClubBooking
  }
}
