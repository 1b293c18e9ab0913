/**
 * Reads CLUB_PLATFORM_TEST_TODAY (test/helpers/today.ts): pure, so that the global setup, which
 * resolves it once for the run, can load it without the test runner's per-file state.
 */
import { addDays, isoWeekday, localDateOf, localToInstant, offsetAt } from '../../src/domain/zoned-time.js'

/** The zone the suites' clubs are in, and in which "today" is chosen. */
export const TEST_ZONE = 'Europe/Berlin'
const DAY = 86_400_000
const MINUTE = 60_000
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]
const WEEKDAY_NAMES: Record<string, Weekday> = { monday: 'mon', tuesday: 'tue', wednesday: 'wed', thursday: 'thu', friday: 'fri',
  saturday: 'sat', sunday: 'sun' }

/**
 * How far the run's "today" is from the real one (to the same time of day at the club), for the
 * value of CLUB_PLATFORM_TEST_TODAY at the instant `realNow`. Throws on a value it cannot read.
 */
export function resolveTestToday(value: string | undefined, realNow: number, zone = TEST_ZONE): number {
  const spec = value?.trim().toLowerCase() ?? ''
  if (spec === '') return 0
  const today = localDateOf(realNow, zone)
  const days = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY)
  let target: string
  const weekday = WEEKDAY_NAMES[spec] ?? WEEKDAYS.find((day) => day === spec)
  if (/^\d{4}-\d{2}-\d{2}$/.test(spec) && !Number.isNaN(Date.parse(`${spec}T00:00:00Z`))) target = spec
  else if (weekday !== undefined) target = addDays(today, (WEEKDAYS.indexOf(weekday) + 1 - isoWeekday(today) + 7) % 7)
  // Two days before the next change that is at least two days ahead (today, if that is two days before one).
  else if (spec === 'dst') target = addDays(nextDaylightSavingChange(addDays(today, 2), zone), -2)
  else throw new Error(`CLUB_PLATFORM_TEST_TODAY=${JSON.stringify(value)}: expected YYYY-MM-DD, a weekday (friday, sunday…) or dst`)
  if (days(target) === 0) return 0
  // The same wall-clock minute on that day (whole days of 24 hours would miss it across a change of daylight-saving time).
  const minutes = Math.floor(((realNow + offsetAt(realNow, zone)) % DAY) / MINUTE)
  return localToInstant(target, minutes, zone) - (realNow - (realNow % MINUTE))
}

/** The first day from `from` on whose start and end have different offsets at `zone` (within two years). */
export function nextDaylightSavingChange(from: string, zone = TEST_ZONE): string {
  for (let day = from, i = 0; i < 800; day = addDays(day, 1), i++) {
    if (offsetAt(localToInstant(day, 0, zone), zone) !== offsetAt(localToInstant(addDays(day, 1), 0, zone), zone)) return day
  }
  throw new Error(`no change of daylight-saving time at ${zone} within two years of ${from}`)
}
