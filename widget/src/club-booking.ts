/**
 * <club-booking club="tc-riverside" lang="de"></club-booking>: live court booking on any web page.
 * It lists the club's courts for a day (public endpoints of the service that served this script),
 * lets a guest pick one or more consecutive free times of a court, asks for name and e-mail, books,
 * and says what happened. Shadow DOM keeps the page's CSS out; colours, font and radius follow CSS
 * custom properties (--club-booking-*), and every part can be styled with ::part. Times are the
 * club's, through Intl in the club's time zone, never the visitor's. No cookies, no other origins.
 */
import { LitElement, html, nothing } from 'lit'
import type { PropertyValues, TemplateResult } from 'lit'
import './frame-height'
import { styles } from './styles'
import { SCRIPT_ORIGIN, isProblem, problemText, publicApi, send } from './api'
import type { PublicApi } from './api'
import { clockTime, dateText } from './format'
import { hasMessages, languageOf, loadMessages, text } from './i18n'
import type { Lang, MessageKey } from './i18n'
import { cellSelector, gridTable, markMore } from './grid'
import { bookable, cellOf, columns, isSelected, maxSlots, offeredColumns, selectionAfter } from './slots'
import type { Availability, GridPosition, Slot } from './slots'
import { dateSelector, dateStrip, revealDay } from './strip'
import { bookingForm, confirmation, countdown, fieldOf, popupFrame, selectionBar } from './views'
import type { Day } from './strip'

/** A refusal (an alert at the top) or why a time cannot be added (beside Continue). */
interface Notice { readonly kind: 'error' | 'info', readonly text: string }

/** What the confirmation says: where the mail goes, the court and times, and whether it was booked or is waited for. */
interface Booked { readonly email: string, readonly summary: string, readonly waiting: boolean }

const STATE = { state: true } as const

export class ClubBooking extends LitElement {
  // Attributes (strings, the default converter), then the element's own state.
  static override properties = {
    club: {}, lang: {}, api: {}, date: {}, court: {}, mode: {}, label: {},
    bookerName: { attribute: 'booker-name' }, bookerEmail: { attribute: 'booker-email' },
    day: STATE, days: STATE, opened: STATE, today: STATE, listing: STATE, selection: STATE, step: STATE, notice: STATE,
    busy: STATE, booked: STATE, waitUntil: STATE, cursor: STATE,
  }

  declare club: string
  declare lang: string
  declare api: string
  /** The day to start on (YYYY-MM-DD), the one court to offer (its id), the name and address to fill in. */
  declare date: string
  declare court: string
  declare bookerName: string
  declare bookerEmail: string
  /** `inline` (the default), `popup` (a button that opens it in a dialog) or `floating` (that button at the screen's corner). */
  declare mode: string
  /** The popup's button's text (default: "Book a court" in the widget's language). */
  declare label: string
  /** The dates that can be booked, with their free times (the date strip); empty until they are in. */
  declare days: readonly Day[]
  /** The popup's dialog has been opened: only then does the widget ask the service. */
  declare opened: boolean
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
  /** The grid's one Tab stop (the ARIA grid pattern): the cell the arrow keys moved to last; null: the first free one. */
  declare cursor: GridPosition | null

  private client: PublicApi | null = null
  /** After the next render, the keyboard focus goes here (a cell the arrows moved to, or the alert of a refusal). */
  private focusAfterRender: string | undefined
  private loadCount = 0
  private stopCountdown = (): void => undefined

  constructor() {
    super()
    this.club = this.lang = this.api = this.date = this.court = this.bookerName = this.bookerEmail = this.day = this.today = ''
    this.mode = this.label = ''
    this.days = []
    this.opened = false
    this.listing = null
    this.selection = []
    this.step = 'pick'
    this.notice = null
    this.busy = false
    this.booked = null
    this.waitUntil = 0
    this.cursor = null
  }

  private get language(): Lang {
    return languageOf(this.lang)
  }

  private t(key: MessageKey, params: Record<string, string> = {}): string {
    return text(this.language, key, params)
  }

