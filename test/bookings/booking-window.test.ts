/**
 * The listing says which slots can be booked: per court, the first and last start a booking may
 * have at the time of the answer — exact on the days Berlin changes its clocks and in a zone with a
 * 45-minute offset, in agreement with what the booking endpoint accepts, and moving with the clock
 * even while the answer is cached.
 */
import { expect, it } from 'vitest'
import { importClubData } from '../../src/services/import.js'
import { bookingWindow, bookingWindowChangesAt } from '../../src/domain/slots.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { useHarness } from '../helpers/harness.js'

const BERLIN_COURT = idFor('court:berlin')
const KATHMANDU_COURT = idFor('court:kathmandu')
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
const hours = (open: string, close: string) => Object.fromEntries(EVERY_DAY.map((day) => [day, { open, close }]))

interface Listing {
  courts: { court_id: string, start_time: string, status: string }[]
  booking_windows: { court_id: string, earliest_start: string | null, latest_start: string | null }[]
}

it('bounds the window by now (exclusive) and the horizon (exclusive), and knows when it next moves', () => {
  const slots = [0, 10, 20, 30, 40].map((start) => ({ start, end: start + 10 }))
  expect(bookingWindow(slots, 10, 25)).toEqual({ earliest: 20, latest: 30 })
  expect(bookingWindow(slots, 9, 25)).toEqual({ earliest: 10, latest: 30 })
  expect(bookingWindow(slots, 40, 100)).toBeUndefined()
  expect(bookingWindow(slots, -100, 50)).toBeUndefined()
  // Slot 20 leaves when it starts; slot 40 enters one millisecond after now + horizon passes it.
  expect(bookingWindowChangesAt(slots, 15, 25)).toBe(16)
  expect(bookingWindowChangesAt(slots, 15, 5)).toBe(16)
  expect(bookingWindowChangesAt(slots, 18, 5)).toBe(20)
  expect(bookingWindowChangesAt(slots, 40, 5)).toBe(Number.POSITIVE_INFINITY)
})

describeEachDatabase('the booking window of the listing', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    const berlin = await h.createClub('berlin', 'Europe/Berlin')
    await importClubData(h.context.db, h.clock, berlin.id, { courts: [
      { id: BERLIN_COURT, name: 'Court 1', slot_minutes: 60, booking_horizon_days: 1, opening_hours: hours('00:00', '24:00') }] })
    const kathmandu = await h.createClub('kathmandu', 'Asia/Kathmandu')
    await importClubData(h.context.db, h.clock, kathmandu.id, { courts: [
      { id: KATHMANDU_COURT, name: 'Court A', slot_minutes: 30, booking_horizon_days: 14, opening_hours: hours('08:00', '22:00') }] })
  })
  const list = async (club: string, date: string) => {
    const response = await harness.current.request({ url: `/api/v1/public/${club}/courts?date=${date}` })
    expect(response.status).toBe(200)
    return { ...response.json<Listing>(), etag: String(response.headers.etag) }
  }
  const windowOf = async (club: string, date: string) => {
    const [window] = (await list(club, date)).booking_windows
    return window === undefined ? undefined : [window.earliest_start, window.latest_start]
  }
  const book = (club: string, court: string, start: string, end: string) => harness.current.request({
    method: 'POST', url: `/api/v1/public/${club}/courts/book`,
    payload: { court_id: court, start_time: start, end_time: end, booker_name: 'W', booker_email: `w${start.replace(/\D/g, '')}@example.org` },
  })

  it('skips the hour that does not exist on the day Berlin springs forward', async () => {
    harness.current.clock.set('2026-03-29T01:30:00+01:00')
    expect(await windowOf('berlin', '2026-03-29')).toEqual(['2026-03-29T03:00:00+02:00', '2026-03-29T23:00:00+02:00'])
    // Horizon one day: until 2026-03-30 02:30 summer time, a start at 02:00 is the last.
    expect(await windowOf('berlin', '2026-03-30')).toEqual(['2026-03-30T00:00:00+02:00', '2026-03-30T02:00:00+02:00'])
    expect(await windowOf('berlin', '2026-03-31')).toEqual([null, null])
    expect(await windowOf('berlin', '2026-03-28')).toEqual([null, null])
  })

  it('tells the two 02:00 of the day Berlin falls back apart', async () => {
    // 02:30 summer time is 00:30Z; the next start is the second 02:00, in winter time.
    harness.current.clock.set('2026-10-25T02:30:00+02:00')
    expect(await windowOf('berlin', '2026-10-25')).toEqual(['2026-10-25T02:00:00+01:00', '2026-10-25T23:00:00+01:00'])
    expect(await windowOf('berlin', '2026-10-26')).toEqual(['2026-10-26T00:00:00+01:00', '2026-10-26T01:00:00+01:00'])
  })

  it('is exact at +05:45, agrees with the booking endpoint at both ends, and moves with the clock while cached', async () => {
    const h = harness.current
    h.clock.set('2026-06-15T15:59:59.999+05:45')
    const before = await list('kathmandu', '2026-06-15')
    expect(before.booking_windows).toEqual([{ court_id: KATHMANDU_COURT, earliest_start: '2026-06-15T16:00:00+05:45',
      latest_start: '2026-06-15T21:30:00+05:45', max_slots_per_booking: 2 }])
    // The slot that starts now is no longer bookable, in the listing as at the endpoint.
    h.clock.set('2026-06-15T16:00:00+05:45')
    const after = await list('kathmandu', '2026-06-15')
    expect(after.booking_windows[0]?.earliest_start).toBe('2026-06-15T16:30:00+05:45')
    expect(after.etag).not.toBe(before.etag)
    expect((await book('kathmandu', KATHMANDU_COURT, '2026-06-15T16:00:00+05:45', '2026-06-15T16:30:00+05:45')).status).toBe(400)
    expect((await book('kathmandu', KATHMANDU_COURT, '2026-06-15T16:30:00+05:45', '2026-06-15T17:00:00+05:45')).status).toBe(201)

    // Fourteen days ahead the window ends before the start that lies 14 days from now.
    expect(await windowOf('kathmandu', '2026-06-29')).toEqual(['2026-06-29T08:00:00+05:45', '2026-06-29T15:30:00+05:45'])
    expect((await book('kathmandu', KATHMANDU_COURT, '2026-06-29T15:30:00+05:45', '2026-06-29T16:00:00+05:45')).status).toBe(201)
    const beyond = await book('kathmandu', KATHMANDU_COURT, '2026-06-29T16:00:00+05:45', '2026-06-29T16:30:00+05:45')
    expect(beyond.status).toBe(400)
    expect(beyond.json<{ code: string }>().code).toBe('beyond_horizon')
    // The horizon reaches 16:00 one millisecond after 14 days before it.
    h.clock.set('2026-06-15T16:00:00.001+05:45')
    expect(await windowOf('kathmandu', '2026-06-29')).toEqual(['2026-06-29T08:00:00+05:45', '2026-06-29T16:00:00+05:45'])
    expect(await windowOf('kathmandu', '2026-06-30')).toEqual([null, null])
  })
})
