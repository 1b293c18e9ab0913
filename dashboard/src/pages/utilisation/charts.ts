/**
 * The utilisation page's charts, drawn by Chart.js (and its matrix controller for the heat map),
 * registered piece by piece so that only what the two charts use is bundled. This module is loaded
 * when the page is first shown, never with the dashboard's first load (its budget).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js'
import type { ScriptableContext } from 'chart.js'
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix'
import type { Schemas } from '../../api/client'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, MatrixController, MatrixElement)

type Cell = Schemas['Utilisation']['heat_map'][number]
type Week = Schemas['Utilisation']['weeks'][number]

const INK = '#1b1f24'
const hour = (value: number) => `${String(value).padStart(2, '0')}:00`

/** The booked share of each weekday's hours: the darker the cell, the more was booked. */
export function heatChart(canvas: HTMLCanvasElement, cells: readonly Cell[], weekdays: readonly string[], shareLabel: string):
Chart {
  const hours = [...new Set(cells.map((cell) => cell.hour))].sort((a, b) => a - b)
  const data = cells.map((cell) => ({ x: hour(cell.hour), y: weekdays[cell.weekday - 1] ?? '', v: cell.share }))
  return new Chart(canvas, {
    type: 'matrix',
    data: { datasets: [{
      label: shareLabel,
      data,
      backgroundColor: (context: ScriptableContext<'matrix'>) => {
        const value = (context.raw as { v?: number } | undefined)?.v ?? 0
        return `rgba(11, 92, 173, ${String(0.08 + 0.92 * value)})`
      },
      borderColor: '#ffffff',
      borderWidth: 1,
      // The chart's area is known once it is laid out; before that, the cells have no size.
      width: ({ chart }) => ((chart.chartArea as { width: number } | undefined)?.width ?? 0) / Math.max(1, hours.length) - 1,
      height: ({ chart }) => ((chart.chartArea as { height: number } | undefined)?.height ?? 0) / 7 - 1,
    }] },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false }, tooltip: { callbacks: {
        title: (items) => items.map((item) => `${(item.raw as { y: string }).y} ${(item.raw as { x: string }).x}`),
        label: (item) => `${shareLabel}: ${String(Math.round(((item.raw as { v: number }).v) * 100))} %`,
      } } },
      scales: {
        x: { type: 'category', labels: hours.map(hour), offset: true, grid: { display: false }, ticks: { color: INK } },
        // Monday at the top: a category axis runs upwards from its first label.
        y: { type: 'category', labels: [...weekdays].reverse(), offset: true, grid: { display: false }, ticks: { color: INK } },
      },
    },
  })
}

/** The series' names, and a week's label from its Monday. */
export interface WeekLabels {
  readonly kept: string
  readonly guest: string
  readonly club: string
  readonly hold: string
  readonly week: (start: string) => string
}

/** Bookings per week, stacked: kept, and cancelled by the guest, the club or a hold. */
export function weeksChart(canvas: HTMLCanvasElement, weeks: readonly Week[], labels: WeekLabels): Chart {
  const series = [
    { label: labels.kept, color: '#0b5cad', value: (week: Week) => week.bookings - week.cancelled_by_guest - week.cancelled_by_club
      - week.cancelled_by_hold },
    { label: labels.guest, color: '#c77700', value: (week: Week) => week.cancelled_by_guest },
    { label: labels.club, color: '#8a1c1c', value: (week: Week) => week.cancelled_by_club },
    { label: labels.hold, color: '#6b6f76', value: (week: Week) => week.cancelled_by_hold },
  ]
  return new Chart(canvas, {
    type: 'bar',
    data: { labels: weeks.map((week) => labels.week(week.week_start)),
      datasets: series.map((entry) => ({ label: entry.label, data: weeks.map(entry.value), backgroundColor: entry.color })) },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: 'bottom', labels: { color: INK } } },
      scales: { x: { stacked: true, ticks: { color: INK } },
        y: { stacked: true, beginAtZero: true, ticks: { color: INK, precision: 0 } } },
    },
  })
}
