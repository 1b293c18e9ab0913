/**
 * What the booking widget holds and does, apart from how it looks (src/club-booking.ts): its attributes
 * and state, the day's listing and the date strip's days, the guest's choice of times, the form's
 * values and refusals, the booking (or the place on the waiting list) sent until it is answered, and
 * a 429's countdown. The element (ClubBooking) renders it.
 */
import { SCRIPT_ORIGIN, isProblem, problemText, publicApi } from './api'
import type { Choice, PublicApi } from './api'
import { attemptOf, sendUntilAnswered } from './attempt'
import type { Attempt } from './attempt'
import type { Booked } from './booked'
import { ReactiveElement } from './element'
import { clockTime } from './format'
import { cellSelector } from './grid'
import { languageOf, text } from './i18n'
import type { Lang, MessageKey } from './i18n'
import { policyText } from './policy'
import { reasonsOf, saidAtFields } from './refusals'
import type { FormField } from './refusals'
import { bookable, cellOf, columns, columnsFrom, isSelected, maxSlots, offeredColumns, pastBefore, selectionAfter } from './slots'
import type { Availability, Column, GridPosition, Slot } from './slots'
import type { Day } from './strip'
import { countdown } from './views'
import type { FormValues } from './views'

/** A refusal (an alert at the top) or why a time cannot be added (beside Continue), or that an answer is awaited again. */
export interface Notice { readonly kind: 'error' | 'info' | 'status', readonly text: string }

/** The attributes, and the properties they are read into. */
export const ATTRIBUTES = { 'club': 'club', 'lang': 'lang', 'api': 'api', 'date': 'date', 'court': 'court', 'start': 'start',
  'mode': 'mode', 'label': 'label', 'booker-name': 'bookerName', 'booker-email': 'bookerEmail' } as const

/** The element's own state, reactive as its attributes' properties are. */
export const STATE = ['day', 'days', 'opened', 'today', 'listing', 'selection', 'step', 'notice', 'busy', 'booked', 'waitUntil',
  'cursor', 'chosenLanguage', 'values', 'errors', 'retry', 'earlier'] as const

export abstract class BookingFlow extends ReactiveElement {
  static override attributes = ATTRIBUTES

  declare club: string
  declare lang: string
  declare api: string
  /** The day to start on (YYYY-MM-DD), the one court to offer (its id), the name and address to fill in. */
  declare date: string
  declare court: string
  /** A time to choose once its day is shown (its start, as the listing writes it): the form opens for it when it is free. */
  declare start: string
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
  /** The language the guest chose in the widget; empty: the attribute's, the page's or the browser's. */
  declare chosenLanguage: string
  /** What the guest typed, kept across refusals, times taken meanwhile and further bookings. */
  declare values: FormValues
  /** Why each field was refused, in the guest's language. */
  declare errors: Partial<Record<FormField, string>>
  /** The last attempt's answer was lost: the form offers to send it again (with its key). */
  declare retry: boolean
  /** The times of the day that have begun are shown (they are folded away until asked for). */
  declare earlier: boolean

  private client: PublicApi | null = null
  /** After the next render, the keyboard focus goes here (a cell the arrows moved to, or the alert of a refusal). */
  protected focusAfterRender: string | undefined
  protected loadCount = 0
  protected attempt: Attempt | null = null
  protected stopCountdown = (): void => undefined

  constructor() {
    super()
    this.club = this.lang = this.api = this.date = this.court = this.start = this.bookerName = this.bookerEmail = this.day = ''
    this.today = this.mode = this.label = this.chosenLanguage = ''
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
    this.values = { name: '', email: '', notes: '' }
    this.errors = {}
    this.retry = false
    this.earlier = false
  }

  protected get language(): Lang {
    return languageOf(this.chosenLanguage === '' ? this.lang : this.chosenLanguage)
  }

  protected t(key: MessageKey, params: Readonly<Record<string, string | number>> = {}): string {
    return text(this.language, key, params)
  }

