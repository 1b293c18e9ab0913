/**
 * Bookings at the edges of the rules: the day's last slot, a start exactly now or exactly at the
 * horizon, half-off-grid requests, weekly holds on the first and last day they are valid, zones
 * west of UTC and the DST gap, and the idempotency record when the world changed in between.
 */
import { createHash } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { formatInZone, localToInstant } from '../../src/domain/zoned-time.js'
import { toProblemError } from '../../src/http/problems.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase, describePostgres } from '../helpers/databases.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { idFor } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import type { ApiResponse } from '../helpers/harness.js'

interface Problem { type: string, detail: string, code: string }
const at = (date: string, time: string) => `${date}T${time}:00+02:00`

describe('zoned time west of UTC and across DST changes', () => {
  it('formats negative and half-hour offsets', () => {
    expect(formatInZone(Date.parse('2026-06-16T12:00:00Z'), 'America/New_York')).toBe('2026-06-16T08:00:00-04:00')
    expect(formatInZone(Date.parse('2026-01-16T12:00:00Z'), 'America/New_York')).toBe('2026-01-16T07:00:00-05:00')
    expect(formatInZone(Date.parse('2026-01-16T12:00:00Z'), 'America/St_Johns')).toBe('2026-01-16T08:30:00-03:30')
    expect(formatInZone(Date.parse('2026-06-16T12:00:00Z'), 'America/St_Johns')).toBe('2026-06-16T09:30:00-02:30')
    expect(formatInZone(Date.parse('2026-06-16T12:00:00Z'), 'Pacific/Honolulu')).toBe('2026-06-16T02:00:00-10:00')
  })

  it('moves a local time inside the spring-forward gap forward by the gap, and takes the earlier of a doubled time', () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT; 02:30 does not exist and means 03:30 EDT.
    expect(localToInstant('2026-03-08', 2 * 60 + 30, 'America/New_York')).toBe(Date.parse('2026-03-08T07:30:00Z'))
    expect(localToInstant('2026-03-08', 3 * 60, 'America/New_York')).toBe(Date.parse('2026-03-08T07:00:00Z'))
    expect(localToInstant('2026-03-08', 60 + 59, 'America/New_York')).toBe(Date.parse('2026-03-08T06:59:00Z'))
    // 2026-11-01: 01:30 happens twice (EDT, then EST): the earlier.
    expect(localToInstant('2026-11-01', 90, 'America/New_York')).toBe(Date.parse('2026-11-01T05:30:00Z'))
    // Berlin, 2026-03-29: 02:30 does not exist.
    expect(localToInstant('2026-03-29', 150, 'Europe/Berlin')).toBe(Date.parse('2026-03-29T01:30:00Z'))
  })
})

