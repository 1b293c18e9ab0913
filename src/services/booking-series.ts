/**
 * Weekly series: the club books one court at one local time every week from a first date to a last
 * (a member's season slot, a training group's), as bookings with a booker like any other. A preview
 * lists every date with what is in its way (a booking, a hold, a closure, a time off the grid or
 * past); saving books the free dates and skips the rest, or books nothing when any date collides,
 * as the club chooses, in one transaction holding the court's lock (on PostgreSQL the bookings'
 * exclusion constraint refuses an overlap a concurrent booking committed). Each occurrence is then
 * moved or cancelled as a booking; the rest of a series is cancelled from a date on in one change.
 *
 * Saving mails nobody (the club arranges a season with the member); the occurrences' later moves
 * mail like any booking's, and cancelling the rest of a series mails nobody either.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Club } from '../db/repositories/clubs.js'
import { bookingRulesOf, findBookings } from '../db/repositories/bookings.js'
import { courtForBooking, occupancyOf } from '../db/repositories/courts.js'
import type { Court } from '../db/repositories/courts.js'
import { findSeries, memberWithAddress, seriesBookingInsert, seriesBookingsFrom, seriesInsert } from '../db/repositories/series.js'
import { isExclusionViolation } from '../db/dialect.js'
import type { Database } from '../db/schema.js'
import { checkBookingTimes, nameRefusals, occupancyOn, unknownCourt } from '../domain/booking-rules.js'
import { InvalidBooking, InvalidRequest, SlotConflict } from '../domain/errors.js'
import { slotStatus } from '../domain/slots.js'
import type { SlotStatus } from '../domain/slots.js'
import { addDays, formatInZone, localToInstant, parseClockTime, parseLocalDate } from '../domain/zoned-time.js'
import { hashToken, generateToken } from '../domain/secret-token.js'
import { bookingData } from '../webhooks/booking-events.js'
import type { Actor } from './audit.js'
import { cancelIn } from './booking-cancellation.js'
import type { CancellationSettings } from './booking-cancellation.js'
import { write } from './unit-of-work.js'

/** A season at most: 53 weekly dates. */
export const MAX_SERIES_DATES = 53
const DAY = 86_400_000

export interface SeriesInput {
  readonly court_id: string
  /** HH:MM, club-local. */
  readonly start_time: string
  readonly end_time: string
  /** YYYY-MM-DD: the first date, and the last date the series may reach (every 7 days from the first). */
  readonly first_date: string
  readonly last_date: string
  readonly booker_name: string
  /** '' for none. */
  readonly booker_email: string
  readonly notes?: string | undefined
}

/** One date of a series: free, taken (as the listing says), or not bookable at all (`invalid`, with why). */
export interface SeriesOccurrence {
  readonly date: string
  readonly start: number
  readonly end: number
  readonly status: 'free' | Exclude<SlotStatus, 'available'> | 'invalid'
  readonly reason: string | null
}

export interface SeriesPreview {
  readonly court: Court
  readonly occurrences: readonly SeriesOccurrence[]
}

/** Every date of the series and what stands in its way; changes nothing. */
export async function previewSeries(db: Kysely<Database>, clock: Clock, club: Club, input: SeriesInput): Promise<SeriesPreview> {
  return occurrencesOf(db, club, input, clock.now())
}

export interface SeriesSaved {
  readonly seriesId: string
  readonly bookingIds: readonly string[]
  readonly skipped: readonly SeriesOccurrence[]
}

/**
 * Books the series: its free dates (`collisions: 'skip'`), or every date or nothing (`'refuse'`:
 * `slot-conflict` naming the dates in the way). A series with no free date is refused.
 */
export async function createSeries(db: Kysely<Database>, clock: Clock, club: Club, input: SeriesInput,
  options: { readonly actor: Actor, readonly collisions: 'skip' | 'refuse' }): Promise<SeriesSaved> {
  const now = clock.now()
  const bookerName = input.booker_name.trim()
  const email = input.booker_email.trim().toLowerCase()
  const named = nameRefusals(bookerName, 'booker_name')
  if (named.length > 0) throw InvalidBooking.all(named)
  const notes = input.notes === undefined || input.notes.trim() === '' ? null : input.notes
  const seriesId = randomUUID()
  try {
    return await write(db, now, async (work) => {
      // The court's lock, as for any booking of it: its bookings are checked and written one change at a time.
      const { court, occurrences } = await occurrencesOf(work.db, club, input, now)
      const skipped = occurrences.filter((occurrence) => occurrence.status !== 'free')
      if (options.collisions === 'refuse' && skipped.length > 0) {
        throw new SlotConflict(`Not every date is free on ${court.name}: ${skipped.map((occurrence) =>
          `${occurrence.date} (${occurrence.reason ?? occurrence.status})`).join(', ')}.`, { code: 'slot_booked', params: { court: court.name } })
      }
      const free = occurrences.filter((occurrence) => occurrence.status === 'free')
      if (free.length === 0) throw new SlotConflict(`No date of the series is free on ${court.name}.`, { code: 'slot_booked', params: { court: court.name } })
      const memberId = await memberWithAddress(work.db, club.id, email)
      // The club's language: the mails about a booking of the series (a move, a cancellation) are written in it.
      const { language } = await bookingRulesOf(work.db, club.id)
      work.insert(seriesInsert(work.db, { id: seriesId, clubId: club.id, courtId: court.id, startTime: input.start_time,
        endTime: input.end_time, firstDate: input.first_date, lastDate: input.last_date }, now))
      const bookingIds = free.map((occurrence) => {
        const id = randomUUID()
        work.insert(seriesBookingInsert(work.db, { id, clubId: club.id, courtId: court.id, start: occurrence.start,
          end: occurrence.end, bookerName, bookerEmail: email, memberId, notes,
          manageTokenHash: hashToken(generateToken('manage')), language }, seriesId, now))
        return id
      })
      await work.events(club.id, free.map((occurrence, i) => ({ type: 'booking.created', subjectId: bookingIds[i] ?? '',
        data: bookingData({ id: bookingIds[i] ?? '', courtId: court.id, courtName: court.name, timezone: club.timezone,
          start: occurrence.start, end: occurrence.end, createdAt: now, cancelledAt: null, cancelledBy: null }) })))
      const notBooked = skipped.length === 0 ? '' : `; not booked: ${skipped.map((occurrence) => occurrence.date).join(', ')}`
      await work.audit(options.actor, club.id, { action: 'series.created', target: seriesId,
        targetName: `${court.name}, weekly ${input.start_time}–${input.end_time}, ${input.first_date} to ${input.last_date}`,
        detail: `${String(free.length)} bookings${notBooked}` })
      work.changed(`courts:${club.id}`)
      return { seriesId, bookingIds, skipped }
    })
  } catch (error) {
    if (isExclusionViolation(error)) throw new SlotConflict('A date of the series was booked meanwhile: nothing was booked.', { code: 'slot_booked' })
    throw error
  }
}

