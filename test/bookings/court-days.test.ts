/**
 * Free times by day (GET …/courts/days): for every date it must say what the day's listing says —
 * the count of free times inside the booking windows and the first of them — move with the clock
 * and with each booking while cached, and refuse what is not a run of dates.
 */
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { isoForDb } from '../../src/db/values.js'
import { addDays } from '../../src/domain/zoned-time.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { START, useHarness } from '../helpers/harness.js'

interface Slot { court_id: string, court_name: string, start_time: string, end_time: string, status: string }
interface Window { court_id: string, earliest_start: string | null, latest_start: string | null }
interface Courts { courts: Slot[], booking_windows: Window[] }
interface Day { date: string, bookable: boolean, free_slots: number, first_free: Slot | null }
interface Days { timezone: string, days: Day[] }

/** Monday 15 June 2026 at the club (the harness's START is 12:00 there). */
const MONDAY = '2026-06-15'
const SMALL_COURT = idFor('court:small')

describeEachDatabase('free times by day', (dialect) => {
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    ({ clubId } = await setUpCourts(h, 'riverside'))
    // A club of one court, 10:00–12:00, bookable three days ahead; its Tuesday fully booked.
    const small = await h.createClub('small', 'Europe/Berlin')
    await importClubData(h.context.db, h.clock, small.id, { courts: [{ id: SMALL_COURT, name: 'Centre', booking_horizon_days: 3,
      opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
        .map((day) => [day, { open: '10:00', close: '12:00' }])) }] })
    for (const hour of ['10', '11']) {
      await h.context.db.insertInto('bookings').values({
        id: randomUUID(), club_id: small.id, court_id: SMALL_COURT, starts_at: isoForDb(`${TUESDAY}T${hour}:00:00+02:00`),
        ends_at: isoForDb(`${TUESDAY}T${hour}:59:59+02:00`), booker_name: 'X', booker_email: 'x@example.org', member_id: null,
        notes: null, created_at: isoForDb(START),
      }).execute()
    }
  })
  const get = (url: string) => harness.current.request({ url })
  const daysOf = async (club: string, query = '') => {
    const response = await get(`/api/v1/public/${club}/courts/days${query}`)
    expect(response.status).toBe(200)
    return response.json<Days>()
  }
  /** What the day's listing says: its free times inside their court's window, in the order the summary's first is chosen. */
  const fromListing = async (club: string, date: string) => {
    const listing = (await get(`/api/v1/public/${club}/courts?date=${date}`)).json<Courts>()
    const free = listing.courts.filter((slot) => {
      const window = listing.booking_windows.find((entry) => entry.court_id === slot.court_id)
      const start = Date.parse(slot.start_time)
      return slot.status === 'available' && window?.earliest_start != null && window.latest_start != null
        && start >= Date.parse(window.earliest_start) && start <= Date.parse(window.latest_start)
    }).sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time))
    const bookable = listing.booking_windows.some((entry) => entry.earliest_start !== null)
    return { free: free.length, first: free[0] ?? null, bookable }
  }

  it('says for every date what the day\'s listing says: free, bookable times and the first of them', async () => {
    const from = addDays(MONDAY, -1)
    const body = await daysOf('riverside', `?from=${from}&days=31`)
    expect(body.timezone).toBe('Europe/Berlin')
    expect(body.days.map((day) => day.date)).toEqual(Array.from({ length: 31 }, (_, index) => addDays(from, index)))
    for (const day of body.days) {
      const listed = await fromListing('riverside', day.date)
      expect({ date: day.date, free: day.free_slots, first: day.first_free, bookable: day.bookable })
        .toEqual({ date: day.date, ...listed })
    }
    // Yesterday is past; today until 12:00 has gone (the hour at the club); the blocks and the training count as taken.
    expect(body.days[0]).toEqual({ date: from, bookable: false, free_slots: 0, first_free: null })
    expect(body.days[1]?.first_free?.start_time).toBe(`${MONDAY}T13:00:00+02:00`)
  })

  it('starts today at the club, 14 dates unless asked, and marks a full day and the days beyond the horizon', async () => {
    const body = await daysOf('small')
    expect(body.days.map((day) => [day.date, day.bookable, day.free_slots])).toEqual([
      [MONDAY, false, 0], // 12:00 at the club: both times have started.
      [TUESDAY, true, 0], // Fully booked.
      ['2026-06-17', true, 2],
      ['2026-06-18', true, 2],
      ...Array.from({ length: 10 }, (_, index) => [addDays('2026-06-19', index), false, 0]),
    ])
    expect(body.days[2]?.first_free).toEqual({ court_id: SMALL_COURT, court_name: 'Centre', start_time: '2026-06-17T10:00:00+02:00',
      end_time: '2026-06-17T11:00:00+02:00', status: 'available' })
  })

  it('moves with a booking and with the clock while cached', async () => {
    const h = harness.current
    const before = await daysOf('small', '?days=4')
    expect(before.days[2]?.free_slots).toBe(2)
    const booked = await h.request({ method: 'POST', url: '/api/v1/public/small/courts/book', payload: {
      court_id: SMALL_COURT, start_time: '2026-06-17T10:00:00+02:00', end_time: '2026-06-17T11:00:00+02:00',
      booker_name: 'Guest', booker_email: 'guest@example.org' } })
    expect(booked.status).toBe(201)
    const after = await daysOf('small', '?days=4')
    expect([after.days[2]?.free_slots, after.days[2]?.first_free?.start_time]).toEqual([1, '2026-06-17T11:00:00+02:00'])
    // A day later at 10:30 the 10:00 time of Tuesday is gone, and Friday has come within the three days.
    h.clock.set('2026-06-16T10:30:00+02:00')
    const later = await daysOf('small', `?from=${MONDAY}&days=5`)
    expect(later.days.map((day) => [day.date, day.bookable, day.free_slots])).toEqual([
      [MONDAY, false, 0], [TUESDAY, true, 0], ['2026-06-17', true, 1], ['2026-06-18', true, 2], ['2026-06-19', true, 1],
    ])
  })

  it('refuses what is not a run of dates, names an unknown club, and answers any origin', async () => {
    for (const query of ['?days=0', '?days=32', '?days=two', '?from=2026-02-30', '?from=1999-12-31', '?date=2026-06-16']) {
      const response = await get(`/api/v1/public/riverside/courts/days${query}`)
      expect([query, response.status, response.json<{ type: string }>().type])
        .toEqual([query, 400, expect.stringMatching(/validation-error$/)])
    }
    const unknown = await get('/api/v1/public/nowhere/courts/days')
    expect([unknown.status, unknown.json<{ type: string }>().type]).toEqual([404, expect.stringMatching(/club-not-found$/)])
    const answered = await harness.current.request({ url: '/api/v1/public/riverside/courts/days',
      headers: { origin: 'https://a.example' } })
    expect(answered.headers['access-control-allow-origin']).toBe('*')
    expect(answered.headers.etag).toBeDefined()
    const again = await harness.current.request({ url: '/api/v1/public/riverside/courts/days',
      headers: { 'if-none-match': String(answered.headers.etag) } })
    expect(again.status).toBe(304)
  })

  it('counts one court alone when asked, and none that the club does not have', async () => {
    const all = await daysOf('riverside', `?from=${TUESDAY}&days=2`)
    const b = await daysOf('riverside', `?from=${TUESDAY}&days=2&court=${COURT.b}`)
    for (const [index, day] of b.days.entries()) {
      const listing = (await get(`/api/v1/public/riverside/courts?date=${day.date}`)).json<Courts>()
      const free = listing.courts.filter((slot) => slot.court_id === COURT.b && slot.status === 'available').length
      expect([day.date, day.free_slots, day.first_free?.court_id]).toEqual([day.date, free, COURT.b])
      expect(day.free_slots).toBeLessThan(all.days[index]?.free_slots ?? 0)
    }
    const stranger = await daysOf('riverside', `?from=${TUESDAY}&days=2&court=${SMALL_COURT}`)
    expect(stranger.days.map((day) => [day.bookable, day.free_slots])).toEqual([[false, 0], [false, 0]])
    expect((await get('/api/v1/public/riverside/courts/days?court=1')).status).toBe(400)
  })

  it('reads the club\'s own courts alone', async () => {
    const body = await daysOf('small', `?from=${TUESDAY}&days=3`)
    const firsts = body.days.flatMap((day) => day.first_free === null ? [] : [day.first_free.court_id])
    expect(firsts).toEqual([SMALL_COURT, SMALL_COURT])
    expect(clubId).not.toBe('')
    const riverside = await daysOf('riverside', `?from=${TUESDAY}&days=3`)
    const courts: string[] = [COURT.a, COURT.b, COURT.allDay]
    expect(riverside.days.every((day) => day.first_free !== null && courts.includes(day.first_free.court_id))).toBe(true)
  })
})
