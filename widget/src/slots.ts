/** The day's grid: the courts' columns, which times can be booked now, and how a click changes the chosen times. */
import type { components } from '../../clients/typescript/src/schema'

export type Availability = components['schemas']['CourtAvailability']
export type Slot = components['schemas']['CourtBookingSlot']

/** A court's column: its slots of the day and which of them can be booked now. */
export interface Column {
  readonly id: string
  readonly name: string
  readonly slots: readonly Slot[]
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

/** Free, and its start inside the court's booking window (not started, not beyond the horizon). */
export function bookable(listing: Availability | null, slot: Slot): boolean {
  if (slot.status !== 'available') return false
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
