/** The day's grid: the courts' columns, which times can be booked now, and how a click changes the chosen times. */
import type { components } from '../../clients/typescript/src/schema.js'

export type Availability = components['schemas']['CourtAvailability']
export type Slot = components['schemas']['CourtBookingSlot']

/** A court's column: its slots of the day and which of them can be booked now. */
export interface Column {
  readonly id: string
  readonly name: string
  readonly slots: readonly Slot[]
}

/** The date `days` after a date (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

export function columns(listing: Availability | null): Column[] {
  const byCourt = new Map<string, Column & { slots: Slot[] }>()
  for (const slot of listing?.courts ?? []) {
    const column = byCourt.get(slot.court_id) ?? { id: slot.court_id, name: slot.court_name, slots: [] }
    column.slots.push(slot)
    byCourt.set(slot.court_id, column)
  }
  return [...byCourt.values()]
}

/** The columns a widget offers: the one of `court` alone, when the club has it; else every court's. */
export function offeredColumns(listing: Availability | null, court: string): Column[] {
  const all = columns(listing)
  return all.some((column) => column.id === court) ? all.filter((column) => column.id === court) : all
}

/** Free, and its start inside the court's booking window (not started, not beyond the horizon). */
export function bookable(listing: Availability | null, slot: Slot): boolean {
  return slot.status === 'available' && inWindow(listing, slot)
}

/** Taken, inside the booking window, at a club with a waiting list: a guest may ask to be told when it frees. */
export function waitable(listing: Availability | null, slot: Slot): boolean {
  return listing?.waiting_list === true && slot.status !== 'available' && inWindow(listing, slot)
}

function inWindow(listing: Availability | null, slot: Slot): boolean {
  const window = listing?.booking_windows.find((entry) => entry.court_id === slot.court_id)
  if (window?.earliest_start == null || window.latest_start == null) return false
  const start = Date.parse(slot.start_time)
  return start >= Date.parse(window.earliest_start) && start <= Date.parse(window.latest_start)
}

export function isSelected(selection: readonly Slot[], slot: Slot): boolean {
  return selection.some((chosen) => chosen.court_id === slot.court_id && chosen.start_time === slot.start_time)
}

/** The most times of the court one booking may cover. */
export function maxSlots(listing: Availability | null, courtId: string): number {
  return listing?.booking_windows.find((entry) => entry.court_id === courtId)?.max_slots_per_booking ?? 1
}

/**
 * The chosen times after a click on a free time: it starts a selection, or extends it when it is the
 * next or previous time of the same court and the court's maximum (`max`) is not reached (then it
 * starts a new selection). Null: it would extend a selection that already has the maximum.
 */
export function selectionAfter(selection: readonly Slot[], slot: Slot, max: number): readonly Slot[] | null {
  const first = selection[0]
  const last = selection.at(-1)
  const room = selection.length < max
  const selected = isSelected(selection, slot)
  const adjacent = first !== undefined && last !== undefined && slot.court_id === first.court_id
    && (Date.parse(slot.start_time) === Date.parse(last.end_time) || Date.parse(slot.end_time) === Date.parse(first.start_time))
  if (adjacent && !room && !selected) return null
  if (selected) {
    // An end of the selection gives it up; a time inside it starts a new selection there.
    if (slot.start_time === last?.start_time) return selection.slice(0, -1)
    if (slot.start_time === first?.start_time) return selection.slice(1)
    return [slot]
  }
  if (room && first !== undefined && last !== undefined && slot.court_id === first.court_id
    && Date.parse(slot.start_time) === Date.parse(last.end_time)) {
    return [...selection, slot]
  }
  if (room && first !== undefined && slot.court_id === first.court_id
    && Date.parse(slot.end_time) === Date.parse(first.start_time)) {
    return [slot, ...selection]
  }
  return [slot]
}

/** A cell of the grid: the slot that covers a row of a court's column, and the rows it covers from its first. */
export interface GridCell {
  readonly slot: Slot
  /** Its first row, and how many rows it spans (a 60-minute court among 30-minute rows spans two). */
  readonly row: number
  readonly span: number
}

/** The day as rows of times (every start of any court's slot) and, per court's column, the cell covering each row. */
export interface GridLayout {
  readonly starts: readonly string[]
  /** `cells[column][row]`; undefined where the court has no slot at that time (closed). */
  readonly cells: readonly (readonly (GridCell | undefined)[])[]
}

export function gridLayout(grid: readonly Column[]): GridLayout {
  const byTime = new Map<number, string>()
  for (const column of grid) for (const slot of column.slots) byTime.set(Date.parse(slot.start_time), slot.start_time)
  const times = [...byTime.keys()].sort((a, b) => a - b)
  const cells = grid.map((column) => {
    const rows: (GridCell | undefined)[] = times.map(() => undefined)
    for (const slot of column.slots) {
      const start = Date.parse(slot.start_time)
      const end = Date.parse(slot.end_time)
      const row = times.indexOf(start)
      const span = times.filter((time) => time >= start && time < end).length
      const cell = { slot, row, span }
      for (let covered = row; covered < row + span; covered += 1) rows[covered] = cell
    }
    return rows
  })
  return { starts: times.map((time) => byTime.get(time) ?? ''), cells }
}

