/**
 * The planner's table: one row per step of time (the greatest common divisor of the shown courts'
 * slot lengths), one column per court. A booking fills the rows of its length; a free, reserved or
 * blocked slot those of the court's slot; a court's closed times are empty cells; rows a cell
 * above already spans are `covered` (the table leaves them out).
 */
import type { Schemas } from '../../api/client'

type Court = Schemas['PlannerDay']['courts'][number]
type Booking = Court['bookings'][number]
type Slot = Court['slots'][number]

/** `waiting`: how many addresses wait for the slot (for a booking, the most over the slots it covers). */
type Content
  = | { readonly kind: 'booking', readonly court: Court, readonly booking: Booking, readonly waiting: number }
    | {
      readonly kind: 'slot'
      readonly court: Court
      readonly status: Slot['status']
      readonly start_time: string
      readonly waiting: number
    }

/** What a cell shows, and how many rows it spans. */
export type PlannerCell = Content & { readonly rows: number }

export interface PlannerRow {
  /** HH:MM, at the club. */
  readonly time: string
  readonly cells: readonly (PlannerCell | null | 'covered')[]
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
const MINUTE = 60_000

interface Placed { readonly start: number, readonly end: number, readonly cell: Content, readonly label: string }

export function plannerRows(courts: readonly Court[]): PlannerRow[] {
  const step = courts.reduce((divisor, court) => gcd(divisor, court.slot_minutes), 0) || 30
  const placed = courts.map((court) => {
    const bookings = court.bookings.map((booking): Placed => {
      const [start, end] = [Date.parse(booking.start_time), Date.parse(booking.end_time)]
      const waiting = Math.max(0, ...court.slots.filter((slot) => Date.parse(slot.start_time) < end
        && start < Date.parse(slot.end_time)).map((slot) => slot.waiting))
      return { start, end, cell: { kind: 'booking', court, booking, waiting }, label: booking.start_time.slice(11, 16) }
    })
    const slots = court.slots
      .map((slot): Placed => ({ start: Date.parse(slot.start_time), end: Date.parse(slot.end_time),
        cell: { kind: 'slot', court, status: slot.status, start_time: slot.start_time, waiting: slot.waiting },
        label: slot.start_time.slice(11, 16) }))
      .filter((slot) => !bookings.some((booking) => booking.start < slot.end && slot.start < booking.end))
    return [...bookings, ...slots].sort((a, b) => a.start - b.start)
  })
  const all = placed.flat()
  if (all.length === 0) return []
  const first = Math.min(...all.map((item) => item.start))
  const last = Math.max(...all.map((item) => item.end))
  const labels = new Map(all.map((item) => [item.start, item.label]))
  const firstLabel = labels.get(first) ?? '00:00'
  const firstMinute = Number(firstLabel.slice(0, 2)) * 60 + Number(firstLabel.slice(3, 5))
  const coveredUntil = courts.map(() => first)
  const rows: PlannerRow[] = []
  for (let at = first; at < last; at += step * MINUTE) {
    const minute = (firstMinute + (at - first) / MINUTE) % 1440
    const time = labels.get(at) ?? `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
    rows.push({ time, cells: placed.map((items, column) => {
      if (at < (coveredUntil[column] ?? first)) return 'covered'
      const item = items.find((entry) => entry.start === at)
      if (item === undefined) return null
      // A cell spans whole rows: a booking that ends off the step (another grid's) ends with its last row.
      const span = Math.max(1, Math.ceil((Math.min(item.end, last) - at) / (step * MINUTE)))
      coveredUntil[column] = at + span * step * MINUTE
      return { ...item.cell, rows: span }
    }) })
  }
  return rows
}