  /** Tells the page (an event that leaves the shadow root): `booked`, `error`, `date-change`; docs/integration.md. */
  protected emit(name: 'booked' | 'error' | 'date-change', detail: Record<string, unknown>): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }))
  }

  override connectedCallback(): void {
    this.client = publicApi(this.api === '' ? SCRIPT_ORIGIN : this.api)
    super.connectedCallback()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.stopCountdown()
  }

  /** Loads the day's listing; an answer to an earlier request never replaces a later one's. */
  protected async load(): Promise<void> {
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
      else if (first) this.chooseAsked()
    } catch {
      if (request === this.loadCount) this.refused(0, undefined)
    }
  }

  /** The time the page asked for (`start`), once: chosen and the form opened, when it can be booked now. */
  protected chooseAsked(): void {
    if (this.start === '') return
    const wanted = Date.parse(this.start)
    this.start = ''
    const slot = offeredColumns(this.listing, this.court).flatMap((column) => column.slots)
      .find((candidate) => Date.parse(candidate.start_time) === wanted)
    if (slot === undefined || !bookable(this.listing, slot)) return
    this.selection = [slot]
    this.go('form')
  }

  /** The strip's days from today (of the court offered): with the first day, after a booking or a time taken; not every day. */
  protected async loadDays(): Promise<void> {
    const court = columns(this.listing).some((column) => column.id === this.court) ? this.court : undefined
    const answer = await this.client?.days(this.club, { from: this.today, days: 31, court }).catch(() => undefined)
    if (answer?.data !== undefined) this.days = answer.data.days
  }

  /** The next free time after a full day, chosen: its day shown, the time selected and focused in the grid. */
  protected async jump(day: string, slot: Slot): Promise<void> {
    await this.showDay(day)
    const found = cellOf(this.shownColumns(), slot)
    // Taken meanwhile: the day is shown as it is now.
    if (found === undefined || !bookable(this.listing, found.slot)) return
    this.selection = [found.slot]
    this.cursor = found.position
    this.focusAfterRender = cellSelector(found.position)
  }

  /** A refusal (its status and RFC 9457 problem) or an unreachable service (status 0): said to the guest, told to the page. */
  protected refused(status: number, problem: unknown): void {
    const { others } = reasonsOf(problem)
    this.notice = { kind: 'error', text: problemText(this.language, status, others[0] ?? {}, this.waitUntil) }
    this.emit('error', { status, problem: problem ?? null })
  }

  protected async showDay(date: string): Promise<void> {
    if (date === '' || date === this.day) return
    this.day = date
    this.selection = []
    this.notice = null
    this.cursor = null
    this.earlier = false
    this.emit('date-change', { date })
    // The grid of the day before is gone at once: no time of it can be chosen while the new day loads.
    this.listing = null
    await this.load()
    this.chooseAsked()
  }

  protected time(instant: string): string {
    return clockTime(this.language, this.listing?.timezone ?? 'UTC', instant)
  }

  /** The choice is one taken time, to wait for: the next step is the waiting list, not a booking. */
  protected get waiting(): boolean { return this.selection.length === 1 && this.selection[0]?.status !== 'available' }

  /** A free time clicked: the chosen times change, or a notice says the court's maximum is reached; a taken one: it alone. */
  protected choose(slot: Slot): void {
    this.notice = null
    if (slot.status !== 'available') {
      this.selection = isSelected(this.selection, slot) ? [] : [slot]
      return
    }
    const max = maxSlots(this.listing, slot.court_id)
    const selection = selectionAfter(this.waiting ? [] : this.selection, slot, max)
    if (selection === null) this.notice = { kind: 'info', text: this.t('maxReached', { count: max }) }
    else this.selection = selection
  }

  protected summary(): string {
    const first = this.selection[0]
    const last = this.selection.at(-1)
    if (first === undefined || last === undefined) return ''
    return this.t('chosen', { court: first.court_name, from: this.time(first.start_time), to: this.time(last.end_time) })
  }

  /** The club's cancellation policy for the chosen time, said before the guest books (not for the waiting list). */
  protected policy(): string {
    const first = this.selection[0]
    return this.waiting || first === undefined ? '' : policyText(this.language, this.listing, first.start_time)
  }

  protected async book(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const first = this.selection[0]
    const last = this.selection.at(-1)
    if (this.client === null || first === undefined || last === undefined || Date.now() < this.waitUntil || this.busy) return
    const waiting = this.waiting
    const times = { court_id: first.court_id, start_time: first.start_time, end_time: last.end_time }
    const { name, email, notes } = this.values
    const choice: Choice = { ...times, waiting, name: name.trim(), email: email.trim(), notes: waiting ? '' : notes.trim() }
    const attempt = attemptOf(this.attempt, choice)
    this.attempt = attempt
    this.busy = true
    this.notice = null
    this.errors = {}
    try {
      const answer = await sendUntilAnswered(this.client, this.club, choice, this.language, attempt, () => {
        this.notice = { kind: 'status', text: this.t('retrying') }
      })
      if (answer === undefined) {
        // Still no answer: the form stays as typed, and the guest sends the same booking again when the connection is back.
        this.retry = true
        this.notice = { kind: 'error', text: this.t('lostAnswer') }
        this.focusAfterRender = '.notice'
        this.emit('error', { status: 0, problem: null })
        return
      }
      this.retry = false
      const { data, error, response } = answer
      if (data !== undefined) {
        const manageUrl = 'manage_url' in data ? data.manage_url : undefined
        if ('booking_id' in data) this.emit('booked', { booking_id: data.booking_id, court_name: first.court_name, ...times })
        this.booked = { email: choice.email, summary: this.summary(), waiting, manageUrl, court: first.court_name,
          start: times.start_time, end: times.end_time }
        this.attempt = null
        this.values = { ...this.values, notes: '' }
        this.step = 'done'
        this.selection = []
        await Promise.all([this.load(), this.loadDays()])
        return
      }
      this.answerRefusal(response, error)
    } finally {
      this.busy = false
    }
  }

  /** A refusal of the form: each reason at its field (the first focused), the rest in the alert; a taken time: the grid. */
  protected answerRefusal(response: Response, error: unknown): void {
    // A taken time (slot-conflict), or one freed meanwhile for whoever waited: the day as it is now, what was typed kept.
    if (isProblem(error, 'slot-conflict') || (error as { code?: unknown } | undefined)?.code === 'slot_free') {
      this.selection = []
      this.step = 'pick'
      void Promise.all([this.load(), this.loadDays()])
      this.refused(response.status, error)
      // The guest's focus was on the form that is gone: it goes to the alert, which says what happened.
      this.focusAfterRender = '.notice'
      return
    }
    if (response.status === 429) this.holdFor(Number(response.headers.get('retry-after') ?? '1'))
    const said = saidAtFields(this.language, response.status, error, this.waitUntil)
    this.errors = said.errors
    this.notice = { kind: 'error', text: said.alert }
    this.emit('error', { status: response.status, problem: error ?? null })
    this.focusAfterRender = said.first === undefined ? '.notice' : `#${said.first}`
  }

  /** A 429: the Book button counts the Retry-After down on itself (the alert says once how long), then is offered again. */
  protected holdFor(seconds: number): void {
    this.waitUntil = Date.now() + Math.max(1, Number.isFinite(seconds) ? seconds : 1) * 1000
    this.stopCountdown()
    this.stopCountdown = countdown(this.waitUntil, () => {
      this.requestUpdate()
    }, () => {
      this.waitUntil = 0
      this.notice = null
    })
  }

  protected go(step: 'pick' | 'form'): void {
    this.step = step
    this.notice = null
    this.errors = {}
    this.retry = false
    this.booked = null
  }

  protected statusText(slot: Slot): string {
    if (isSelected(this.selection, slot)) return this.t('selected')
    if (slot.status !== 'available') return this.t(slot.status)
    return bookable(this.listing, slot) ? this.t('available') : this.t('notBookable')
  }

  /** The start before which the day's times have all begun, while they are folded away. */
  protected get foldedBefore(): number | undefined {
    return this.earlier ? undefined : pastBefore(this.listing, offeredColumns(this.listing, this.court))
  }

  /** The columns as the grid shows them: the times that have begun folded away until the guest asks for them. */
  protected shownColumns(): Column[] {
    return columnsFrom(offeredColumns(this.listing, this.court), this.foldedBefore)
  }

  protected get popup(): boolean {
    return this.mode === 'popup' || this.mode === 'floating'
  }
}