/**
 * Cancels the series' bookings that start on `from` or later and have not ended, for the club,
 * without mails; undefined when the club has no such series.
 */
export interface SeriesCancellation {
  readonly club: Club
  readonly seriesId: string
  /** YYYY-MM-DD at the club. */
  readonly from: string
  readonly reason: string | null
  readonly actor: Actor
}

export async function cancelSeriesFrom(db: Kysely<Database>, clock: Clock, settings: CancellationSettings,
  input: SeriesCancellation): Promise<number | undefined> {
  const { club } = input
  const series = await findSeries(db, club.id, input.seriesId)
  if (series === undefined) return undefined
  const now = clock.now()
  return write(db, now, async (work) => {
    let cancelled = 0
    const ids = await seriesBookingsFrom(work.db, club.id, series.id, localToInstant(input.from, 0, club.timezone), now)
    for (const booking of await findBookings(work.db, club.id, ids)) {
      if (await cancelIn(work, settings, booking, { by: 'club', reason: input.reason }, input.actor, 'the rest of its series',
        false)) cancelled++
    }
    await work.audit(input.actor, club.id, { action: 'series.cancelled', target: series.id,
      targetName: `weekly ${series.startTime}–${series.endTime}, ${series.firstDate} to ${series.lastDate}`,
      detail: `${String(cancelled)} bookings from ${input.from}${input.reason === null ? '' : `: ${input.reason}`}` })
    return cancelled
  })
}

/** The series' dates and their standing, read (and, in a change, the court locked) through `db`. */
async function occurrencesOf(db: Kysely<Database>, club: Club, input: SeriesInput, now: number):
Promise<SeriesPreview> {
  const start = parseClockTime(input.start_time)
  const end = parseClockTime(input.end_time)
  if (start === undefined) throw new InvalidRequest('field', 'start_time', 'is not a local time HH:MM')
  if (end === undefined || end <= start) throw new InvalidRequest('field', 'end_time', 'is not a local time HH:MM after start_time')
  const first = parseLocalDate(input.first_date)
  const last = parseLocalDate(input.last_date)
  if (!(last >= first)) throw new InvalidRequest('field', 'last_date', 'is before first_date')
  const count = Math.floor((last - first) / (7 * DAY)) + 1
  if (count > MAX_SERIES_DATES) {
    throw new InvalidRequest('field', 'last_date', `makes more than ${String(MAX_SERIES_DATES)} weekly dates`)
  }
  // In a change, the court is locked (PostgreSQL) as for any booking of it.
  const court = await courtForBooking(db, club.id, input.court_id.toLowerCase())
  if (court?.active !== true) throw unknownCourt(input.court_id)
  const dates = Array.from({ length: count }, (_, i) => addDays(input.first_date, 7 * i))
  const window = { start: localToInstant(input.first_date, 0, club.timezone), end: localToInstant(addDays(input.last_date, 1), 0,
    club.timezone) }
  const stored = (await occupancyOf(db, club.id, [court.id], window)).get(court.id)
  const occurrences = dates.map((date): SeriesOccurrence => {
    const from = localToInstant(date, start, club.timezone)
    const until = localToInstant(date, end, club.timezone)
    try {
      // The club books past its guests' horizon; the grid, the hours and the past bind it.
      checkBookingTimes(court, club.timezone, { start_time: formatInZone(from, club.timezone),
        end_time: formatInZone(until, club.timezone) }, now, { horizon: false })
    } catch (error) {
      if (error instanceof InvalidBooking) return { date, start: from, end: until, status: 'invalid', reason: error.message }
      throw error
    }
    const status = slotStatus({ start: from, end: until }, occupancyOn(stored, [date], club.timezone))
    return { date, start: from, end: until, status: status === 'available' ? 'free' : status,
      reason: status === 'available' ? null : status }
  })
  return { court, occurrences }
}
