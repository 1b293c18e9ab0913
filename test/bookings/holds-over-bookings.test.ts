/**
 * A block or reservation laid over upcoming bookings never hides them: it is refused, naming the
 * bookings, unless it is asked to cancel them, when each guest gets a cancellation mail (without the
 * club's internal reason) and the listing shows the hold. One-off and weekly holds, from the command
 * line and from an import file, on both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { importClubData } from '../../src/services/import.js'
import { idFor } from '../helpers/fixtures.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`

describeEachDatabase('holds over bookings', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let clubId = ''
  let env: Record<string, string> = {}

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { BOOKING_MAX_OPEN_PER_EMAIL: '20' } })
    clubId = (await setUpCourts(h, 'riverside')).clubId
    env = h.database.env
  })
  afterAll(async () => {
    await h.close()
  })
  const book = async (date: string, from: string, to: string) => {
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: at(date, from), end_time: at(date, to), booker_name: 'Gina Guest',
      booker_email: `gina.${date}.${from.replace(':', '')}@example.org` } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }
  const stored = (id: string) => h.context.db.selectFrom('bookings').select(['status', 'cancelled_by', 'cancel_reason'])
    .where('id', '=', id).executeTakeFirstOrThrow()
  const holdCount = async () => (await h.context.db.selectFrom('court_holds').select('id').where('club_id', '=', clubId).execute()).length
  const hold = (...extra: string[]) => cli(env, ['courts', 'hold', '--club', 'riverside', '--court', COURT.allDay, '--json', ...extra],
    h.clock)
  const statusAt = async (date: string, time: string) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    return listing.json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
      .find((slot) => slot.court_id === COURT.allDay && slot.start_time === at(date, time))?.status
  }

  it('refuses a one-off block over a booking, naming it, and changes nothing', async () => {
    const id = await book(TUESDAY, '08:00', '09:00')
    const before = await holdCount()
    const refused = await hold('--kind', 'block', '--from', at(TUESDAY, '07:30'), '--to', at(TUESDAY, '08:30'), '--reason', 'drainage')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`covers 1 upcoming booking (2026-06-16T08:00:00+02:00, booking ${id})`)
    expect(await holdCount()).toBe(before)
    expect((await stored(id)).status).toBe('confirmed')
    expect(await statusAt(TUESDAY, '08:00')).toBe('booked')
  })

  it('cancels the bookings under a block when asked, mailing each guest without the club\'s reason', async () => {
    const first = await book(TUESDAY, '10:00', '11:00')
    const second = await book(TUESDAY, '11:00', '12:00')
    const added = await hold('--kind', 'block', '--from', at(TUESDAY, '10:00'), '--to', at(TUESDAY, '12:00'), '--reason',
      'resurfacing by contractor X', '--cancel-bookings')
    expect(added.code, added.stderr).toBe(0)
    expect(added.json()).toMatchObject({ bookings_cancelled: 2 })
    for (const id of [first, second]) {
      expect(await stored(id)).toEqual({ status: 'cancelled', cancelled_by: 'hold', cancel_reason: null })
      const mails = await h.context.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('booking_id', '=', id)
        .orderBy('created_at').execute()
      expect(mails.map((mail) => mail.subject.split(':')[0])).toEqual(['Booking confirmed', 'Booking cancelled'])
      expect(mails[1]?.text_body).toContain('the court is not available at that time after all')
      expect(mails[1]?.text_body).not.toContain('contractor')
    }
    expect(await statusAt(TUESDAY, '10:00')).toBe('blocked')
  })

  it('checks a weekly reservation against every date it covers, in an import file as on the command line', async () => {
    // Wednesday 2026-06-24, 19:00: under a weekly Wednesday reservation 18:00–20:00 from 2026-06-20.
    const id = await book('2026-06-24', '19:00', '20:00')
    const weekly = { id: idFor('hold:weekly-wed'), court_id: COURT.allDay, kind: 'reservation' as const, weekday: 'wed' as const,
      start_time: '18:00', end_time: '20:00', valid_from: '2026-06-20' }
    await expect(importClubData(h.context.db, h.clock, clubId, { court_holds: [weekly] }))
      .rejects.toThrow(/covers 1 upcoming booking/)
    expect((await stored(id)).status).toBe('confirmed')
    // Valid only until the day before: nothing covered, accepted.
    await importClubData(h.context.db, h.clock, clubId, { court_holds: [{ ...weekly, valid_until: '2026-06-23' }] })
    expect((await stored(id)).status).toBe('confirmed')
    // Moved to cover it, with cancellation: the booking goes, the guest is told.
    const summary = await importClubData(h.context.db, h.clock, clubId, { court_holds: [weekly] },
      { displacedBookings: { policy: 'cancel', settings: { mailFrom: 'Club <club@example.org>', publicUrl: new URL('http://127.0.0.1/') } } })
    expect(summary.bookings_cancelled).toBe(1)
    expect(await stored(id)).toMatchObject({ status: 'cancelled', cancelled_by: 'hold' })
    expect(await statusAt('2026-06-24', '19:00')).toBe('reserved')
  })

  it('leaves past bookings and other courts alone', async () => {
    const id = await book(TUESDAY, '14:00', '15:00')
    const sameCourt = await hold('--kind', 'block', '--from', at(TUESDAY, '14:00'), '--to', at(TUESDAY, '15:00'))
    expect(sameCourt.code, sameCourt.stderr).toBe(1)
    const elsewhere = await cli(env, ['courts', 'hold', '--club', 'riverside', '--court', COURT.b, '--kind', 'block', '--from',
      at(TUESDAY, '18:00'), '--to', at(TUESDAY, '19:00'), '--json'], h.clock)
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    const saved = h.clock.now()
    h.clock.set(at(TUESDAY, '15:00'))
    try {
      const later = await hold('--kind', 'block', '--from', at(TUESDAY, '14:00'), '--to', at(TUESDAY, '15:00'))
      expect(later.code, later.stderr).toBe(0)
      expect((await stored(id)).status).toBe('confirmed')
    } finally {
      h.clock.set(saved)
    }
  })
})
