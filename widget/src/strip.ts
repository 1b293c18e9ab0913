/**
 * The date strip: the days that can be booked, each with how many times are free ("full" when none),
 * as one radio group — one Tab stop, the arrows, Home and End move the choice and show that day.
 */
import { html, nothing } from 'lit/html.js'
import type { TemplateResult } from 'lit/html.js'
import type { components } from '../../clients/typescript/src/schema'
import { dateText } from './format'
import { markMore } from './grid'
import { text } from './i18n'
import type { Lang } from './i18n'

export type Day = components['schemas']['CourtDay']

export interface StripView {
  readonly language: Lang
  readonly days: readonly Day[]
  /** The date shown. */
  readonly current: string
  /** Show a date; `focus`: the keys moved to it, so its button takes the focus. */
  show(date: string, focus: boolean): void
}

export const dateSelector = (date: string): string => `[data-date="${date}"]`

function onKey(event: KeyboardEvent, days: readonly Day[], view: StripView): void {
  const date = event.target instanceof HTMLElement ? event.target.dataset.date : undefined
  const at = days.findIndex((day) => day.date === date)
  const step: Record<string, number> = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0,
    End: days.length - 1 }
  const next = days[Math.min(days.length - 1, Math.max(0, step[event.key] ?? at))]
  if (at < 0 || !(event.key in step) || next === undefined) return
  event.preventDefault()
  view.show(next.date, true)
}

export function dateStrip(view: StripView): TemplateResult | typeof nothing {
  const { language } = view
  const days = view.days.filter((day) => day.bookable)
  if (days.length === 0) return nothing
  const stop = days.some((day) => day.date === view.current) ? view.current : days[0]?.date
  const button = (day: Day) => {
    const free = day.free_slots === 0 ? text(language, 'full') : text(language, 'freeCount', { count: String(day.free_slots) })
    return html`<button type="button" role="radio" part="date" class=${day.free_slots === 0 ? 'full' : ''} data-date=${day.date}
      aria-checked=${day.date === view.current ? 'true' : 'false'} tabindex=${day.date === stop ? 0 : -1}
      aria-label=${`${dateText(language, day.date)}: ${free}`} @click=${() => { view.show(day.date, false) }}
      ><span>${dateText(language, day.date, { weekday: 'short' })}</span
      ><strong>${dateText(language, day.date, { day: 'numeric' })}</strong><small>${free}</small></button>`
  }
  // In a frame with a shaded right edge while days lie beyond it (markMore, as the grid's).
  return html`<div class="grid-wrap"><div class="strip" part="strip" role="radiogroup" aria-label=${text(language, 'days')}
    @keydown=${(event: KeyboardEvent) => { onKey(event, days, view) }}
    @scroll=${(event: Event) => { markMore((event.currentTarget as HTMLElement).parentElement ?? document) }}
    >${days.map(button)}</div><div class="more" aria-hidden="true"></div></div>`
}

/** The day shown, wholly inside the strip (scrolled sideways alone, never the page): after the day or the days change. */
export function revealDay(root: ParentNode): void {
  const strip = root.querySelector<HTMLElement>('.strip')
  const chip = strip?.querySelector<HTMLElement>('[aria-checked="true"]')
  if (strip == null || chip == null) return
  const [outer, inner] = [strip.getBoundingClientRect(), chip.getBoundingClientRect()]
  if (inner.left < outer.left) strip.scrollLeft -= outer.left - inner.left + 8
  else if (inner.right > outer.right) strip.scrollLeft += inner.right - outer.right + 8
}
