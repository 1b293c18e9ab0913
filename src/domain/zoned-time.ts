/**
 * Club-local wall time ↔ instants, with the IANA database the runtime carries (Intl). Local times
 * that do not exist (spring forward) move forward by the gap; local times that exist twice (fall
 * back) mean the earlier instant — the "compatible" rule of RFC 9557 and Temporal.
 */

const SECOND = 1_000
const MINUTE = 60_000
const DAY = 86_400_000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone)
  if (format === undefined) {
    // The offset as "GMT+01:00" (or "GMT-00:44:30" where history had seconds), exact for any year.
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    formatters.set(timeZone, format)
  }
  return format
}

/** Formatters of dates and times in words, by locale and options: building one costs some 50 µs, using one 2 µs. */
const wordFormatters = new Map<string, Intl.DateTimeFormat>()
const MAX_WORD_FORMATTERS = 1_000
/** Zones named in words, by locale, zone and year. */
const zoneNames = new Map<string, string>()

/** The `Intl.DateTimeFormat` of a locale and options (a time zone among them), built once. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`
  let format = wordFormatters.get(key)
  if (format === undefined) {
    if (wordFormatters.size >= MAX_WORD_FORMATTERS) wordFormatters.clear()
    format = new Intl.DateTimeFormat(locale, options)
    wordFormatters.set(key, format)
  }
  return format
}

/** Offsets are remembered per zone and quarter hour (bounded: past this many the map starts again). */
const QUARTER = 15 * MINUTE
const MAX_REMEMBERED_OFFSETS = 100_000
const offsets = new Map<string, Map<number, number>>()

/**
 * The zone's offset from UTC at an instant, in milliseconds (+3_600_000 for Europe/Berlin in winter); whole seconds.
 * A quarter hour whose first and last millisecond have the same offset has it throughout (no zone
 * changes its offset twice within 15 minutes): its offset is remembered, and every slot of a
 * court grid or a booking after the first is arithmetic.
 */
export function offsetAt(instant: number, timeZone: string): number {
  const quarter = Math.floor(instant / QUARTER)
  let zone = offsets.get(timeZone)
  const known = zone?.get(quarter)
  if (known !== undefined) return known
  const start = exactOffsetAt(quarter * QUARTER, timeZone)
  const end = exactOffsetAt((quarter + 1) * QUARTER - 1, timeZone)
  if (start !== end) return exactOffsetAt(instant, timeZone)
  if (zone === undefined || zone.size >= MAX_REMEMBERED_OFFSETS) {
    zone = new Map()
    offsets.set(timeZone, zone)
  }
  zone.set(quarter, start)
  return start
}

function exactOffsetAt(instant: number, timeZone: string): number {
  const name = formatter(timeZone).formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? ''
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name)
  if (match === null) throw new Error(`unexpected offset "${name}" of ${timeZone}`)
  if (match[1] === undefined) return 0
  const size = Number(match[2]) * 60 * MINUTE + Number(match[3]) * MINUTE + Number(match[4] ?? 0) * SECOND
  return match[1] === '-' ? -size : size
}

/**
 * `YYYY-MM-DD` as the UTC midnight of that calendar date (a day number, not an instant). Any year
 * 0000–9999 of the proleptic Gregorian calendar: `Date.UTC` would read the years 0–99 as 1900–1999.
 */
export function parseLocalDate(date: string): number {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number)
  const midnight = new Date(0)
  midnight.setUTCFullYear(year, month - 1, day)
  return midnight.getTime()
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

/** The Monday of a local date's week. */
export function mondayOf(date: string): string {
  return addDays(date, 1 - isoWeekday(date))
}

/** The instant at which the wall clock of `timeZone` shows `minutes` after midnight of `date` (1440 = next midnight). */
export function localToInstant(date: string, minutes: number, timeZone: string): number {
  const wall = parseLocalDate(date) + minutes * MINUTE
  const before = offsetAt(wall - DAY, timeZone)
  const after = offsetAt(wall + DAY, timeZone)
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetAt(instant, timeZone) === wall)
  if (candidates.length > 0) return Math.min(...candidates)
  return wall - before
}

/** The local calendar date of an instant. */
export function localDateOf(instant: number, timeZone: string): string {
  return formatLocalDate(Math.floor((instant + offsetAt(instant, timeZone)) / DAY) * DAY)
}

/**
 * RFC 3339 with the zone's offset at that instant: `2026-11-21T08:00:00+01:00`. RFC 3339 offsets
 * are whole minutes, as every zone's are from 1972 on; an older offset with seconds (Africa/Monrovia,
 * −00:44:30) is shown rounded to the minute with the local time moved to match, so the text still
 * names the exact instant.
 */
export function formatInZone(instant: number, timeZone: string): string {
  const offset = Math.round(offsetAt(instant, timeZone) / MINUTE)
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

/**
 * A time zone named in words in a language, as a guest reads it beside a time: "Central European
 * Time", "heure d’Europe centrale" (Intl's long generic name, the same in summer and winter).
 */
export function zoneName(locale: string, timeZone: string, instant: number): string {
  // The same all year (it is the generic name): remembered per year, as a zone's rules change at most so often.
  const key = `${locale} ${timeZone} ${String(new Date(instant).getUTCFullYear())}`
  let name = zoneNames.get(key)
  if (name === undefined) {
    if (zoneNames.size >= MAX_WORD_FORMATTERS) zoneNames.clear()
    name = dateTimeFormat(locale, { timeZone, timeZoneName: 'longGeneric' }).formatToParts(instant)
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
    zoneNames.set(key, name)
  }
  return name
}
