import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { isoForDb } from '../../src/db/values.js'
import { describeEachDatabase, describePostgres } from '../helpers/databases.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { START, useHarness } from '../helpers/harness.js'
import type { ApiResponse } from '../helpers/harness.js'

interface Problem {
  type: string
  detail: string
  code: string
  invalid_params?: { name: string, reason: string, code: string }[]
}
const BOOK = '/api/v1/public/riverside/courts/book'
const at = (time: string, date = TUESDAY) => `${date}T${time}:00+02:00`

describeEachDatabase('court booking', (dialect) => {
  let otherCourt = ''
  const harness = useHarness(dialect, async (h) => {
    await setUpCourts(h, 'riverside')
    const other = await h.createClub('elsewhere')
    otherCourt = randomUUID()
    const { importClubData } = await import('../../src/services/import.js')
    await importClubData(h.context.db, h.clock, other.id, { courts: [{ id: otherCourt, name: 'Foreign court' }] })
  })
  let counter = 0
  const booking = (overrides: Record<string, unknown> = {}) => ({
    court_id: COURT.a, start_time: at('08:00'), end_time: at('09:00'), booker_name: 'Gina Guest',
    booker_email: `guest${String(++counter)}@example.org`, ...overrides,
  })
  const book = (payload: unknown, headers: Record<string, string> = {}, path = BOOK) =>
    harness.current.request({ method: 'POST', url: path, payload: payload as Record<string, unknown>, headers })
  /** The problem's type, its code, and — for a reason of one field — that field in `invalid_params` with the same code. */
  const expectProblem = (response: ApiResponse, type: string, code?: string, field?: string) => {
    expect(response.status, response.body).toBe(type === 'club-not-found' ? 404 : 400)
    const problem = response.json<Problem>()
    expect(problem.type).toBe(`/api/v1/problems/${type}`)
    if (code !== undefined) expect(problem.code).toBe(code)
    if (field !== undefined) expect(problem.invalid_params).toEqual([{ name: field, reason: problem.detail, code }])
  }
  const count = async (table: 'bookings' | 'mail_outbox') => (await harness.current.context.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n

  it('books a free slot: 201 with the id, the slot shows booked, and one mail waits in the outbox', async () => {
    const response = await book(booking({ start_time: at('13:00'), end_time: at('15:00'), notes: 'Bring balls' }))
    expect(response.status).toBe(201)
    const body = response.json<{ success: boolean, booking_id: string }>()
    expect(body.success).toBe(true)
    expect(body.booking_id).toMatch(/^[0-9a-f-]{36}$/)
    const slots = (await harness.current.request({ url: `/api/v1/public/riverside/courts?date=${TUESDAY}` }))
      .json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
      .filter((slot) => slot.court_id === COURT.a && ['13:00', '14:00'].includes(slot.start_time.slice(11, 16)))
    expect(slots.map((slot) => slot.status)).toEqual(['booked', 'booked'])
    const mail = await harness.current.context.db.selectFrom('mail_outbox').selectAll()
      .where('booking_id', '=', body.booking_id).execute()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({ status: 'pending', recipient_name: 'Gina Guest' })
    expect(mail[0]?.text_body).toContain(body.booking_id)
  })

  it('links a booking by a member\'s e-mail (any case) to the member, and a stranger\'s to nobody', async () => {
    const member = (await book(booking({ court_id: COURT.b, start_time: at('18:00'), end_time: at('18:30'),
      booker_email: 'MARA@example.ORG' }))).json<{ booking_id: string }>()
    const guest = (await book(booking({ court_id: COURT.b, start_time: at('18:30'), end_time: at('19:00') })))
      .json<{ booking_id: string }>()
    const rows = await harness.current.context.db.selectFrom('bookings').select(['id', 'member_id'])
      .where('id', 'in', [member.booking_id, guest.booking_id]).execute()
    expect(rows.find((row) => row.id === member.booking_id)?.member_id).not.toBeNull()
    expect(rows.find((row) => row.id === guest.booking_id)?.member_id).toBeNull()
  })

  it.each([
    ['an unknown court', { court_id: randomUUID() }, 'court_unknown', 'court_id'],
    ['an inactive court', { court_id: COURT.inactive }, 'court_unknown', 'court_id'],
    ['a start off the grid', { start_time: at('08:30'), end_time: at('09:30') }, 'off_grid', 'start_time'],
    ['an end off the grid', { end_time: at('09:15') }, 'off_grid', 'start_time'],
    ['a time outside opening hours', { start_time: at('06:00'), end_time: at('07:00') }, 'outside_opening_hours', 'start_time'],
    ['a closed day', { court_id: COURT.b, start_time: at('18:00', '2026-06-20'), end_time: at('18:30', '2026-06-20') },
      'court_closed', 'start_time'],
    ['a start in the past', { start_time: at('08:00', '2026-06-15'), end_time: at('09:00', '2026-06-15') }, 'start_in_past',
      'start_time'],
    ['a start beyond the horizon', { start_time: at('08:00', '2026-06-30'), end_time: at('09:00', '2026-06-30') }, 'beyond_horizon',
      'start_time'],
    ['too many slots', { start_time: at('08:00'), end_time: at('11:00') }, 'too_many_slots', 'end_time'],
    ['an end before the start', { start_time: at('09:00'), end_time: at('08:00') }, 'end_before_start', 'end_time'],
    ['an end equal to the start', { end_time: at('08:00') }, 'end_before_start', 'end_time'],
    ['a time without offset', { start_time: `${TUESDAY}T08:00:00` }, 'invalid_date_time', 'start_time'],
    ['a bad e-mail', { booker_email: 'not-an-email' }, 'invalid_email', 'booker_email'],
    ['an empty name', { booker_name: '' }, 'blank', 'booker_name'],
    ['a name of spaces alone', { booker_name: '   ' }, 'blank', 'booker_name'],
    ['a name with a line break', { booker_name: 'Eve\r\nBcc: victim@example.org' }, 'invalid_characters', 'booker_name'],
    ['a name that is too long', { booker_name: 'x'.repeat(101) }, 'too_long', 'booker_name'],
    ['notes that are too long', { notes: 'x'.repeat(501) }, 'too_long', 'notes'],
    ['an unknown field', { price: 0 }, 'unknown_field', 'price'],
    ['a missing field', { court_id: undefined }, 'required', 'court_id'],
    ['a court id that is not a uuid', { court_id: 'court-1' }, 'invalid_id', 'court_id'],
  ])('refuses %s as invalid-booking and changes nothing', async (_case, overrides, code, field) => {
    const before = await count('bookings')
    expectProblem(await book(JSON.parse(JSON.stringify(booking(overrides))) as unknown), 'invalid-booking', code, field)
    expect(await count('bookings')).toBe(before)
  })

  it('refuses a court of another club as invalid-booking', async () => {
    expectProblem(await book(booking({ court_id: otherCourt })), 'invalid-booking', 'court_unknown', 'court_id')
  })

  it('names every bad field of a form at once, each with its code, in the guest\'s language', async () => {
    const before = await count('bookings')
    const response = await book({ court_id: 'court-1', start_time: 'tomorrow', end_time: at('09:00'), booker_name: '',
      booker_email: 'not-an-email', notes: 'x'.repeat(501) }, { 'accept-language': 'de-DE,de;q=0.9' })
    expectProblem(response, 'invalid-booking', 'invalid_id')
    const problem = response.json<Problem>()
    expect(problem.invalid_params?.map((param) => [param.name, param.code])).toEqual([['court_id', 'invalid_id'],
      ['start_time', 'invalid_date_time'], ['booker_name', 'blank'], ['booker_email', 'invalid_email'], ['notes', 'too_long']])
    expect(problem.invalid_params?.map((param) => param.reason)).toEqual(['Platz: Das ist keine gültige Kennung.',
      'Beginn: Das ist kein gültiges Datum mit Uhrzeit.', 'Name: Bitte füllen Sie dieses Feld aus.',
      'E-Mail-Adresse: Das ist keine gültige E-Mail-Adresse.', 'Anmerkungen: Bitte höchstens 500 Zeichen.'])
    expect(problem.detail).toBe(problem.invalid_params?.map((param) => param.reason).join(' '))
    expect(response.headers['content-language']).toBe('de')
    expect(await count('bookings')).toBe(before)
  })

  it('names a bad name and a bad time of the rules at once', async () => {
    const response = await book(booking({ booker_name: 'Visit www.spam.example', start_time: at('08:30'), end_time: at('09:30') }))
    expect(response.json<Problem>().invalid_params?.map((param) => [param.name, param.code]))
      .toEqual([['start_time', 'off_grid'], ['booker_name', 'name_with_link']])
  })

  it.each([
    ['not JSON', '{ nope', 'application/json'],
    ['not an object', '[1, 2]', 'application/json'],
    ['empty', '', 'application/json'],
  ])('refuses a body that is %s as invalid-booking', async (_case, payload, type) => {
    expectProblem(await book(payload, { 'content-type': type }), 'invalid-booking', 'invalid_body')
  })

  it('refuses a body that is not JSON with 415 and a huge one with 413', async () => {
    const text = await book('court=1', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(text.status).toBe(415)
    const huge = await book({ ...booking(), notes: 'x'.repeat(20_000) })
    expect(huge.status).toBe(413)
  })

  it.each([
    ['a booking', at('15:00'), at('16:00'), 'slot_booked'],
    ['a one-off reservation', at('12:00'), at('13:00'), 'slot_reserved'],
    ['a block', at('10:00'), at('11:00'), 'slot_blocked'],
    ['a weekly reservation', at('18:00'), at('19:00'), 'slot_reserved'],
    ['part of a two-slot booking', at('14:00'), at('16:00'), 'slot_booked'],
  ])('refuses time overlapping %s as slot-conflict', async (_case, start, end, code) => {
    if (_case === 'a booking' || _case === 'part of a two-slot booking') {
      await book(booking({ start_time: at('15:00'), end_time: at('16:00') }))
    }
    expectProblem(await book(booking({ start_time: start, end_time: end })), 'slot-conflict', code)
  })

  it('answers an unknown club with 404 club-not-found', async () => {
    expectProblem(await book(booking(), {}, '/api/v1/public/nowhere/courts/book'), 'club-not-found', 'club_not_found')
  })

  it('allows each e-mail at most two upcoming bookings, and more once they are over', async () => {
    const h = harness.current
    const email = 'busy@example.org'
    const wednesday = '2026-06-17'
    expect((await book(booking({ booker_email: email, start_time: at('08:00', wednesday), end_time: at('09:00', wednesday) }))).status)
      .toBe(201)
    expect((await book(booking({ booker_email: email, start_time: at('09:00', wednesday), end_time: at('10:00', wednesday) }))).status)
      .toBe(201)
    expectProblem(await book(booking({ booker_email: 'Busy@Example.org', start_time: at('10:00', wednesday),
      end_time: at('11:00', wednesday) })), 'invalid-booking', 'address_refused', 'booker_email')
    try {
      h.clock.set(Date.parse(at('09:30', wednesday)))
      expect((await book(booking({ booker_email: email, start_time: at('12:00', wednesday), end_time: at('13:00', wednesday) })))
        .status).toBe(201)
    } finally {
      h.clock.set(START)
    }
  })

  it('answers a retried request with the same Idempotency-Key with the original answer', async () => {
    const request = booking({ start_time: at('09:00', '2026-06-18'), end_time: at('10:00', '2026-06-18') })
    const key = randomUUID()
    const first = await book(request, { 'idempotency-key': key })
    expect(first.status).toBe(201)
    const before = await count('bookings')
    const mails = await count('mail_outbox')
    const retry = await book(request, { 'idempotency-key': key })
    expect(retry.status).toBe(201)
    expect(retry.json()).toEqual(first.json())
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(await count('bookings')).toBe(before)
    expect(await count('mail_outbox')).toBe(mails)
    expectProblem(await book({ ...request, notes: 'changed' }, { 'idempotency-key': key }), 'invalid-booking', 'idempotency_key_reused', 'Idempotency-Key')
    expectProblem(await book(request, { 'idempotency-key': 'bad key with spaces' }), 'invalid-booking', 'idempotency_key_invalid', 'Idempotency-Key')
  })

  it('gives concurrent retries with one Idempotency-Key one booking and the same answer', async () => {
    const request = booking({ start_time: at('11:00', '2026-06-18'), end_time: at('12:00', '2026-06-18') })
    const key = randomUUID()
    const before = await count('bookings')
    const responses = await Promise.all(Array.from({ length: 10 }, () => book(request, { 'idempotency-key': key })))
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201))
    expect(new Set(responses.map((response) => response.json<{ booking_id: string }>().booking_id)).size).toBe(1)
    expect(await count('bookings')).toBe(before + 1)
  })

  it('lets exactly one of 50 simultaneous requests for one slot succeed', async () => {
    const slot = { start_time: at('16:00', '2026-06-19'), end_time: at('17:00', '2026-06-19') }
    const responses = await Promise.all(Array.from({ length: 50 }, () => book(booking(slot))))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    const conflicts = responses.filter((response) => response.status === 400)
    expect(conflicts).toHaveLength(49)
    for (const conflict of conflicts) expect(conflict.json<Problem>().type).toBe('/api/v1/problems/slot-conflict')
  })
})

