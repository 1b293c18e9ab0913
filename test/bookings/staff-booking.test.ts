/**
 * The club takes a booking itself (admin API and command line): for a member, mailed a confirmation
 * over real SMTP; for a walk-in without an address, mailed nothing then or when moved or cancelled;
 * past the horizon or an address's limits only with an override and its reason, which the audit
 * log records with who; the members-only rule is the public's; a taken slot is `slot-conflict`;
 * an Idempotency-Key replays; the public listing shows the slot booked. Both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { COOKIE, ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const PUBLIC_URL = 'https://clubs.example'

describeEachDatabase('staff bookings', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>
  let cookie = ''

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL, BOOKING_MAX_OPEN_PER_EMAIL: '50' } })
    const { clubId } = await setUpCourts(h, 'riverside')
    cookie = await signedIn(h, clubId, 'olga@riverside.example', 'owner')
    owner = asSession(h, cookie)
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const deliver = () => smtp.deliveredBy(() => h.context.mail.runOnce())
  const book = (body: Record<string, unknown>) => owner('POST', '/api/admin/v1/clubs/riverside/bookings', body)
  const slot = (from: string, to: string, date = TUESDAY, court = COURT.allDay) => ({ court_id: court, start_time: at(date, from),
    end_time: at(date, to) })
  const listed = async (date: string, time: string, court = COURT.allDay) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    return listing.json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
      .find((entry) => entry.court_id === court && entry.start_time === at(date, time))?.status
  }
  const auditOf = (bookingId: string) => h.context.db.selectFrom('audit_log').select(['action', 'actor', 'target_name', 'detail'])
    .where('target', '=', bookingId).execute()

  it('books for a member with a confirmation mail, and records who booked', async () => {
    await deliver()
    const made = await book({ ...slot('08:00', '09:00'), booker_name: 'Mara Member', booker_email: 'mara@example.org',
      notes: 'Coaching' })
    expect(made.status, made.body).toBe(201)
    const booking = made.json<{ id: string, booker_email: string, status: string, notes: string }>()
    expect(booking).toMatchObject({ booker_email: 'mara@example.org', status: 'confirmed', notes: 'Coaching' })
    expect(await listed(TUESDAY, '08:00')).toBe('booked')
    const mails = await deliver()
    expect(mails.map((mail) => mail.envelopeTo)).toEqual([['mara@example.org']])
    expect(mails[0]?.parsed.subject).toMatch(/^Booking confirmed: Court D \(floodlit\)/)
    // Linked to the member whose address it is.
    const row = await h.context.db.selectFrom('bookings').select(['member_id']).where('id', '=', booking.id).executeTakeFirstOrThrow()
    expect(row.member_id).not.toBeNull()
    expect(await auditOf(booking.id)).toEqual([{ action: 'booking.created_by_staff', actor: 'olga@riverside.example',
      target_name: 'Court D (floodlit), 2026-06-16 08:00–09:00', detail: null }])
    // A taken slot is refused as any booking is.
    const taken = await book({ ...slot('08:00', '09:00'), booker_name: 'Other' })
    expect([taken.status, taken.json<{ type: string }>().type]).toEqual([400, '/api/v1/problems/slot-conflict'])
  })

  it('books a walk-in without an address: no mail when booked, moved or cancelled', async () => {
    await deliver()
    const made = await book({ ...slot('10:00', '11:00'), booker_name: 'Walk-in Tom', notes: 'Paid at the desk' })
    expect(made.status, made.body).toBe(201)
    const { id } = made.json<{ id: string, booker_email: string }>()
    expect(made.json<{ booker_email: string }>().booker_email).toBe('')
    const moved = await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${id}/move`, slot('11:00', '12:00'))
    expect(moved.status, moved.body).toBe(200)
    const cancelled = await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${id}/cancel`, { reason: 'left' })
    expect(cancelled.status, cancelled.body).toBe(200)
    const queued = await h.context.db.selectFrom('mail_outbox').select('id').where('booking_id', '=', id).execute()
    expect(queued).toEqual([])
    expect(await deliver()).toEqual([])
    // And with an address but the box unticked: no confirmation either.
    const quiet = await book({ ...slot('13:00', '14:00'), booker_name: 'Quiet Quinn', booker_email: 'quinn@example.org',
      send_confirmation: false })
    expect(quiet.status, quiet.body).toBe(201)
    expect(await deliver()).toEqual([])
  })

  it('books beyond the horizon or past an address\'s limit only with an override and its reason, which the audit log keeps', async () => {
    // Court A books 14 days ahead (the default horizon); 40 days is beyond it.
    const far = new Date(Date.parse(`${TUESDAY}T00:00:00Z`) + 40 * 86_400_000).toISOString().slice(0, 10)
    const beyond = { ...slot('09:00', '10:00', far, COURT.a), booker_name: 'Season Sam' }
    const refused = await book(beyond)
    expect([refused.status, refused.json<{ type: string }>().type]).toEqual([400, '/api/v1/problems/invalid-booking'])
    const noReason = await book({ ...beyond, override_horizon: true })
    expect(noReason.status, noReason.body).toBe(400)
    expect(noReason.body).toContain('override_reason')
    const made = await book({ ...beyond, override_horizon: true, override_reason: 'League fixture set by the federation' })
    expect(made.status, made.body).toBe(201)
    expect(await auditOf(made.json<{ id: string }>().id)).toEqual([expect.objectContaining({ action: 'booking.created_by_staff',
      detail: 'overrides horizon: League fixture set by the federation' })])

    // One upcoming booking per address at this club.
    const rules = await owner('PUT', '/api/admin/v1/clubs/riverside/booking-rules', { cancellation_deadline_minutes: 0,
      retention_days: 90, privacy_url: null, max_open_bookings_per_email: 1, guests_may_book: false })
    expect(rules.status, rules.body).toBe(200)
    await deliver()
    const first = await book({ ...slot('15:00', '16:00'), booker_name: 'Lena Limit', booker_email: 'lena@example.org' })
    expect(first.status, first.body).toBe(201)
    const second = await book({ ...slot('16:00', '17:00'), booker_name: 'Lena Limit', booker_email: 'lena@example.org' })
    expect(second.status).toBe(400)
    expect(second.json<{ detail: string }>().detail).toContain('has 1 upcoming bookings at the club, its limit is 1')
    const overridden = await book({ ...slot('16:00', '17:00'), booker_name: 'Lena Limit', booker_email: 'lena@example.org',
      override_address_limits: true, override_reason: 'Second hour for her lesson' })
    expect(overridden.status, overridden.body).toBe(201)
    // Only the two confirmations: the address is not mailed about the refusal the staff saw. And guests_may_book false
    // bound the public only: Lena is no member.
    const mails = await deliver()
    expect(mails.map((mail) => mail.parsed.subject?.slice(0, 18))).toEqual(['Booking confirmed:', 'Booking confirmed:'])
    const publicTry = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      ...slot('18:00', '19:00'), booker_name: 'Lena Limit', booker_email: 'lena@example.org' } })
    expect(publicTry.status).toBe(400)
    await owner('PUT', '/api/admin/v1/clubs/riverside/booking-rules', { cancellation_deadline_minutes: 0, retention_days: 90,
      privacy_url: null, max_open_bookings_per_email: null, guests_may_book: true })
  })

  it('replays a retry with the same Idempotency-Key and refuses the key with another body', async () => {
    const body = { ...slot('20:00', '21:00'), booker_name: 'Retry Rita' }
    const send = (payload: Record<string, unknown>) => h.request({ method: 'POST', url: '/api/admin/v1/clubs/riverside/bookings',
      payload, headers: { 'idempotency-key': 'desk-42', 'origin': ORIGIN, 'cookie': `${COOKIE}=${cookie}` } })
    const first = await send(body)
    const again = await send(body)
    expect([first.status, again.status]).toEqual([201, 201])
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id)
    const other = await send({ ...body, booker_name: 'Someone else' })
    expect([other.status, other.json<{ type: string }>().type]).toEqual([400, '/api/v1/problems/invalid-booking'])
  })

  it('books from the command line with the same rules', async () => {
    const booked = await cli(h.database.env, ['bookings', 'create', '--club', 'riverside', '--court', COURT.allDay,
      '--start', at(TUESDAY, '22:00'), '--end', at(TUESDAY, '23:00'), '--name', 'Night Nora', '--note', 'floodlight', '--json'], h.clock)
    expect(booked.code, booked.stderr).toBe(0)
    const { id } = booked.json<{ id: string }>()
    expect(await listed(TUESDAY, '22:00')).toBe('booked')
    expect(await auditOf(id)).toEqual([expect.objectContaining({ action: 'booking.created_by_staff', actor: 'operator' })])
    const far = new Date(Date.parse(`${TUESDAY}T00:00:00Z`) + 40 * 86_400_000).toISOString().slice(0, 10)
    const noReason = await cli(h.database.env, ['bookings', 'create', '--club', 'riverside', '--court', COURT.a,
      '--start', at(far, '11:00'), '--end', at(far, '12:00'), '--name', 'Far Fred', '--override-horizon'], h.clock)
    expect(noReason.code).not.toBe(0)
    expect(noReason.stderr).toContain('override_reason')
  })
})