describeEachDatabase('booking boundaries', (dialect) => {
  const HOLDS = { from: idFor('boundary:from'), until: idFor('boundary:until') }
  const harness = useHarness(dialect, async (h) => {
    const { clubId } = await setUpCourts(h, 'riverside')
    // Weekly reservations on Tuesdays, valid from and until a Tuesday (both inclusive), and from and until the days next to it.
    await importClubData(h.context.db, h.clock, clubId, { court_holds: [
      { id: HOLDS.from, court_id: COURT.allDay, kind: 'reservation', reason: 'Tuesday league', weekday: 'tue', start_time: '10:00',
        end_time: '11:00', valid_from: '2026-06-16', valid_until: '2026-06-23' },
      { id: HOLDS.until, court_id: COURT.allDay, kind: 'reservation', reason: 'Tuesday juniors', weekday: 'tue', start_time: '12:00',
        end_time: '13:00', valid_from: '2026-06-17', valid_until: '2026-06-29' },
    ] })
  })
  let counter = 0
  type Fields = Record<string, unknown>
  const book = (court: string, start: string, end: string, extra: Fields = {}, headers: Record<string, string> = {}) =>
    harness.current.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', headers, payload: {
      court_id: court, start_time: start, end_time: end, booker_name: 'Bo Boundary', booker_email: `edge${String(++counter)}@example.org`,
      ...extra } })
  const expectRefused = (response: ApiResponse, type: string, code: string) => {
    expect(response.status, response.body).toBe(400)
    expect(response.json<Problem>().type).toBe(`/api/v1/problems/${type}`)
    expect(response.json<Problem>().code).toBe(code)
  }
  const statusAt = async (date: string, time: string) => (await harness.current
    .request({ url: `/api/v1/public/riverside/courts?date=${date}` })).json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
    .find((slot) => slot.court_id === COURT.allDay && slot.start_time.slice(11, 16) === time)?.status

  it('books the day\'s last slot, which ends exactly at closing', async () => {
    expect((await book(COURT.a, at(TUESDAY, '21:00'), at(TUESDAY, '22:00'))).status).toBe(201)
    expectRefused(await book(COURT.a, at(TUESDAY, '21:00'), at(TUESDAY, '23:00')), 'invalid-booking', 'outside_opening_hours')
  })

  it('refuses a start exactly now, and accepts one a millisecond ahead', async () => {
    const h = harness.current
    try {
      h.clock.set(Date.parse(at('2026-06-17', '09:00')))
      expectRefused(await book(COURT.a, at('2026-06-17', '09:00'), at('2026-06-17', '10:00')), 'invalid-booking', 'start_in_past')
      h.clock.set(Date.parse(at('2026-06-17', '09:00')) - 1)
      expect((await book(COURT.a, at('2026-06-17', '09:00'), at('2026-06-17', '10:00'))).status).toBe(201)
    } finally {
      h.clock.set(START)
    }
  })

  it('refuses a start exactly at the horizon (14 days), and accepts the slot before it', async () => {
    // START is Monday 2026-06-15 12:00 in Berlin; the horizon is Monday 2026-06-29 12:00.
    expectRefused(await book(COURT.a, at('2026-06-29', '12:00'), at('2026-06-29', '13:00')), 'invalid-booking', 'beyond_horizon')
    expect((await book(COURT.a, at('2026-06-29', '11:00'), at('2026-06-29', '12:00'))).status).toBe(201)
  })

  it('refuses requests half off the grid, at either end', async () => {
    for (const [start, end] of [['08:30', '10:00'], ['08:00', '09:30'], ['08:01', '09:00'], ['08:00', '08:59']] as const) {
      expectRefused(await book(COURT.a, at('2026-06-18', start), at('2026-06-18', end)), 'invalid-booking', 'off_grid')
    }
  })

  it('applies a weekly hold on its first and last valid day, and not on the days outside', async () => {
    // valid 2026-06-16 … 2026-06-23: both Tuesdays are reserved, the next is not.
    expect(await statusAt('2026-06-16', '10:00')).toBe('reserved')
    expect(await statusAt('2026-06-23', '10:00')).toBe('reserved')
    expect(await statusAt('2026-06-30', '10:00')).toBe('available')
    // valid 2026-06-17 … 2026-06-29: the Tuesday before and the Tuesday after are free.
    expect(await statusAt('2026-06-16', '12:00')).toBe('available')
    expect(await statusAt('2026-06-23', '12:00')).toBe('reserved')
    expect(await statusAt('2026-06-30', '12:00')).toBe('available')
    expectRefused(await book(COURT.allDay, at('2026-06-16', '10:00'), at('2026-06-16', '11:00')), 'slot-conflict', 'slot_reserved')
    expectRefused(await book(COURT.allDay, at('2026-06-23', '10:00'), at('2026-06-23', '11:00')), 'slot-conflict', 'slot_reserved')
    expect((await book(COURT.allDay, at('2026-06-30', '10:00'), at('2026-06-30', '11:00'))).status).toBe(201)
    expect((await book(COURT.allDay, at('2026-06-16', '12:00'), at('2026-06-16', '13:00'))).status).toBe(201)
  })

  it('replays an idempotent booking after the world changed, and only for the same request', async () => {
    const h = harness.current
    const payload = { booker_email: 'idem@example.org', notes: 'Two players' }
    const key = { 'idempotency-key': 'boundary-retry-1' }
    const first = await book(COURT.a, at('2026-06-19', '09:00'), at('2026-06-19', '10:00'), payload, key)
    expect(first.status).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const id = first.json<{ booking_id: string }>().booking_id
    const manageLink = first.json<{ manage_url: string }>().manage_url
    expect(manageLink).toMatch(/^http:\/\/[^/]+\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43}$/)
    // Same key, different notes: another request.
    expectRefused(await book(COURT.a, at('2026-06-19', '09:00'), at('2026-06-19', '10:00'), { ...payload, notes: 'Four players' }, key),
      'invalid-booking', 'idempotency_key_reused')
    try {
      // The slot has started meanwhile: a retry still gets the original answer, not "in the past".
      h.clock.set(Date.parse(at('2026-06-19', '09:30')))
      const retried = await book(COURT.a, at('2026-06-19', '09:00'), at('2026-06-19', '10:00'), payload, key)
      expect(retried.status).toBe(201)
      expect(retried.headers['idempotent-replayed']).toBe('true')
      expect(retried.json<{ booking_id: string }>().booking_id).toBe(id)
      // The retry has the booking's page too, as the first answer had it: the page of this booking.
      expect(retried.json<{ manage_url?: string }>().manage_url).toBe(manageLink)
    } finally {
      h.clock.set(START)
    }
    const page = await h.app.inject({ url: new URL(manageLink).pathname })
    expect([page.statusCode, page.body.includes('Court A')]).toEqual([200, true])
    // The record keeps neither the key nor the token as they are: its hash, and the token sealed under the key.
    const record = await h.context.db.selectFrom('booking_requests').selectAll().where('booking_id', '=', id).executeTakeFirstOrThrow()
    const token = manageLink.slice(manageLink.lastIndexOf('/') + 1)
    expect(record.idempotency_key).toBe(createHash('sha256').update('boundary-retry-1').digest('hex'))
    expect(JSON.stringify(record)).not.toContain('boundary-retry-1')
    expect(JSON.stringify(record)).not.toContain(token)
    expect(record.manage_token_sealed).toMatch(/^[A-Za-z0-9_-]{80,}$/)
  })
})

