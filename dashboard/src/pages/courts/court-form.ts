/** A court's form: its opening hours as a row per weekday, and back; and the hours in a line of the courts' table. */
import type { Schemas } from '../../api/client'
import { t } from '../../i18n.svelte'
import type { MessageKey } from '../../i18n.svelte'
import { WEEKDAYS } from '../../lib/zoned'
import type { Weekday } from '../../lib/zoned'

type Court = Schemas['AdminCourt']

/** One weekday's row of the hours editor. */
export interface DayRow { open: boolean, from: string, to: string }

export function emptyWeek(): Record<Weekday, DayRow> {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, { open: true, from: '08:00', to: '22:00' }])) as Record<Weekday, DayRow>
}

/** The rows of a court's hours (a new court's: every day 08:00–22:00). */
export function daysOf(court: Court | null): Record<Weekday, DayRow> {
  const week = emptyWeek()
  if (court !== null) {
    for (const day of WEEKDAYS) {
      const hours = court.opening_hours[day]
      // A time field cannot show 24:00: midnight is 00:00 there, and 24:00 again when saved.
      week[day] = hours === null
        ? { open: false, from: '08:00', to: '22:00' }
        : { open: true, from: hours.open, to: hours.close === '24:00' ? '00:00' : hours.close }
    }
  }
  return week
}

/** The opening hours the rows say. */
export function openingHours(days: Record<Weekday, DayRow>): Court['opening_hours'] {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, days[day].open
    ? { open: days[day].from, close: days[day].to === '00:00' ? '24:00' : days[day].to }
    : null])) as Court['opening_hours']
}

export function hoursSummary(court: Court): string {
  const open = WEEKDAYS.filter((day) => court.opening_hours[day] !== null)
  if (open.length === 0) return t('courts.closedAllWeek')
  const first = court.opening_hours[open[0] ?? 'mon']
  const same = open.every((day) => JSON.stringify(court.opening_hours[day]) === JSON.stringify(first))
  return same && first !== null
    ? `${open.length === 7 ? t('courts.daily') : open.map((day) => t(`day.${day}` as MessageKey)).join(', ')} ${first.open}–${first.close}`
    : t('courts.variesByDay')
}
