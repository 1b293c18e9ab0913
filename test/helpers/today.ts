/**
 * "Today" for every suite that runs on a real clock (server processes, the command line, browsers,
 * workers): the machine's clock, moved to the day CLUB_PLATFORM_TEST_TODAY names, and the server's
 * clock in those suites set from it (CLOCK_OFFSET_SECONDS). Suites on a harness use its ManualClock
 * instead and pass on any date by construction.
 *
 * CLUB_PLATFORM_TEST_TODAY (unset: the real day) is one of
 * - `YYYY-MM-DD`: that day, at the real time of day;
 * - `friday`, `sunday` (any weekday): the next such day at the club zone, or today if it is one;
 * - `dst`: two days before the next change of daylight-saving time at the club zone, so that
 *   "the day after tomorrow" is the day with 23 or 25 hours (a Friday in Europe).
 * The global setup resolves it once for the run (`testClockOffsetMs`), so every file and process
 * shares one "today". `.ci/run` runs the suites that import this module once more on a Sunday and
 * once more before a change of daylight-saving time.
 */
import type { BrowserContext } from 'playwright-core'
import { inject } from 'vitest'
import type { Clock } from '../../src/clock.js'
import { addDays, isoWeekday, localDateOf } from '../../src/domain/zoned-time.js'
import { TEST_ZONE, WEEKDAYS } from './today-setting.js'
import type { Weekday } from './today-setting.js'

export { TEST_ZONE, WEEKDAYS } from './today-setting.js'
export type { Weekday } from './today-setting.js'

/** The run's offset from the real clock, as the global setup resolved it. */
export function testClockOffsetMs(): number {
  return inject('testClockOffsetMs')
}

/** "Now" for the suites on a real clock. */
export function testNow(): number {
  return Date.now() + testClockOffsetMs()
}

/** The same, as a Clock for contexts a suite builds itself. */
export const testClock: Clock = { now: testNow }

/** The settings that put a server process or the command line on the run's clock. */
export function testClockEnv(): Record<string, string> {
  return { CLOCK_OFFSET_SECONDS: String(Math.round(testClockOffsetMs() / 1000)) }
}

/** Today at `zone`, or `days` after it. */
export function testToday(days = 0, zone = TEST_ZONE): string {
  return addDays(localDateOf(testNow(), zone), days)
}

/**
 * The first `weekday` at least `atLeast` days after today at `zone`: a day whose weekday the test
 * controls (a court closed on Sundays, a weekly reservation), whatever day the run is on.
 */
export function upcoming(weekday: Weekday, atLeast: number, zone = TEST_ZONE): string {
  const first = testToday(atLeast, zone)
  return addDays(first, (WEEKDAYS.indexOf(weekday) + 1 - isoWeekday(first) + 7) % 7)
}

/** The browser's clock on the run's "today" too (it runs on from there); nothing to do on the real day. */
export async function useTestClock(context: BrowserContext): Promise<void> {
  if (testClockOffsetMs() !== 0) await context.clock.install({ time: testNow() })
}

/** Screenshots go into the docs from a run on the real day only. */
export function onRealDay(): boolean {
  return testClockOffsetMs() === 0
}