describeEachDatabase('bookings across midnight', (dialect) => {
  const LATE = randomUUID()
  const harness = useHarness(dialect, async (h) => {
    const { clubId } = await setUpCourts(h, 'night-owls')
    const { importClubData } = await import('../../src/services/import.js')
    // Late court: Tuesday until midnight, Wednesday from 08:00, Friday until midnight, Saturday closed.
    await importClubData(h.context.db, h.clock, clubId, {
      courts: [{ id: LATE, name: 'Late court', opening_hours: { tue: { open: '08:00', close: '24:00' },
        wed: { open: '08:00', close: '22:00' }, fri: { open: '08:00', close: '24:00' } } }],
      court_holds: [{ id: randomUUID(), court_id: COURT.allDay, kind: 'reservation', reason: 'night league', weekday: 'wed',
        start_time: '00:00', end_time: '02:00' }],
    })
  })
  let counter = 0
  const book = (court: string, start: string, end: string) => harness.current.request({ method: 'POST',
    url: '/api/v1/public/night-owls/courts/book', payload: { court_id: court, start_time: start, end_time: end,
      booker_name: 'Nora Night', booker_email: `night${String(++counter)}@example.org` } })
  const day = async (date: string, court: string) => (await harness.current.request({
    url: `/api/v1/public/night-owls/courts?date=${date}` })).json<{ courts: { court_id: string, start_time: string, status: string }[] }>()
    .courts.filter((slot) => slot.court_id === court)
  const problem = (response: ApiResponse) => ({ status: response.status, ...response.json<Problem>() })

  it('books 23:00 to 01:00 on a court open around the clock, and each day\'s listing shows its own slot booked', async () => {
    const response = await book(COURT.allDay, '2026-06-22T23:00:00+02:00', '2026-06-23T01:00:00+02:00')
    expect(response.status, response.body).toBe(201)
    const monday = await day('2026-06-22', COURT.allDay)
    const tuesday = await day('2026-06-23', COURT.allDay)
    expect(monday).toHaveLength(24)
    expect(tuesday).toHaveLength(24)
    expect(monday.filter((slot) => slot.status === 'booked').map((slot) => slot.start_time)).toEqual(['2026-06-22T23:00:00+02:00'])
    expect(tuesday.filter((slot) => slot.status === 'booked').map((slot) => slot.start_time)).toEqual(['2026-06-23T00:00:00+02:00'])
    // The next day's slot is taken.
    expect(problem(await book(COURT.allDay, '2026-06-23T00:00:00+02:00', '2026-06-23T01:00:00+02:00')))
      .toMatchObject({ status: 400, type: '/api/v1/problems/slot-conflict' })
  })

  it('refuses a booking into a weekly reservation of the next day as slot-conflict', async () => {
    expect(problem(await book(COURT.allDay, '2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00')))
      .toMatchObject({ status: 400, type: '/api/v1/problems/slot-conflict', detail: expect.stringMatching(/reserved/) as unknown })
    expect((await day('2026-06-16', COURT.allDay)).at(-1)?.status).toBe('available')
    expect((await day('2026-06-17', COURT.allDay)).slice(0, 3).map((slot) => slot.status)).toEqual(['reserved', 'reserved', 'available'])
  })

  it.each([
    ['the autumn change', '2026-10-24T23:00:00+02:00', '2026-10-25T01:00:00+02:00', '2026-10-25', 25],
    ['the spring change', '2027-03-27T23:00:00+01:00', '2027-03-28T01:00:00+01:00', '2027-03-28', 23],
  ])('books across midnight into the day of %s, whose grid stays as it was', async (_case, start, end, date, slots) => {
    expect((await book(COURT.allDay, start, end)).status).toBe(201)
    const next = await day(date, COURT.allDay)
    expect(next).toHaveLength(slots)
    expect(next.map((slot) => slot.status).slice(0, 2)).toEqual(['booked', 'available'])
    expect(next[0]?.start_time).toBe(`${date}T00:00:00${start.slice(-6)}`)
  })

  it.each([
    ['past closing of a court that closes at 22:00', COURT.a, '2026-06-16T21:00:00+02:00', '2026-06-16T23:00:00+02:00',
      'Court A is open 08:00–22:00 on Tuesday 16 June. Please choose a time within these hours.'],
    ['before opening, naming a closing time of 24:00', LATE, '2026-06-16T06:00:00+02:00', '2026-06-16T07:00:00+02:00',
      'Late court is open 08:00–24:00 on Tuesday 16 June. Please choose a time within these hours.'],
    ['into a day that opens at 08:00', LATE, '2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00',
      'The booking runs past midnight into Wednesday 17 June, outside the opening hours of Late court.'],
    ['into a closed day', LATE, '2026-06-19T23:00:00+02:00', '2026-06-20T01:00:00+02:00',
      'The booking runs past midnight into Saturday 20 June, outside the opening hours of Late court.'],
    ['more slots than allowed across midnight', COURT.allDay, '2026-06-18T22:00:00+02:00', '2026-06-19T01:00:00+02:00',
      'One booking of Court D (floodlit) covers at most 2 times.'],
    ['an end off the next day\'s grid', COURT.allDay, '2026-06-18T23:00:00+02:00', '2026-06-19T00:30:00+02:00',
      'Court D (floodlit) is booked in times of 60 minutes from 00:00. Please choose times from the grid.'],
  ])('refuses a booking %s as invalid-booking, saying so', async (_case, court, start, end, detail) => {
    const before = await harness.current.context.db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(problem(await book(court, start, end))).toMatchObject({ status: 400, type: '/api/v1/problems/invalid-booking', detail })
    expect(await harness.current.context.db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()).toEqual(before)
  })
})

