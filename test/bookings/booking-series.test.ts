/**
 * Weekly series (admin API and command line): a 12-week series with two dates in the way (a guest's
 * booking, a block) is previewed with both named; saved all-or-nothing it books nothing, saved
 * skipping collisions it books the ten free dates as bookings of the member, mailing nobody; one
 * occurrence moves like any booking; the rest is cancelled from a date on without mails; another
 * club's series is not found; a series saved while guests book its dates at the same moment shares
 * no slot with them. Both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { isoForDb } from '../../src/db/values.js'
import { addDays } from '../../src/domain/zoned-time.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const WEEKS = Array.from({ length: 12 }, (_, i) => addDays(TUESDAY, 7 * i))

describeEachDatabase('weekly series', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>
  let seriesId = ''

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { PUBLIC_URL: 'https://clubs.example', BOOKING_MAX_OPEN_PER_EMAIL: '50',
      BOOKING_RATE_CAPACITY: '100' } })
    const { clubId } = await setUpCourts(h, 'riverside')
    await h.createClub('hillside')
    owner = asSession(h, await signedIn(h, clubId, 'olga@riverside.example', 'owner'))
    // In the way: a guest's booking in week 3, a block in week 7.
    const guest = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { court_id: COURT.allDay,
      start_time: at(WEEKS[2] ?? '', '18:00'), end_time: at(WEEKS[2] ?? '', '19:00'), booker_name: 'Gina', booker_email: 'gina@example.org' } })
    expect(guest.status, guest.body).toBe(201)
    const block = await owner('POST', `/api/admin/v1/clubs/riverside/courts/${COURT.allDay}/holds`, { kind: 'block',
      starts_at: at(WEEKS[6] ?? '', '17:00'), ends_at: at(WEEKS[6] ?? '', '20:00') })
    expect(block.status, block.body).toBe(201)
  })
  afterAll(async () => {
    await h.close()
  })

  const body = { court_id: COURT.allDay, start_time: '18:00', end_time: '19:00', first_date: WEEKS[0], last_date: WEEKS[11],
    booker_name: 'Mara Member', booker_email: 'mara@example.org', notes: 'Season slot' }
  const seriesBookings = () => h.context.db.selectFrom('bookings').select(['id', 'starts_at', 'status', 'member_id', 'series_id'])
    .where('series_id', 'is not', null).orderBy('starts_at').execute()
  const outbox = async () => Number((await h.context.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()).n)

  it('previews the 12 dates with the two in the way named, and saved all-or-nothing books none', async () => {
    const preview = await owner('POST', '/api/admin/v1/clubs/riverside/series/preview', body)
    expect(preview.status, preview.body).toBe(200)
    const { occurrences } = preview.json<{ occurrences: { date: string, start_time: string, status: string }[] }>()
    expect(occurrences.map((occurrence) => occurrence.date)).toEqual(WEEKS)
    expect(occurrences.map((occurrence) => occurrence.status)).toEqual(['free', 'free', 'booked', 'free', 'free', 'free', 'blocked',
      'free', 'free', 'free', 'free', 'free'])
    expect(occurrences[0]?.start_time).toBe(at(TUESDAY, '18:00'))

    const refused = await owner('POST', '/api/admin/v1/clubs/riverside/series', { ...body, collisions: 'refuse' })
    expect([refused.status, refused.json<{ type: string }>().type]).toEqual([400, '/api/v1/problems/slot-conflict'])
    expect(refused.json<{ detail: string }>().detail).toContain(`${WEEKS[2] ?? ''} (booked), ${WEEKS[6] ?? ''} (blocked)`)
    expect(await seriesBookings()).toEqual([])
    for (const wrong of [{ ...body, end_time: '17:00' }, { ...body, last_date: addDays(TUESDAY, -7) },
      { ...body, last_date: addDays(TUESDAY, 7 * 60) }, { ...body, start_time: '18:30', end_time: '19:30' }]) {
      const response = await owner('POST', '/api/admin/v1/clubs/riverside/series/preview', wrong)
      if (wrong.start_time === '18:30') {
        // Off the court's hourly grid: every date is listed as not bookable, with why.
        expect(response.json<{ occurrences: { status: string }[] }>().occurrences.every((entry) => entry.status === 'invalid')).toBe(true)
      } else {
        expect(response.status, JSON.stringify(wrong)).toBe(400)
      }
    }
  })

  it('books the ten free dates for the member without a mail, each a booking the listing shows', async () => {
    const before = await outbox()
    const saved = await owner('POST', '/api/admin/v1/clubs/riverside/series', { ...body, collisions: 'skip' })
    expect(saved.status, saved.body).toBe(201)
    const created = saved.json<{ id: string, booking_ids: string[], skipped: { date: string, status: string }[] }>()
    seriesId = created.id
    expect(created.booking_ids).toHaveLength(10)
    expect(created.skipped.map((entry) => [entry.date, entry.status])).toEqual([[WEEKS[2], 'booked'], [WEEKS[6], 'blocked']])
    const rows = await seriesBookings()
    expect(rows.map((row) => row.id)).toEqual(created.booking_ids)
    expect(new Set(rows.map((row) => row.member_id)).size).toBe(1)
    expect(rows[0]?.member_id).not.toBeNull()
    expect(await outbox()).toBe(before)
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${WEEKS[3] ?? ''}` })
    expect(listing.json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
      .find((slot) => slot.court_id === COURT.allDay && slot.start_time === at(WEEKS[3] ?? '', '18:00'))?.status).toBe('booked')
    const audit = await h.context.db.selectFrom('audit_log').select(['action', 'target_name', 'detail']).where('target', '=', seriesId)
      .execute()
    expect(audit).toEqual([{ action: 'series.created',
      target_name: `Court D (floodlit), weekly 18:00–19:00, ${WEEKS[0] ?? ''} to ${WEEKS[11] ?? ''}`,
      detail: `10 bookings; not booked: ${WEEKS[2] ?? ''}, ${WEEKS[6] ?? ''}` }])
  })

  it('moves one occurrence as a booking, and cancels the rest from a date without mails', async () => {
    const rows = await seriesBookings()
    const fourth = rows[2]?.id ?? ''
    const moved = await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${fourth}/move`, { court_id: COURT.allDay,
      start_time: at(WEEKS[3] ?? '', '20:00'), end_time: at(WEEKS[3] ?? '', '21:00'), notify_guest: false })
    expect(moved.status, moved.body).toBe(200)
    const before = await outbox()
    const cancelled = await owner('POST', `/api/admin/v1/clubs/riverside/series/${seriesId}/cancel`, { from: WEEKS[4],
      reason: 'The team moved to another club' })
    expect([cancelled.status, cancelled.json()]).toEqual([200, { cancelled: 7 }])
    expect(await outbox()).toBe(before)
    const after = await seriesBookings()
    expect(after.map((row) => row.status)).toEqual(['confirmed', 'confirmed', 'confirmed', 'cancelled', 'cancelled', 'cancelled',
      'cancelled', 'cancelled', 'cancelled', 'cancelled'])
    // Again: nothing more to cancel.
    expect((await owner('POST', `/api/admin/v1/clubs/riverside/series/${seriesId}/cancel`, { from: WEEKS[4] })).json())
      .toEqual({ cancelled: 0 })
    // Another club's view of it: no such series.
    const foreign = await owner('POST', `/api/admin/v1/clubs/riverside/series/00000000-0000-4000-8000-000000000000/cancel`,
      { from: WEEKS[4] })
    expect(foreign.status).toBe(404)
  })

  it('shares no slot with guests booking its dates while it is saved', async () => {
    const slot = (date: string) => ({ court_id: COURT.allDay, start_time: at(date, '14:00'), end_time: at(date, '15:00') })
    const race = { ...body, start_time: '14:00', end_time: '15:00', booker_name: 'Race team', booker_email: 'race@example.org' }
    for (const collisions of ['skip', 'refuse'] as const) {
      const dates = collisions === 'skip' ? WEEKS : WEEKS.map((date) => addDays(date, 1))
      const [series, ...guests] = await Promise.all([
        owner('POST', '/api/admin/v1/clubs/riverside/series', { ...race, first_date: dates[0], last_date: dates[11], collisions }),
        ...dates.filter((_, i) => i % 2 === 0).map((date, i) => h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book',
          payload: { ...slot(date), booker_name: `Racer ${String(i)}`, booker_email: `racer${String(i)}@example.org` } })),
      ])
      const active = await h.context.db.selectFrom('bookings').select(['starts_at', 'series_id'])
        .where('court_id', '=', COURT.allDay).where('status', '=', 'confirmed')
        .where('starts_at', 'in', dates.map((date) => isoForDb(Date.parse(at(date, '14:00')))))
        .execute()
      const won = guests.filter((answer) => answer.status === 201).length
      // Every guest who lost was told the slot is taken; each slot holds one booking at most.
      expect(guests.every((answer) => answer.status === 201 || answer.json<{ type: string }>().type === '/api/v1/problems/slot-conflict'))
        .toBe(true)
      const seriesBooked = series.status === 201 ? series.json<{ booking_ids: string[] }>().booking_ids.length : 0
      expect(seriesBooked + won, `${collisions}: series ${String(series.status)}, guests ${String(won)}`).toBe(active.length)
      expect(new Set(active.map((row) => String(row.starts_at))).size).toBe(active.length)
      // Skipping, the series takes every date the guests did not; refusing, all twelve or none.
      if (collisions === 'skip') expect(active).toHaveLength(12)
      else expect(seriesBooked === 0 || (seriesBooked === 12 && won === 0)).toBe(true)
    }
  })

  it('previews, books and cancels from the command line', async () => {
    const args = ['--club', 'riverside', '--court', COURT.allDay, '--start', '08:00', '--end', '09:00', '--from', TUESDAY,
      '--until', WEEKS[3] ?? '', '--name', 'Early group']
    const preview = await cli(h.database.env, ['series', 'preview', ...args, '--json'], h.clock)
    expect(preview.code, preview.stderr).toBe(0)
    expect(preview.json<{ status: string }[]>().map((entry) => entry.status)).toEqual(['free', 'free', 'free', 'free'])
    const created = await cli(h.database.env, ['series', 'create', ...args, '--refuse-collisions', '--json'], h.clock)
    expect(created.code, created.stderr).toBe(0)
    const { id, booking_ids: ids } = created.json<{ id: string, booking_ids: string[] }>()
    expect(ids).toHaveLength(4)
    const cancelled = await cli(h.database.env, ['series', 'cancel', id, '--club', 'riverside', '--from', WEEKS[2] ?? '', '--json'],
      h.clock)
    expect(cancelled.json<{ cancelled: number }>().cancelled).toBe(2)
    const elsewhere = await cli(h.database.env, ['series', 'cancel', id, '--club', 'hillside', '--from', TUESDAY], h.clock)
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.stderr).toContain(`no series ${id} at hillside`)
  })
})
