/**
 * The day's grid as an ARIA grid: a row per time, a column per court, a slot spanning the rows its
 * length covers; one Tab stop (tabStop), the arrows, Home, End and Page Up and Down moving it
 * (moveInGrid); times that cannot be booked stay focusable (`aria-disabled`). Wider than the widget,
 * it scrolls sideways under sticky times, with a shaded right edge while courts lie beyond it.
 */
import { html, nothing } from 'lit/html.js'
import type { TemplateResult } from 'lit/html.js'
import { bookable, gridLayout, isSelected, moveInGrid, tabStop, waitable } from './slots'
import type { Availability, Column, GridLayout, GridPosition, Slot } from './slots'

export interface GridView {
  readonly listing: Availability | null
  readonly selection: readonly Slot[]
  readonly cursor: GridPosition | null
  readonly caption: string
  readonly timeHeading: string
  time(instant: string): string
  status(slot: Slot): string
  choose(slot: Slot): void
  /** The Tab stop moved: by the keys (focus it after the render) or by a focus the page gave a cell. */
  moved(position: GridPosition, focus: boolean): void
}

export function cellSelector(position: GridPosition): string {
  return `[data-cell="${String(position.column)}:${String(position.row)}"]`
}

/** While courts or days lie beyond the right edge of the grid or the date strip, its frame says so (`data-more`). */
export function markMore(root: ParentNode): void {
  for (const scroll of root.querySelectorAll<HTMLElement>('.scroll, .strip')) {
    const wrap = scroll.parentElement
    if (wrap === null) continue
    if (scroll.scrollLeft + scroll.clientWidth < scroll.scrollWidth - 1) wrap.dataset.more = ''
    else delete wrap.dataset.more
  }
}

/** Arrows, Home, End, Page Up and Down move between the cells; Enter and Space choose (the buttons' own). */
function onKey(event: KeyboardEvent, layout: GridLayout, view: GridView): void {
  const target = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('[data-cell]') : null
  const [column, row] = (target?.dataset.cell ?? '').split(':').map(Number)
  if (column === undefined || row === undefined || Number.isNaN(column) || Number.isNaN(row)) return
  const next = moveInGrid(layout, { column, row }, event.key, event.ctrlKey || event.metaKey)
  if (next === undefined) return
  event.preventDefault()
  view.moved(next, true)
}

export function gridTable(grid: readonly Column[], view: GridView): TemplateResult {
  const layout = gridLayout(grid)
  const stop = tabStop(layout, view.cursor, (slot) => bookable(view.listing, slot))
  const cell = (row: number, column: number) => {
    const found = layout.cells[column]?.[row]
    if (found === undefined) return html`<td></td>`
    // A slot that spans rows is drawn once, in its first.
    if (found.row !== row) return nothing
    const { slot } = found
    const free = bookable(view.listing, slot)
    // A taken time the guest may wait for is chosen as a free one is: the next step offers the waiting list.
    const open = free || waitable(view.listing, slot)
    const selected = isSelected(view.selection, slot)
    const label = `${grid[column]?.name ?? ''}, ${view.time(slot.start_time)}–${view.time(slot.end_time)}: ${view.status(slot)}`
    return html`<td rowspan=${found.span}><button type="button" part="slot ${free ? 'slot-free' : 'slot-taken'}"
      class=${`slot ${slot.status}${free ? '' : ' unavailable'}`} aria-pressed=${selected ? 'true' : 'false'} aria-label=${label}
      aria-disabled=${!open && !selected ? 'true' : 'false'} tabindex=${stop?.column === column && stop.row === row ? 0 : -1}
      data-cell=${`${String(column)}:${String(row)}`} @focus=${() => { view.moved({ column, row }, false) }}
      @click=${() => { if (open || selected) view.choose(slot) }}>${view.status(slot)}</button></td>`
  }
  return html`<div class="grid-wrap">
    <div class="scroll" part="grid" @scroll=${(event: Event) => { markMore((event.currentTarget as HTMLElement).parentElement ?? document) }}>
      <table role="grid" aria-readonly="true" @keydown=${(event: KeyboardEvent) => { onKey(event, layout, view) }}>
        <caption class="sr">${view.caption}</caption>
        <thead><tr><th scope="col">${view.timeHeading}</th>${grid.map((column) => html`<th scope="col">${column.name}</th>`)}</tr></thead>
        <tbody>${layout.starts.map((start, row) => html`<tr><th scope="row">${view.time(start)}</th>
          ${layout.cells.map((_, column) => cell(row, column))}</tr>`)}</tbody>
      </table>
    </div>
    <div class="more" aria-hidden="true"></div>
  </div>`
}
