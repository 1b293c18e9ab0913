/**
 * Club-local wall time ↔ instants, with the IANA database the runtime carries (Intl). Local times
 * that do not exist (spring forward) move forward by the gap; local times that exist twice (fall
 * back) mean the earlier instant — the "compatible" rule of RFC 9557 and Temporal.
 */

const MINUTE = 60_000
const DAY = 86_400_000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, format)
  }
  return format
}

/** The zone's offset from UTC at an instant, in minutes (+60 for Europe/Berlin in winter). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const parts = formatter(timeZone).formatToParts(new Date(instant))
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'))
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MINUTE)
}

/** `YYYY-MM-DD` as the UTC midnight of that calendar date (a day number, not an instant). */
export function parseLocalDate(date: string): number {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number)
  return Date.UTC(year, month - 1, day)
}

export function formatLocalDate(dayStart: number): string {
  return new Date(dayStart).toISOString().slice(0, 10)
}

/** ISO weekday of a local date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(parseLocalDate(date)).getUTCDay()
  return day === 0 ? 7 : day
}

export function addDays(date: string, days: number): string {
  return formatLocalDate(parseLocalDate(date) + days * DAY)
}

/** The instant at which the wall clock of `timeZone` shows `minutes` after midnight of `date` (1440 = next midnight). */
export function localToInstant(date: string, minutes: number, timeZone: string): number {
  const wall = parseLocalDate(date) + minutes * MINUTE
  const before = offsetMinutes(wall - DAY, timeZone)
  const after = offsetMinutes(wall + DAY, timeZone)
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE)
    .filter((instant) => instant + offsetMinutes(instant, timeZone) * MINUTE === wall)
  if (candidates.length > 0) return Math.min(...candidates)
  return wall - before * MINUTE
}

/** The local calendar date of an instant. */
export function localDateOf(instant: number, timeZone: string): string {
  return formatLocalDate(Math.floor((instant + offsetMinutes(instant, timeZone) * MINUTE) / DAY) * DAY)
}

/** RFC 3339 with the zone's offset at that instant: `2026-11-21T08:00:00+01:00`. */
export function formatInZone(instant: number, timeZone: string): string {
  const offset = offsetMinutes(instant, timeZone)
  const local = new Date(instant + offset * MINUTE).toISOString().slice(0, 19)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** "HH:MM" (00:00–24:00) as minutes after midnight, or undefined. */
export function parseClockTime(value: string): number | undefined {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value)
  if (match === null) return undefined
  const minutes = Number(match[1]) * 60 + Number(match[2])
  return minutes > 1440 ? undefined : minutes
}