it('answers 503 with Retry-After, not 500, for a deadlock or serialisation failure that outlasted its retries', () => {
  for (const code of ['40P01', '40001']) {
    const problem = toProblemError(Object.assign(new Error('deadlock detected'), { code }))
    expect(problem.kind).toBe('service-unavailable')
    expect(problem.headers['retry-after']).toBe('1')
  }
})

describePostgres('a booking that meets a deadlock', () => {
  const harness = useHarness('postgres', async (h) => {
    await setUpCourts(h, 'riverside')
  })

  it('is run again and succeeds once the other transaction gave way', async () => {
    const h = harness.current
    const other = new pg.Client({ connectionString: h.database.env.DATABASE_URL })
    const observer = new pg.Client({ connectionString: h.database.env.DATABASE_URL })
    await other.connect()
    await observer.connect()
    try {
      // The other transaction holds the outbox: the booking locks its court, then waits to write its mail.
      await other.query('begin; lock table mail_outbox in share row exclusive mode')
      const booking = h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { court_id: COURT.a,
        start_time: at('2026-06-18', '15:00'), end_time: at('2026-06-18', '16:00'), booker_name: 'Dee Deadlock',
        booker_email: 'deadlock@example.org' } })
      await expect.poll(async () => (await observer.query('select 1 from pg_stat_activity where wait_event_type = \'Lock\' '
        + 'and datname = current_database()')).rowCount, { timeout: 5_000 }).toBe(1)
      // Now it wants the court the booking holds: a deadlock, which PostgreSQL breaks by aborting the booking (40P01).
      await other.query('select id from courts where id = $1 for update', [COURT.a])
      await other.query('rollback')
      const answer = await booking
      expect(answer.status, answer.body).toBe(201)
      const stored = await h.context.db.selectFrom('bookings').select('id').where('booker_email', '=', 'deadlock@example.org').execute()
      expect(stored).toHaveLength(1)
    } finally {
      await other.end()
      await observer.end()
    }
  })
})
