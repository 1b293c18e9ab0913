/** Dates and club-local times for the dashboard's forms; the club's time zone comes from the server's answers. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

const pad = (n: number) => String(n).padStart(2, '0')

/** YYYY-MM-DD plus whole days, on the calendar (no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(instant))
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((entry) => entry.type === type)?.value ?? 0)
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'))
  return Math.round((wall - instant) / 60_000)
}

/**
 * A club-local date and time from a `datetime-local` field (YYYY-MM-DDTHH:MM) as RFC 3339 with the
 * club's offset at that time, e.g. 2026-06-16T08:00:00+02:00, whatever the browser's own zone.
 */
export function clubLocalToInstant(local: string, timeZone: string): string {
  const wall = Date.parse(`${local}:00Z`)
  const offset = offsetMinutes(wall - offsetMinutes(wall, timeZone) * 60_000, timeZone)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${local}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/** An instant as the club-local YYYY-MM-DDTHH:MM of a `datetime-local` field. */
export function instantToClubLocal(iso: string, timeZone: string): string {
  const instant = Date.parse(iso)
  return new Date(instant + offsetMinutes(instant, timeZone) * 60_000).toISOString().slice(0, 16)
}
