/** The suites' settable "today" (test/helpers/today.ts): each value names the day it promises, from any real day. */
import { describe, expect, it } from 'vitest'
import { addDays, isoWeekday, localDateOf, localToInstant } from '../../src/domain/zoned-time.js'
import { TEST_ZONE, nextDaylightSavingChange, resolveTestToday } from './today-setting.js'

const DAY = 86_400_000
/** Every day of two years, at 09:30 and 23:30 club time (the latter is another UTC date in summer). */
const instants = Array.from({ length: 731 }, (_, i) => addDays('2026-01-01', i))
  .flatMap((date) => [localToInstant(date, 9 * 60 + 30, TEST_ZONE), localToInstant(date, 23 * 60 + 30, TEST_ZONE)])
const dayOf = (instant: number, value: string) => localDateOf(instant + resolveTestToday(value, instant), TEST_ZONE)

describe('the suites\' settable today', () => {
  it('is the real day when unset or empty', () => {
    for (const instant of instants.slice(0, 20)) {
      expect(resolveTestToday(undefined, instant)).toBe(0)
      expect(resolveTestToday(' ', instant)).toBe(0)
    }
  })

  it('moves to a date, keeping the time of day at the club, across changes of daylight-saving time too', () => {
    const now = Date.parse('2026-11-27T14:05:30Z')
    expect(resolveTestToday('2026-12-06', now)).toBe(9 * DAY)
    expect(resolveTestToday('2026-11-20', now)).toBe(-7 * DAY)
    expect(resolveTestToday('2026-11-27', now)).toBe(0)
    // Summer time: the same 15:05 at the club is an hour earlier in UTC.
    expect(new Date(now + resolveTestToday('2027-03-29', now)).toISOString()).toBe('2027-03-29T13:05:30.000Z')
    for (const instant of instants) {
      const wall = (at: number) => new Intl.DateTimeFormat('en-GB', { timeZone: TEST_ZONE, hour: '2-digit', minute: '2-digit' })
        .format(new Date(at))
      for (const date of ['2027-03-27', '2027-03-29', '2027-10-30', '2027-11-01']) {
        expect(dayOf(instant, date)).toBe(date)
        expect(wall(instant + resolveTestToday(date, instant))).toBe(wall(instant))
      }
    }
  })

  it('moves to the next such weekday, or stays on one', () => {
    for (const instant of instants) {
      const today = localDateOf(instant, TEST_ZONE)
      for (const [value, weekday] of [['friday', 5], ['sunday', 7], ['mon', 1]] as const) {
        const day = dayOf(instant, value)
        expect(isoWeekday(day), `${value} from ${today}`).toBe(weekday)
        expect(day >= today && day < addDays(today, 7), `${value} from ${today}`).toBe(true)
      }
    }
  })

  it('dst: two days before the next change of daylight-saving time, a Friday in Europe', () => {
    for (const instant of instants) {
      const today = localDateOf(instant, TEST_ZONE)
      const day = dayOf(instant, 'dst')
      expect(day >= today, today).toBe(true)
      expect(isoWeekday(day), today).toBe(5)
      const change = addDays(day, 2)
      expect(change).toBe(nextDaylightSavingChange(addDays(today, 2)))
      // The day after tomorrow has 23 or 25 hours.
      const hours = (localToInstant(change, 24 * 60, TEST_ZONE) - localToInstant(change, 0, TEST_ZONE)) / 3_600_000
      expect([23, 25], `${today} → ${change}`).toContain(hours)
    }
    expect(dayOf(Date.parse('2026-11-27T10:00:00Z'), 'dst')).toBe('2027-03-26')
    expect(dayOf(Date.parse('2027-03-26T10:00:00Z'), 'dst')).toBe('2027-03-26')
    expect(dayOf(Date.parse('2027-03-27T10:00:00Z'), 'dst')).toBe('2027-10-29')
  })

  it('refuses what it cannot read', () => {
    for (const value of ['tomorrow', '2026-13-45', '2026-02-30x', '27.11.2026', 'frday']) {
      expect(() => resolveTestToday(value, Date.now())).toThrow(/CLUB_PLATFORM_TEST_TODAY/)
    }
  })
})
