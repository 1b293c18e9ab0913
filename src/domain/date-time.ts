/**
 * The one reading of an RFC 3339 `date-time` (§5.6) the service accepts, shared by request
 * validation (the schemas' `date-time` format), the booking rules, the import and the command line,
 * so that whatever passes validation is an instant the rules can use.
 *
 * Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T` and `Z` in either case, any number of
 * fraction digits (read to the millisecond, further digits truncated). Refused: a missing offset or
 * one without minutes (`+01`, `+0100`), a space for `T`, calendar dates that do not exist
 * (`2026-02-30`), hour 24, and leap seconds (`:60`): no instant of the service's clock (POSIX time,
 * like every database it stores to) can represent one, so a leap second is refused rather than
 * silently moved.
 */

const MINUTE = 60_000
const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/** The instant (epoch ms) a date-time names, or undefined when it is not one this service accepts. */
export function parseDateTime(text: string): number | undefined {
  const match = RFC3339_DATE_TIME.exec(text)
  if (match === null) return undefined
  const [, year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match.map(Number)
  const [offsetHours = 0, offsetMinutes = 0] = match.slice(9).map(Number)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  if (offsetHours > 23 || offsetMinutes > 59) return undefined
  const milliseconds = match[7] === undefined ? 0 : Number(match[7].slice(0, 3).padEnd(3, '0'))
  const local = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  local.setUTCFullYear(year, month - 1, day)
  local.setUTCHours(hour, minute, second, milliseconds)
  const offset = match[8] === undefined ? 0 : (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * MINUTE
  return local.getTime() - offset
}

/** True for a date-time parseDateTime reads: the schemas' `date-time` format. */
export function isDateTime(text: string): boolean {
  return parseDateTime(text) !== undefined
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** The instant of a date-time that validation has already accepted; an error (a defect) otherwise. */
export function instantOf(text: string): number {
  const instant = parseDateTime(text)
  if (instant === undefined) throw new Error(`not a validated date-time: ${JSON.stringify(text)}`)
  return instant
}
