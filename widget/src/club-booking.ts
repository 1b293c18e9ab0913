/**
 * <club-booking club="tc-riverside" lang="de"></club-booking>: live court booking on any web page.
 * It lists the club's courts for a day (public endpoints of the service that served this script),
 * lets a guest pick one or more consecutive free times of a court, asks for name and e-mail, books,
 * and says what happened. Shadow DOM keeps the page's CSS out; colours, font and radius follow CSS
 * custom properties (--club-booking-*), and every part can be styled with ::part. Times are the
 * club's, through Intl in the club's time zone, never the visitor's. No cookies, no other origins.
 * What it holds and does is src/booking-flow.ts; this is how it looks and where the focus goes.
 */
import { html, nothing } from 'lit/html.js'
import type { TemplateResult } from 'lit/html.js'
import { SCRIPT_ORIGIN } from './api'
import { bookedView } from './booked'
import { ATTRIBUTES, BookingFlow, STATE } from './booking-flow'
import type { Changes } from './element'
import { dateText } from './format'
import { reveal } from './frame-height'
import { GUEST_LANGUAGES, LANGUAGE_NAMES, hasMessages, loadMessages, speechless } from './i18n'
import { cellSelector, gridTable, markMore } from './grid'
import { bookable, offeredColumns, pastBefore } from './slots'
import { dateSelector, dateStrip, revealDay } from './strip'
import { styles } from './styles'
import { bookingForm, popupFrame, selectionBar } from './views'

export class ClubBooking extends BookingFlow {
  static override styles = styles

  protected override willUpdate(changed: Changes): void {
    // In a popup, the service is asked when the dialog first opens.
    if (changed.has('club') && this.club !== '' && (!this.popup || this.opened)) void this.load()
    // The page's member: the form starts with their name and address, which the guest may change.
    if (changed.has('bookerName') && this.bookerName !== '') this.values = { ...this.values, name: this.bookerName }
    if (changed.has('bookerEmail') && this.bookerEmail !== '') this.values = { ...this.values, email: this.bookerEmail }
    // A language other than English: its texts are fetched once for the page, and the widget shows itself when they are in.
    const language = this.language
    if (!hasMessages(language) && !speechless(language)) {
      void loadMessages(language, this.api === '' ? SCRIPT_ORIGIN : this.api).then(() => {
        this.requestUpdate()
      })
    }
  }

  /**
   * A new step takes the keyboard focus: the form's first field, or the confirmation; so does a cell,
   * a refused field or an alert asked for. What the guest must see next is brought into sight.
   */
  protected override updated(changed: Changes): void {
    markMore(this.renderRoot)
    if (changed.has('day') || changed.has('days')) revealDay(this.renderRoot)
    const find = (selector: string) => this.renderRoot.querySelector<HTMLElement>(selector)
    const asked = this.focusAfterRender
    this.focusAfterRender = undefined
    if (asked !== undefined) {
      const element = find(asked)
      element?.focus({ preventScroll: true })
      reveal([element, ...this.step === 'pick' ? [find('.chosen')] : []])
      return
    }
    if (changed.has('step') && changed.get('step') !== undefined) {
      const target = find(this.step === 'form' ? '#name' : this.step === 'done' ? '.done' : '.grid-wrap')
      if (this.step !== 'pick') target?.focus({ preventScroll: true })
      reveal([target])
      return
    }
    // A time chosen: it and its Continue; a reason beside Continue.
    if (changed.has('selection') && this.selection.length > 0) reveal([find('[aria-pressed="true"]'), find('.chosen')])
    else if (changed.has('notice') && this.notice !== null) reveal([find('.notice:not(:empty)'), find('.bar-notice')])
  }

