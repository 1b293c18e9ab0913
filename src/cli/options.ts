/** The command line's readers of options and arguments: each refusal names the option as the user typed it. */
import { cancellationSettings } from '../services/booking-cancellation.js'
import fs from 'node:fs/promises'
import type { Clock } from '../clock.js'
import type { AppContext } from '../context.js'
import { parseDateTime } from '../domain/date-time.js'
import { InvalidInput } from '../domain/errors.js'
import { WEEKDAYS } from '../domain/slots.js'
import { parseClockTime } from '../domain/zoned-time.js'
import { checkEmail } from '../services/admins.js'
import { OPERATOR } from '../services/audit.js'
import type { DisplacedBookings } from '../services/holds.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** An id argument or option (a UUID), lower-cased as stored; `shownBy` is the command that lists such ids. */
export function idArgument(value: string, what: string, shownBy: string, flag?: string): string {
  if (!UUID.test(value)) {
    throw new InvalidInput(`${flag === undefined ? '' : `${flag}: `}"${value}" is not a ${what} id (a UUID, as shown by ${shownBy})`)
  }
  return value.toLowerCase()
}

/** Text without surrounding spaces, 1 to `max` characters. */
export function textOption(flag: string, value: string, max: number): string {
  const text = value.trim()
  if (text === '' || text.length > max) throw new InvalidInput(`${flag}: give 1 to ${String(max)} characters`)
  return text
}

/** An option that may be absent, read by `parse` when given. */
export function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value)
}

/** A whole number of up to six digits. */
export function integerOption(name: string, value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw new InvalidInput(`${name}: "${value}" is not a whole number`)
  return Number(value)
}

/** A whole number from `min` to `max`. */
export function boundedInteger(name: string, value: string, min: number, max: number): number {
  const parsed = integerOption(name, value)
  if (parsed < min || parsed > max) throw new InvalidInput(`${name}: "${value}" is not from ${String(min)} to ${String(max)}`)
  return parsed
}

/** --weekly: a weekday as the import spells it (mon … sun). */
export function weekdayOption(value: string): string {
  const day = WEEKDAYS.find((weekday) => weekday === value.trim().toLowerCase())
  if (day === undefined) throw new InvalidInput(`--weekly: "${value}" is not a weekday; use one of ${WEEKDAYS.join(', ')}`)
  return day
}

/** A club-local time HH:MM. */
export function clockTimeOption(flag: string, value: string): string {
  if (parseClockTime(value) === undefined) throw new InvalidInput(`${flag}: "${value}" is not a local time HH:MM from 00:00 to 24:00`)
  return value
}

/** A calendar date YYYY-MM-DD. */
export function dateOption(flag: string, value: string): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN
  // Date.parse rolls 2026-02-30 over to March; a real date reads back the same.
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) throw new InvalidInput(`${flag}: "${value}" is not a date YYYY-MM-DD`)
  return value
}

/** An RFC 3339 date-time with an offset, read as the API reads it (src/domain/date-time.ts); returned in UTC. */
export function instantOption(flag: string, value: string): string {
  const time = parseDateTime(value)
  if (time === undefined) {
    throw new InvalidInput(`${flag}: "${value}" is not an RFC 3339 date-time with an offset (e.g. 2027-01-01T00:00:00Z)`)
  }
  return new Date(time).toISOString()
}

/** An RFC 3339 date-time after now. */
export function futureInstantOption(flag: string, value: string, clock: Clock): string {
  const time = instantOption(flag, value)
  if (Date.parse(time) <= clock.now()) throw new InvalidInput(`${flag}: ${value} is not in the future`)
  return time
}

/** An http(s) address without credentials, for a link people follow. */
export function webAddressOption(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidInput(`${name}: "${value}" is not a web address (https://…)`)
  }
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || value.length > 500) {
    throw new InvalidInput(`${name}: "${value}" is not a web address (https://…)`)
  }
  return url.href
}

/** A value a domain rule read (src/domain/club-contact.ts), or the flag's refusal naming what it must be. */
export function checked(flag: string, value: string | { readonly refused: string }): string {
  if (typeof value !== 'string') throw new InvalidInput(`${flag}: must be ${value.refused}`)
  return value
}

/** --email (or another flag's) address, normalised as the dashboard stores it. */
export function emailOption(value: string, flag = '--email'): string {
  try {
    return checkEmail(value)
  } catch {
    throw new InvalidInput(`${flag}: "${value}" is not an e-mail address`)
  }
}

/** A JSON file; a missing file or bad JSON is the user's mistake, named. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    throw new InvalidInput(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new InvalidInput(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * Bookings in a change's way: refused, or (--cancel-bookings) cancelled by the operator with the
 * reason each guest is mailed, each recorded in the audit log.
 */
export function displacedPolicy(ctx: AppContext, cancel: boolean | undefined, reason?: string): DisplacedBookings {
  if (reason !== undefined && cancel !== true) throw new InvalidInput('--cancellation-reason: only with --cancel-bookings')
  return cancel === true
    ? { policy: 'cancel', settings: cancellationSettings(ctx.config), actor: OPERATOR, reason: reason ?? null }
    : { policy: 'refuse' }
}
