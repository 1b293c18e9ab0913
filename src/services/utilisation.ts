/**
 * Utilisation (docs/utilisation.md), for the dashboard's page and the admin API: over a range of
 * local dates, the booked share of the courts' open time by weekday and hour, the bookings of each
 * week with who cancelled them, and the busiest and emptiest hours. Two indexed reads: the club's
 * courts, and its bookings that start in the range (bookings_club_start_idx).
 */
import type { Kysely } from 'kysely'
import type { Club } from '../db/repositories/clubs.js'
import { listActiveCourts, listCourts } from '../db/repositories/courts.js'
import { bookingsStarting } from '../db/repositories/utilisation.js'
import type { Database } from '../db/schema.js'
import { InvalidRequest, NotFound } from '../domain/errors.js'
import { extremes, heatMap, weekCounts } from '../domain/utilisation.js'
import type { HeatCell, WeekCount } from '../domain/utilisation.js'
import { addDays, localToInstant } from '../domain/zoned-time.js'

/** The longest range one report covers. */
export const MAX_UTILISATION_DAYS = 366

export interface UtilisationReport {
  readonly from: string
  readonly to: string
  readonly courtId: string | null
  readonly heatMap: HeatCell[]
  readonly weeks: WeekCount[]
  readonly busiest: HeatCell[]
  readonly emptiest: HeatCell[]
}

export async function utilisation(db: Kysely<Database>, club: Club,
  range: { from: string, to: string, courtId?: string | undefined }): Promise<UtilisationReport> {
  const { from, to } = range
  if (to < from) throw new InvalidRequest('query parameter', 'to', 'is before from')
  if ((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 >= MAX_UTILISATION_DAYS) {
    throw new InvalidRequest('query parameter', 'to', `is more than ${String(MAX_UTILISATION_DAYS - 1)} days after from`)
  }
  const courtId = range.courtId?.toLowerCase()
  if (courtId !== undefined && !(await listCourts(db, club.id)).some((court) => court.id === courtId)) {
    throw new NotFound(`The club has no court with the id ${courtId}.`)
  }
  const courts = (await listActiveCourts(db, club.id)).filter((court) => courtId === undefined || court.id === courtId)
  const window = { start: localToInstant(from, 0, club.timezone), end: localToInstant(addDays(to, 1), 0, club.timezone) }
  const bookings = await bookingsStarting(db, club.id, window, courtId)
  const cells = heatMap(courts, bookings, from, to, club.timezone)
  return { from, to, courtId: courtId ?? null, heatMap: cells, weeks: weekCounts(bookings, from, to, club.timezone),
    ...extremes(cells, 3) }
}