  /** Tells the page (an event that leaves the shadow root): `booked`, `error`, `date-change`; docs/integration.md. */
  private emit(name: 'booked' | 'error' | 'date-change', detail: Record<string, unknown>): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }))
  }

  override connectedCallback(): void {
    super.connectedCallback()
    this.client = publicApi(this.api === '' ? SCRIPT_ORIGIN : this.api)
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.stopCountdown()
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // In a popup, the service is asked when the dialog first opens.
    if (changed.has('club') && this.club !== '' && (!this.popup || this.opened)) void this.load()
    // A language other than English: its texts are fetched once for the page, and the widget shows itself when they are in.
    const language = this.language
    if (!hasMessages(language)) {
      void loadMessages(language, this.api === '' ? SCRIPT_ORIGIN : this.api).then(() => {
        this.requestUpdate()
      })
    }
  }

  /** A new step takes the keyboard focus: the form's first field, or the confirmation; so does a cell or an alert asked for. */
  protected override updated(changed: PropertyValues<this>): void {
    markMore(this.renderRoot)
    if (changed.has('day') || changed.has('days')) revealDay(this.renderRoot)
    const asked = this.focusAfterRender
    this.focusAfterRender = undefined
    if (asked !== undefined) {
      const element = this.renderRoot.querySelector<HTMLElement>(asked)
      element?.focus()
      element?.scrollIntoView({ block: 'nearest' })
      return
    }
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
      const { data, error, response } = await client.courts(this.club, { date: this.day === '' ? undefined : this.day })
      if (request !== this.loadCount) return
      if (data === undefined) {
        this.listing = null
        this.refused(response.status, error)
        return
      }
      this.listing = data
      const first = this.day === ''
      if (first) this.today = data.date
      this.day = data.date
      if (first) void this.loadDays()
      // The page asked to start on a later day: it is shown once today is known.
      if (first && /^\d{4}-\d{2}-\d{2}$/.test(this.date) && this.date > data.date) await this.showDay(this.date)
    } catch {
      if (request === this.loadCount) this.refused(0, undefined)
    }
  }

  /** The strip's days from today (of the court offered): with the first day, after a booking or a time taken; not every day. */
  private async loadDays(): Promise<void> {
    const court = columns(this.listing).some((column) => column.id === this.court) ? this.court : undefined
    const answer = await this.client?.days(this.club, { from: this.today, days: 31, court }).catch(() => undefined)
    if (answer?.data !== undefined) this.days = answer.data.days
  }

  /** The next free time after a full day, chosen: its day shown, the time selected and focused in the grid. */
  private async jump(day: string, slot: Slot): Promise<void> {
    await this.showDay(day)
    const found = cellOf(offeredColumns(this.listing, this.court), slot)
    // Taken meanwhile: the day is shown as it is now.
    if (found === undefined || !bookable(this.listing, found.slot)) return
    this.selection = [found.slot]
    this.cursor = found.position
    this.focusAfterRender = cellSelector(found.position)
  }

  /** A refusal (its status and RFC 9457 problem) or an unreachable service (status 0): said to the guest, told to the page. */
  private refused(status: number, problem: unknown): void {
    this.notice = { kind: 'error', text: problemText(this.language, status, problem, this.waitUntil) }
    this.emit('error', { status, problem: problem ?? null })
  }

  private async showDay(date: string): Promise<void> {
    if (date === '' || date === this.day) return
    this.day = date
    this.selection = []
    this.notice = null
    this.cursor = null
    this.emit('date-change', { date })
    // The grid of the day before is gone at once: no time of it can be chosen while the new day loads.
    this.listing = null
    await this.load()
  }

  private time(instant: string): string {
    return clockTime(this.language, this.listing?.timezone ?? 'UTC', instant)
  }

  /** The choice is one taken time, to wait for: the next step is the waiting list, not a booking. */
  private get waiting(): boolean { return this.selection.length === 1 && this.selection[0]?.status !== 'available' }

  /** A free time clicked: the chosen times change, or a notice says the court's maximum is reached; a taken one: it alone. */
  private choose(slot: Slot): void {
    this.notice = null
    if (slot.status !== 'available') {
      this.selection = isSelected(this.selection, slot) ? [] : [slot]
      return
    }
    const max = maxSlots(this.listing, slot.court_id)
    const selection = selectionAfter(this.waiting ? [] : this.selection, slot, max)
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
    const first = this.selection[0]
    const last = this.selection.at(-1)
    if (this.client === null || first === undefined || last === undefined || Date.now() < this.waitUntil) return
    const fields = new FormData(event.currentTarget as HTMLFormElement)
    const waiting = this.waiting
    const times = { court_id: first.court_id, start_time: first.start_time, end_time: last.end_time }
    const email = fieldOf(fields, 'email')
    this.busy = true
    this.notice = null
    try {
      // The language of the mails about the booking (or the waiting): the widget's.
      const { data, error, response } = await send(this.client, this.club, { ...times, waiting, email,
        name: fieldOf(fields, 'name'), notes: fieldOf(fields, 'notes') }, this.language)
      if (data !== undefined) {
        if ('booking_id' in data) this.emit('booked', { booking_id: data.booking_id, court_name: first.court_name, ...times })
        this.booked = { email, summary: this.summary(), waiting }
        this.step = 'done'
        this.selection = []
        await Promise.all([this.load(), this.loadDays()])
        return
      }
      // The contract answers a taken time with 400 and the problem type slot-conflict.
      if (isProblem(error, 'slot-conflict')) {
        this.selection = []
        this.step = 'pick'
        await Promise.all([this.load(), this.loadDays()])
        this.notice = { kind: 'error', text: this.t('taken') }
        this.emit('error', { status: response.status, problem: error })
        // The guest's focus was on the form that is gone: it goes to the alert, which says what happened.
        this.focusAfterRender = '.notice'
        return
      }
      if (response.status === 429) this.holdFor(Number(response.headers.get('retry-after') ?? '1'))
      this.refused(response.status, error)
    } catch {
      this.refused(0, undefined)
    } finally {
      this.busy = false
    }
  }

  /** A 429: the Book button counts the Retry-After down on itself (the alert says once how long), then is offered again. */
  private holdFor(seconds: number): void {
    this.waitUntil = Date.now() + Math.max(1, Number.isFinite(seconds) ? seconds : 1) * 1000
    this.stopCountdown()
    this.stopCountdown = countdown(this.waitUntil, () => {
      this.requestUpdate()
    }, () => {
      this.waitUntil = 0
      this.notice = null
    })
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
    const grid = offeredColumns(this.listing, this.court)
    if (grid.length === 0) return html`<p part="empty">${this.t('noCourts')}</p>`
    const anyBookable = grid.some((column) => column.slots.some((slot) => bookable(this.listing, slot)))
    // A day with nothing to book: a jump to the first free time after it, when the strip knows one.
    const next = anyBookable ? undefined : this.days.find((day) => day.date > this.day && day.first_free !== null)
    const free = next?.first_free
    return html`
      ${anyBookable ? html`<p class="hint" part="hint">${this.t('pickHint')}</p>` : html`<p part="empty">${this.t('noneBookable')}</p>`}
      ${next === undefined || free == null
        ? nothing
        : html`<button type="button" part="button next-free" class="primary next" @click=${() => this.jump(next.date, free)}
        >${this.t('nextFree', { when: `${dateText(this.language, next.date)}, ${this.time(free.start_time)}, ${free.court_name}` })}</button>`}
      ${gridTable(grid, {
        listing: this.listing, selection: this.selection, cursor: this.cursor, caption: dateText(this.language, this.day),
        timeHeading: this.t('time'), time: (instant) => this.time(instant), status: (slot) => this.statusText(slot),
        choose: (slot) => { this.choose(slot) },
        moved: (position, focus) => {
          this.cursor = position
          if (focus) this.focusAfterRender = cellSelector(position)
        },
      })}
      ${selectionBar(this.summary(), this.waiting ? this.t('takenHint') : this.notice?.kind === 'info' ? this.notice.text : undefined,
        [this.t(this.waiting ? 'notify' : 'continue'), this.t('clear')], () => {
          this.go('form')
        }, () => {
          this.selection = []
        })}`
  }

  private renderStep(): TemplateResult | typeof nothing {
    if (this.listing === null) return this.notice === null ? html`<p role="status">${this.t('loading')}</p>` : nothing
    if (this.step === 'done') {
      const waited = this.booked?.waiting === true
      return confirmation(`${this.t(waited ? 'waitingTitle' : 'booked_title')}: ${this.booked?.summary ?? ''}`,
        this.t(waited ? 'waitingSaid' : 'confirmation', { email: this.booked?.email ?? '' }), this.t('another'), () => {
          this.go('pick')
        })
    }
    if (this.step === 'pick') return this.renderGrid()
    return bookingForm({ summary: this.summary(), bookerName: this.bookerName, bookerEmail: this.bookerEmail, busy: this.busy,
      waiting: this.waiting,
      wait: Math.ceil((this.waitUntil - Date.now()) / 1000), t: (key) => this.t(key), submit: (event) => {
        void this.book(event)
      },
      back: () => { this.go('pick') } })
  }

  private get popup(): boolean {
    return this.mode === 'popup' || this.mode === 'floating'
  }

  /** The popup's dialog, opened modal (Escape and its close button shut it; the page's focus comes back to the button). */
  private async open(): Promise<void> {
    const first = !this.opened
    this.opened = true
    await this.updateComplete
    this.renderRoot.querySelector('dialog')?.showModal()
    if (first) await this.load()
  }

  protected override render(): TemplateResult {
    // Until the language's texts are in, nothing that would show in another language.
    if (!hasMessages(this.language)) return html`<section part="container" lang=${this.language} aria-busy="true"></section>`
    const body = html`<section part="container" lang=${this.language} aria-label=${this.t('title')}>
      <div class="day" part="day">${this.day === '' ? '' : dateText(this.language, this.day)}</div>
      ${this.step === 'pick'
        ? dateStrip({ language: this.language, days: this.days, current: this.day, show: (date, focus) => {
            if (focus) this.focusAfterRender = dateSelector(date)
            void this.showDay(date)
          } })
        : nothing}
      <div class="notice ${this.notice?.kind === 'error' ? 'error' : ''}" part="notice" role="alert" tabindex="-1"
        >${this.notice?.kind === 'error' ? this.notice.text : ''}</div>
      ${this.renderStep()}
      ${this.step === 'pick'
        ? html`<div class="date" part="day">
        <label for="date">${this.t('date')}</label>
        <input id="date" type="date" part="input" .value=${this.day} min=${this.today}
          @change=${(event: Event) => this.showDay((event.target as HTMLInputElement).value)}>
      </div>`
        : nothing}
    </section>`
    if (!this.popup) return body
    return popupFrame(this.label === '' ? this.t('title') : this.label, this.t('title'), this.t('close'),
      this.opened ? body : nothing, () => { void this.open() })
  }

  static override styles = styles
}

if (customElements.get('club-booking') === undefined) customElements.define('club-booking', ClubBooking)

declare global {
  interface HTMLElementTagNameMap {
    'club-booking': ClubBooking
  }
}
