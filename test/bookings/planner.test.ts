/**
 * The planner's day in the dashboard API: every active court with its slots on the date (the
 * public listing's statuses, holds included) and its active bookings with the guest's name but
 * never the address; a cancelled booking frees its slot and leaves the day; a court closed that
 * day has no slots; today at the club by default; a malformed date is refused. Both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

interface PlannerSlot { start_time: string, end_time: string, status: string }
interface PlannerBooking {
  id: string
  start_time: string
  end_time: string
  booker_name: string
  notes: string | null
  series_id: string | null
  has_address: boolean
}
interface Day {
  date: string
  timezone: string
  courts: { id: string, name: string, slot_minutes: number, slots: PlannerSlot[], bookings: PlannerBooking[] }[]
}

const at = (time: string) => `${TUESDAY}T${time}:00+02:00`

describeEachDatabase('the planner\'s day', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { PUBLIC_URL: 'https://clubs.example' } })
    const { clubId } = await setUpCourts(h, 'riverside')
    owner = asSession(h, await signedIn(h, clubId, 'olga@riverside.example', 'owner'))
  })
  afterAll(async () => {
    await h.close()
  })

  const book = async (court: string, from: string, to: string, name: string) => {
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { court_id: court,
      start_time: at(from), end_time: at(to), booker_name: name, booker_email: `${name.toLowerCase()}@example.org`, notes: 'racket hire' } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }
  const day = async (query = `?date=${TUESDAY}`) => {
    const response = await owner('GET', `/api/admin/v1/clubs/riverside/planner${query}`)
    expect(response.status, response.body).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    return { body: response.body, day: response.json<Day>() }
  }

  it('shows every active court\'s slots with status and its bookings with the guest\'s name, not the address', async () => {
    const gina = await book(COURT.b, '18:00', '19:00', 'Gina')
    const otto = await book(COURT.allDay, '09:00', '10:00', 'Otto')
    const { body, day: planner } = await day()
    expect(planner.date).toBe(TUESDAY)
    expect(planner.timezone).toBe('Europe/Berlin')
    // Active courts by name; the inactive one is not there.
    expect(planner.courts.map((court) => court.id)).toEqual([COURT.a, COURT.b, COURT.allDay])
    const [a, b, allDay] = planner.courts
    expect(b?.slot_minutes).toBe(30)
    expect(b?.slots.slice(0, 3)).toEqual([{ start_time: at('18:00'), end_time: at('18:30'), status: 'booked', waiting: 0 },
      { start_time: at('18:30'), end_time: at('19:00'), status: 'booked', waiting: 0 },
      { start_time: at('19:00'), end_time: at('19:30'), status: 'available', waiting: 0 }])
    expect(b?.bookings).toEqual([{ id: gina, start_time: at('18:00'), end_time: at('19:00'), booker_name: 'Gina',
      notes: 'racket hire', series_id: null, has_address: true }])
    expect(allDay?.bookings.map((booking) => booking.id)).toEqual([otto])
    // Court A's holds: blocked over reserved, and the weekly junior training.
    const status = (time: string) => a?.slots.find((slot) => slot.start_time === at(time))?.status
    expect([status('09:00'), status('10:00'), status('11:00'), status('12:00'), status('18:00')])
      .toEqual(['available', 'blocked', 'blocked', 'reserved', 'reserved'])
    expect(body).not.toContain('@example.org')

    // Cancelled by the club: the slot is free and the booking gone from the day.
    const cancelled = await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${gina}/cancel`, {})
    expect(cancelled.status, cancelled.body).toBe(200)
    const after = (await day()).day.courts.find((court) => court.id === COURT.b)
    expect(after?.bookings).toEqual([])
    expect(after?.slots[0]?.status).toBe('available')
  })

  it('shows a court closed that day without slots, today at the club by default, and refuses a malformed date', async () => {
    // Court B opens on weekdays only: a Sunday has none of its slots.
    const sunday = (await day('?date=2026-06-21')).day
    expect(sunday.courts.find((court) => court.id === COURT.b)?.slots).toEqual([])
    expect(sunday.courts.find((court) => court.id === COURT.allDay)?.slots).toHaveLength(24)
    // The harness's clock: Monday 2026-06-15 at the club.
    expect((await day('')).day.date).toBe('2026-06-15')
    for (const wrong of ['?date=16.06.2026', '?date=2026-02-30', '?date=', '?court=x']) {
      const response = await owner('GET', `/api/admin/v1/clubs/riverside/planner${wrong}`)
      expect(response.status, wrong).toBe(400)
    }
  })
})