/** A position in the grid: a column and the first row of the cell there. */
export interface GridPosition {
  readonly column: number
  readonly row: number
}

/** Where a time of the day (as the listing has it, by court and start) is in the grid, when it is there. */
export function cellOf(grid: readonly Column[], slot: Slot): { slot: Slot, position: GridPosition } | undefined {
  const column = grid.findIndex((entry) => entry.id === slot.court_id)
  const cell = gridLayout(grid).cells[column]?.find((entry) => entry?.slot.start_time === slot.start_time)
  return cell === undefined ? undefined : { slot: cell.slot, position: { column, row: cell.row } }
}

/** Rows that Page Up and Page Down move by. */
export const PAGE_ROWS = 5

/**
 * Where a key moves the focus in the grid (the ARIA grid pattern): arrows to the neighbouring cell
 * (over closed times), Home and End to the row's first and last cell, with Ctrl to the grid's, Page
 * Up and Down by five rows. Undefined: the key is not the grid's.
 */
export function moveInGrid(layout: GridLayout, from: GridPosition, key: string, ctrl: boolean): GridPosition | undefined {
  const { cells } = layout
  const rows = layout.starts.length
  const at = (column: number, row: number): GridPosition | undefined => {
    const cell = cells[column]?.[row]
    return cell === undefined ? undefined : { column, row: cell.row }
  }
  const span = cells[from.column]?.[from.row]?.span ?? 1
  const scanRows = (column: number, start: number, step: number) => {
    for (let row = start; row >= 0 && row < rows; row += step) {
      const found = at(column, row)
      if (found !== undefined) return found
    }
    return undefined
  }
  const scanColumns = (row: number, start: number, step: number) => {
    for (let column = start; column >= 0 && column < cells.length; column += step) {
      const found = at(column, row)
      if (found !== undefined) return found
    }
    return undefined
  }
  switch (key) {
    case 'ArrowDown': return scanRows(from.column, from.row + span, 1) ?? from
    case 'ArrowUp': return scanRows(from.column, from.row - 1, -1) ?? from
    case 'ArrowRight': return scanColumns(from.row, from.column + 1, 1) ?? from
    case 'ArrowLeft': return scanColumns(from.row, from.column - 1, -1) ?? from
    // With Ctrl, the first row's first time or the last row's last.
    case 'Home': return scanColumns(ctrl ? 0 : from.row, 0, 1) ?? from
    case 'End': return scanColumns(ctrl ? rows - 1 : from.row, cells.length - 1, -1) ?? from
    case 'PageDown': return scanRows(from.column, Math.min(rows - 1, from.row + PAGE_ROWS), -1) ?? from
    case 'PageUp': return scanRows(from.column, Math.max(0, from.row - PAGE_ROWS), 1) ?? from
    default: return undefined
  }
}

/** The cell the grid's one Tab stop is on: the cursor (where the arrows left it), else the first free time, else the first. */
export function tabStop(layout: GridLayout, cursor: GridPosition | null, free: (slot: Slot) => boolean):
GridPosition | undefined {
  if (cursor !== null && layout.cells[cursor.column]?.[cursor.row]?.row === cursor.row) return cursor
  let first: GridPosition | undefined
  for (let row = 0; row < layout.starts.length; row += 1) {
    for (let column = 0; column < layout.cells.length; column += 1) {
      const cell = layout.cells[column]?.[row]
      if (cell?.row !== row) continue
      first ??= { column, row }
      if (free(cell.slot)) return { column, row }
    }
  }
  return first
}

/**
 * The start before which every time of the day has begun: the first start any of the courts can be
 * booked at now, when the day has times before it (today); undefined when none has (a later day, or
 * nothing bookable at all). Those times are folded away behind a "show earlier" button.
 */
export function pastBefore(listing: Availability | null, grid: readonly Column[]): number | undefined {
  const starts = (listing?.booking_windows ?? []).filter((window) => grid.some((column) => column.id === window.court_id))
    .map((window) => window.earliest_start).filter((start) => start != null).map((start) => Date.parse(start))
  if (starts.length === 0) return undefined
  const first = Math.min(...starts)
  return grid.some((column) => column.slots.some((slot) => Date.parse(slot.start_time) < first)) ? first : undefined
}

/** The columns with their times from `from` on (every time when undefined). */
export function columnsFrom(grid: readonly Column[], from: number | undefined): Column[] {
  return from === undefined
    ? [...grid]
    : grid.map((column) => ({ ...column,
        slots: column.slots.filter((slot) => Date.parse(slot.start_time) >= from) }))
}
