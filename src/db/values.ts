/** Conversions at the database boundary, identical for both dialects. */
import { parseDateTime } from '../domain/date-time.js'

/** A stored instant as RFC 3339 UTC (PostgreSQL returns Date; SQLite stores canonical ISO text). */
export function isoFromDb(value: Date | string): string {
  return typeof value === 'string' ? value : value.toISOString()
}

export function isoFromDbOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoFromDb(value)
}

/**
 * The one form in which instants are written: ISO-8601 UTC with milliseconds. On SQLite the
 * text is compared and sorted as is, so every writer must go through here.
 */
export function isoForDb(value: number | string | Date): string {
  const date = value instanceof Date ? value : new Date(typeof value === 'string' ? parseDateTime(value) ?? Number.NaN : value)
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${String(value)}`)
  return date.toISOString()
}

/** Rows per statement: well under both databases' limits on bound parameters. */
const ROWS_PER_STATEMENT = 200

/** Rows split for multi-row statements (inserts, `in (…)` lists) of at most ROWS_PER_STATEMENT each. */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT))
  return out
}
