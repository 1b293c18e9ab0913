import { randomUUID } from 'node:crypto'
import { expect, it, describe } from 'vitest'
import { isoForDb } from '../../src/db/values.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { START, useHarness } from '../helpers/harness.js'

interface Slot { court_id: string, court_name: string, start_time: string, end_time: string, status: string }
interface Courts { date: string, timezone: string, courts: Slot[] }

describeEachDatabase('public court listing', (dialect) => {
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    ({ clubId } = await setUpCourts(h, 'riverside'))
    // A booking placed directly, where a reservation also lies (the listing must say reserved), and one on its own.
    for (const [from, to] of [['12:00', '13:00'], ['15:00', '16:00']] as const) {
      await h.context.db.insertInto('bookings').values({
        id: randomUUID(), club_id: clubId, court_id: COURT.a, starts_at: isoForDb(`${TUESDAY}T${from}:00+02:00`),
        ends_at: isoForDb(`${TUESDAY}T${to}:00+02:00`), booker_name: 'X', booker_email: 'x@example.org', member_id: null,
        notes: null, created_at: isoForDb(START),
      }).execute()
    }
  })
  const list = async (query = '') => harness.current.request({ url: `/api/v1/public/riverside/courts${query}` })
  const slotsOf = (body: Courts, court: string) => body.courts.filter((slot) => slot.court_id === court)

  it('lists every active court\'s grid with status, blocked > reserved > booked', async () => {
    const response = await list(`?date=${TUESDAY}`)
    expect(response.status).toBe(200)
    const body = response.json<Courts>()
    expect(body).toMatchObject({ date: TUESDAY, timezone: 'Europe/Berlin' })
    expect([...new Set(body.courts.map((slot) => slot.court_name))]).toEqual(['Court A', 'Court B', 'Court D (floodlit)'])
    const a = slotsOf(body, COURT.a)
    expect(a.map((slot) => `${slot.start_time.slice(11, 16)} ${slot.status}`)).toEqual([
      '08:00 available', '09:00 available', '10:00 blocked', '11:00 blocked', '12:00 reserved', '13:00 available',
      '14:00 available', '15:00 booked', '16:00 available', '17:00 available', '18:00 reserved', '19:00 reserved',
      '20:00 available', '21:00 available',
    ])
    expect(a[0]).toEqual({ court_id: COURT.a, court_name: 'Court A', start_time: `${TUESDAY}T08:00:00+02:00`,
      end_time: `${TUESDAY}T09:00:00+02:00`, status: 'available' })
    const b = slotsOf(body, COURT.b)
    expect(b).toHaveLength(8)
    expect(b[0]?.start_time).toBe(`${TUESDAY}T18:00:00+02:00`)
    expect(b[7]?.end_time).toBe(`${TUESDAY}T22:00:00+02:00`)
    expect(slotsOf(body, COURT.inactive)).toEqual([])
  })

  it('applies a weekly reservation only on its weekday and within its dates', async () => {
    const wednesday = slotsOf((await list('?date=2026-06-17')).json<Courts>(), COURT.a)
    expect(wednesday.every((slot) => slot.status === 'available')).toBe(true)
    const afterSeason = slotsOf((await list('?date=2026-09-01')).json<Courts>(), COURT.a)
    expect(afterSeason.find((slot) => slot.start_time.includes('T18:00'))?.status).toBe('available')
    const nextTuesday = slotsOf((await list('?date=2026-06-23')).json<Courts>(), COURT.a)
    expect(nextTuesday.find((slot) => slot.start_time.includes('T18:00'))?.status).toBe('reserved')
  })

  it('shows a court closed on a weekday without slots', async () => {
    const saturday = (await list('?date=2026-06-20')).json<Courts>()
    expect(slotsOf(saturday, COURT.b)).toEqual([])
    expect(slotsOf(saturday, COURT.a)).toHaveLength(14)
  })

  it('has 23 slots on the spring-forward day and 25 on the fall-back day, with the right offsets', async () => {
    const spring = slotsOf((await list('?date=2026-03-29')).json<Courts>(), COURT.allDay)
    expect(spring).toHaveLength(23)
    expect(spring.map((slot) => slot.start_time).slice(0, 4)).toEqual(['2026-03-29T00:00:00+01:00', '2026-03-29T01:00:00+01:00',
      '2026-03-29T03:00:00+02:00', '2026-03-29T04:00:00+02:00'])
    expect(spring.at(-1)?.end_time).toBe('2026-03-30T00:00:00+02:00')
    const fall = slotsOf((await list('?date=2026-10-25')).json<Courts>(), COURT.allDay)
    expect(fall).toHaveLength(25)
    expect(fall.map((slot) => slot.start_time).slice(1, 5)).toEqual(['2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00', '2026-10-25T03:00:00+01:00'])
    const daytime = slotsOf((await list('?date=2026-03-29')).json<Courts>(), COURT.a)
    expect(daytime).toHaveLength(14)
    expect(daytime[0]?.start_time).toBe('2026-03-29T08:00:00+02:00')
    for (const slots of [spring, fall]) {
      for (const slot of slots) expect(Date.parse(slot.end_time) - Date.parse(slot.start_time)).toBe(3_600_000)
    }
  })

  it('defaults to today in the club\'s time zone, across midnight UTC', async () => {
    const h = harness.current
    try {
      h.clock.set('2026-06-15T21:59:59Z')
      expect((await list()).json<Courts>().date).toBe('2026-06-15')
      h.clock.set('2026-06-15T22:00:00Z')
      expect((await list()).json<Courts>().date).toBe('2026-06-16')
    } finally {
      h.clock.set(START)
    }
  })

  it.each(['?date=2026-02-30', '?date=tomorrow', '?date=2026-6-1', '?date=', '?date=2026-06-16&date=2026-06-17', '?day=2026-06-16'])(
    'refuses %s with a 400', async (query) => {
      const response = await list(query)
      expect(response.status).toBe(400)
      expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/validation-error')
    })

  it.each(['0001-01-01', '0099-12-31', '1999-12-31', '2100-01-01', '9999-12-31'])(
    'refuses the date %s, outside 2000-01-01 through 2099-12-31, with a 400 naming date', async (date) => {
      const response = await list(`?date=${date}`)
      expect(response.status).toBe(400)
      const problem = response.json<{ type: string, detail: string, invalid_params: { name: string, code: string }[] }>()
      expect(problem.type).toBe('/api/v1/problems/validation-error')
      expect(problem.detail).toMatch(/^Date: the value must be (>= 2000-01-01|<= 2099-12-31)\.$/)
      expect(problem.invalid_params.map((param) => [param.name, param.code])).toEqual([['date', 'out_of_range']])
    })

  it.each(['2000-01-01', '2099-12-31'])('lists the slots of %s, the ends of the range, on that date', async (date) => {
    const response = await list(`?date=${date}`)
    expect(response.status).toBe(200)
    const body = response.json<Courts>()
    expect(body.date).toBe(date)
    const allDay = slotsOf(body, COURT.allDay)
    expect(allDay).toHaveLength(24)
    for (const slot of allDay) expect(slot.start_time.slice(0, 10)).toBe(date)
    expect(allDay[0]?.start_time).toBe(`${date}T00:00:00+01:00`)
  })

  it('states the range of date in the OpenAPI document (as extensions: ajv-formats\' keywords are not JSON Schema), and still enforces it', async () => {
    const document = (await harness.current.request({ url: '/api/v1/openapi.json' }))
      .json<{ paths: Record<string, { get: { parameters: { name: string, schema: Record<string, unknown> }[] } }> }>()
    const date = document.paths['/api/v1/public/{clubSlug}/courts']?.get.parameters.find((parameter) => parameter.name === 'date')
    expect(date?.schema).toMatchObject({ 'format': 'date', 'x-formatMinimum': '2000-01-01', 'x-formatMaximum': '2099-12-31' })
    expect(date?.schema).not.toHaveProperty('formatMinimum')
    // Describing the schema leaves the one that validates as it was.
    expect((await harness.current.request({ url: '/api/v1/public/riverside/courts?date=1999-12-31' })).status).toBe(400)
  })

  it('answers an unknown club with 404 club-not-found', async () => {
    const response = await harness.current.request({ url: '/api/v1/public/nowhere/courts' })
    expect(response.status).toBe(404)
    expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/club-not-found')
  })
})

describe('public rate limit', () => {
  const harness = useHarness('sqlite', async (h) => {
    await setUpCourts(h, 'limited')
  }, { env: { PUBLIC_RATE_CAPACITY: '3', PUBLIC_RATE_PER_MINUTE: '60' } })

  it('answers 429 with Retry-After when one client IP exceeds its bucket, and admits it again after refill', async () => {
    const h = harness.current
    const get = () => h.request({ url: `/api/v1/public/limited/courts?date=${TUESDAY}` })
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200)
    const limited = await get()
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('1')
    expect(limited.json<{ type: string }>().type).toBe('/api/v1/problems/rate-limited')
    h.clock.advance(1_000)
    expect((await get()).status).toBe(200)
  })
})
