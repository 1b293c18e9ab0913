/**
 * The booking widget's grid as the keyboard meets it (widget/src/slots.ts): rows at every start of
 * any court's slot, a longer slot spanning the rows it covers (a 60-minute court beside a 30-minute
 * one fills both of its rows, so 08:30 is not shown as a gap), and the ARIA grid pattern's moves:
 * arrows to the neighbouring cell over closed times, Home and End along a row (with Ctrl, the
 * grid's ends), Page Up and Down by five rows.
 */
import { describe, expect, it } from 'vitest'
import { gridLayout, moveInGrid } from '../../widget/src/slots.js'
import type { Column, GridLayout, Slot } from '../../widget/src/slots.js'

const at = (time: string) => `2026-06-16T${time}:00+02:00`
function column(id: string, minutes: number, from: string, to: string): Column {
  const slots: Slot[] = []
  for (let start = Date.parse(at(from)); start < Date.parse(at(to)); start += minutes * 60_000) {
    slots.push({ court_id: id, court_name: id, start_time: new Date(start).toISOString(),
      end_time: new Date(start + minutes * 60_000).toISOString(), status: 'available' })
  }
  return { id, name: id, slots }
}

describe('the widget\'s grid', () => {
  // Court A: 60 minutes, 08–12; court B: 30 minutes, 08–12; court C: 60 minutes, 10–12 only.
  const layout: GridLayout = gridLayout([column('A', 60, '08:00', '12:00'), column('B', 30, '08:00', '12:00'),
    column('C', 60, '10:00', '12:00')])
  const rowOf = (time: string) => layout.starts.findIndex((start) => Date.parse(start) === Date.parse(at(time)))

  it('has a row for every start, and a longer slot spans the rows it covers', () => {
    expect(layout.starts.map((start) => new Date(start).toISOString().slice(11, 16)))
      .toEqual(['06:00', '06:30', '07:00', '07:30', '08:00', '08:30', '09:00', '09:30'])
    expect(layout.cells[0]?.map((cell) => cell?.row)).toEqual([0, 0, 2, 2, 4, 4, 6, 6])
    expect(layout.cells[0]?.[1]?.span).toBe(2)
    expect(layout.cells[1]?.map((cell) => cell?.span)).toEqual([1, 1, 1, 1, 1, 1, 1, 1])
    expect(layout.cells[2]?.map((cell) => cell?.row)).toEqual([undefined, undefined, undefined, undefined, 4, 4, 6, 6])
  })

  it('moves as the ARIA grid pattern says', () => {
    const move = (column: number, time: string, key: string, ctrl = false) =>
      moveInGrid(layout, { column, row: rowOf(time) }, key, ctrl)
    // Down from a 60-minute slot goes to the next slot, not into its own second row.
    expect(move(0, '08:00', 'ArrowDown')).toEqual({ column: 0, row: rowOf('09:00') })
    expect(move(1, '08:00', 'ArrowDown')).toEqual({ column: 1, row: rowOf('08:30') })
    // From the 30-minute court's 08:30 leftwards: the 60-minute slot that covers it, at its start.
    expect(move(1, '08:30', 'ArrowLeft')).toEqual({ column: 0, row: rowOf('08:00') })
    // Right over a court closed at that time: nothing further, so it stays.
    expect(move(1, '08:00', 'ArrowRight')).toEqual({ column: 1, row: rowOf('08:00') })
    expect(move(1, '10:00', 'ArrowRight')).toEqual({ column: 2, row: rowOf('10:00') })
    expect(move(0, '08:00', 'ArrowUp')).toEqual({ column: 0, row: rowOf('08:00') })
    expect(move(2, '10:00', 'Home')).toEqual({ column: 0, row: rowOf('10:00') })
    expect(move(0, '10:00', 'End')).toEqual({ column: 2, row: rowOf('10:00') })
    expect(move(2, '11:00', 'Home', true)).toEqual({ column: 0, row: rowOf('08:00') })
    expect(move(0, '08:00', 'End', true)).toEqual({ column: 2, row: rowOf('11:00') })
    expect(move(1, '08:00', 'PageDown')).toEqual({ column: 1, row: rowOf('10:30') })
    expect(move(1, '11:30', 'PageUp')).toEqual({ column: 1, row: rowOf('09:00') })
    expect(move(1, '11:00', 'PageDown')).toEqual({ column: 1, row: rowOf('11:30') })
    expect(move(0, '08:00', 'a')).toBeUndefined()
  })
})