describePostgres('the booking constraint', () => {
  let clubId = ''
  const harness = useHarness('postgres', async (h) => {
    ({ clubId } = await setUpCourts(h, 'constraint'))
  })

  it('has a database constraint that refuses overlapping bookings whatever the application does', async () => {
    const db = harness.current.context.db
    const row = (start: string, end: string) => ({
      id: randomUUID(), club_id: clubId, court_id: COURT.allDay, starts_at: isoForDb(start), ends_at: isoForDb(end),
      booker_name: 'Direct', booker_email: 'direct@example.org', member_id: null, notes: null, created_at: isoForDb(START),
    })
    await db.insertInto('bookings').values(row(at('05:00', '2026-07-01'), at('06:00', '2026-07-01'))).execute()
    await expect(db.insertInto('bookings').values(row(at('05:30', '2026-07-01'), at('06:30', '2026-07-01'))).execute())
      .rejects.toMatchObject({ code: '23P01' })
    // Touching intervals do not overlap.
    await db.insertInto('bookings').values(row(at('06:00', '2026-07-01'), at('07:00', '2026-07-01'))).execute()
    const constraint = await sql<{ n: number }>`select count(*)::int as n from pg_constraint where conname = 'bookings_no_overlap'`
      .execute(db)
    expect(constraint.rows[0]?.n).toBe(1)
  })
})