  private renderGrid(): TemplateResult {
    const offered = offeredColumns(this.listing, this.court)
    if (offered.length === 0) return html`<p part="empty">${this.t('noCourts')}</p>`
    const grid = this.shownColumns()
    const anyBookable = grid.some((column) => column.slots.some((slot) => bookable(this.listing, slot)))
    // A day with nothing to book: a jump to the first free time after it, when the strip knows one.
    const next = anyBookable ? undefined : this.days.find((day) => day.date > this.day && day.first_free !== null)
    const free = next?.first_free
    const past = pastBefore(this.listing, offered)
    const folded = past === undefined
      ? 0
      : new Set(offered.flatMap((column) => column.slots)
        .filter((slot) => Date.parse(slot.start_time) < past).map((slot) => Date.parse(slot.start_time))).size
    return html`
      ${anyBookable ? html`<p class="hint" part="hint">${this.t('pickHint')}</p>` : html`<p part="empty">${this.t('noneBookable')}</p>`}
      ${next === undefined || free == null
        ? nothing
        : html`<button type="button" part="button next-free" class="primary next" @click=${() => this.jump(next.date, free)}
        >${this.t('nextFree', { when: `${dateText(this.language, next.date)}, ${this.time(free.start_time)}, ${free.court_name}` })}</button>`}
      ${folded === 0
        ? nothing
        : html`<button type="button" part="button earlier" class="secondary earlier" aria-expanded=${this.earlier ? 'true' : 'false'}
          @click=${() => {
            this.earlier = !this.earlier
            this.cursor = null
          }}
          >${this.earlier ? this.t('hideEarlier') : this.t('showEarlier', { count: folded })}</button>`}
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
    if (this.step === 'done' && this.booked !== null) {
      return bookedView(this.language, this.listing, this.booked, () => {
        this.go('pick')
      })
    }
    if (this.step === 'pick') return this.renderGrid()
    return bookingForm({ summary: this.summary(), values: this.values, errors: this.errors, busy: this.busy,
      waiting: this.waiting,
      retry: this.retry, policy: this.policy(), wait: Math.ceil((this.waitUntil - Date.now()) / 1000), t: (key) => this.t(key),
      input: (field, value) => {
        this.values = { ...this.values, [field]: value }
      },
      submit: (event) => {
        void this.book(event)
      },
      back: () => { this.go('pick') } })
  }

  /** The popup's dialog, opened modal (Escape and its close button shut it; the page's focus comes back to the button). */
  private async open(): Promise<void> {
    const first = !this.opened
    this.opened = true
    await this.updateComplete
    this.renderRoot.querySelector('dialog')?.showModal()
    if (first) await this.load()
  }

  /** The guest's choice of language: the widget speaks it from now on, and the mails of what it books are written in it. */
  private languageSwitch(): TemplateResult {
    return html`<label class="sr" for="language">${this.t('language')}</label>
      <select id="language" part="language" class="language" @change=${(event: Event) => {
        this.chosenLanguage = (event.target as HTMLSelectElement).value
      }}>${GUEST_LANGUAGES.map((code) => html`<option value=${code} lang=${code} ?selected=${code === this.language}
        >${LANGUAGE_NAMES[code]}</option>`)}</select>`
  }

  protected override render(): TemplateResult {
    // No texts can be read at all: the page's own fallback content inside the element shows, as without JavaScript.
    if (speechless(this.language)) return html`<slot></slot>`
    // Until the language's texts are in, nothing that would show in another language.
    if (!hasMessages(this.language)) return html`<section part="container" lang=${this.language} aria-busy="true"></section>`
    const notice = this.notice
    const body = html`<section part="container" lang=${this.language} aria-label=${this.t('title')}>
      <div class="top"><div class="day" part="day">${this.day === '' ? '' : dateText(this.language, this.day)}</div>
        ${this.languageSwitch()}</div>
      ${this.step === 'pick'
        ? dateStrip({ language: this.language, days: this.days, current: this.day, show: (date, focus) => {
            if (focus) this.focusAfterRender = dateSelector(date)
            void this.showDay(date)
          } })
        : nothing}
      <div class="notice ${notice?.kind === 'error' ? 'error' : ''}" part="notice" role="alert" tabindex="-1"
        >${notice?.kind === 'error' ? notice.text : ''}</div>
      <div class="notice" role="status">${notice?.kind === 'status' ? notice.text : ''}</div>
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
}

// The attributes' properties and the element's own state: a change of any renders the element again.
ClubBooking.reactive([...Object.values(ATTRIBUTES), ...STATE])

if (customElements.get('club-booking') === undefined) customElements.define('club-booking', ClubBooking)

declare global {
  interface HTMLElementTagNameMap {
    'club-booking': ClubBooking
  }
}
