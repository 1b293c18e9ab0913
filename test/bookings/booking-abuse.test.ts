/**
 * The public booking endpoint must not be a way to mail anyone anything: a limit per address and
 * day across all clubs, no links in the name, none repeated from the notes, and refusals for an
 * address that say nothing about that address's bookings (its owner is told, once a day).
 */
import { expect, it } from 'vitest'
import { containsLink, withoutLinks } from '../../src/domain/links.js'
import { renderBookingConfirmation } from '../../src/mail/booking-mail.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { useHarness } from '../helpers/harness.js'
import { idFor } from '../helpers/fixtures.js'
import { importClubData } from '../../src/services/import.js'
import { cli } from '../helpers/cli.js'

const LAKE_COURT = idFor('court:lake')

interface Problem { type: string, detail: string, code: string }

/** The one answer for every limit of an address: the requester may not own it. */
const generic = 'This e-mail address cannot take another booking now. If it is yours, its mailbox has a message saying why.'
const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const DAYS = ['2026-06-16', '2026-06-17', '2026-06-18', '2026-06-19', '2026-06-22', '2026-06-23', '2026-06-24']

it('tells names with links from ordinary names', () => {
  for (const name of ['J. Smith', 'Anne-Marie O\'Neil', 'José Núñez', 'Dr. No', '李小龍', 'Smith, J.R.R.', 'Mr. T.']) {
    expect(containsLink(name), name).toBe(false)
  }
  for (const name of ['evil.com', 'Visit www.example', 'http://x', 'HTTPS://X.Y', 'mail a@b.de', 'St.Pauli', 'paypal.com.evil.ru/login',
    'javascript:alert(1)', 'ftp://files']) {
    expect(containsLink(name), name).toBe(true)
  }
  expect(withoutLinks('Bring balls. See https://evil.example/x?y=1 or evil.com/login. Thanks!'))
    .toBe('Bring balls. See [link removed] or [link removed] Thanks!')
})

it('repeats the notes in the guest\'s mail without links, in every part', () => {
  const mail = renderBookingConfirmation({ bookingId: 'b', clubName: 'Club', timezone: 'UTC', courtName: 'Court', start: 0, end: 3_600_000,
    bookerName: 'Gina', bookerEmail: 'gina@example.org', language: 'en', notes: 'Pay at https://evil.example/pay or www.evil.example now',
    createdAt: 0,
    contactEmail: null, mailFrom: 'Club <bookings@club.example>', manage: { url: 'https://clubs.example/bookings/manage/cpm_x', cancelUntil: 0 } })
  for (const part of [mail.text, mail.html, mail.ics]) {
    expect(part).toContain('[link removed]')
    expect(part).not.toContain('evil.example')
  }
  // The one link of the mail is the service's own: the guest's page of the booking.
  expect([...mail.html.matchAll(/<a href="([^"]*)"/g)].map((match) => match[1])).toEqual(['https://clubs.example/bookings/manage/cpm_x'])
})

describeEachDatabase('abuse of the booking endpoint', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    await setUpCourts(h, 'riverside')
    const lakeside = await h.createClub('lakeside')
    await importClubData(h.context.db, h.clock, lakeside.id, { courts: [{ id: LAKE_COURT, name: 'Lake court', booking_horizon_days: 366,
      opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
  }, { env: { BOOKING_MAX_PER_ADDRESS_PER_DAY: '3' } })
  const book = (club: string, payload: Record<string, unknown>) => harness.current.request({
    method: 'POST', url: `/api/v1/public/${club}/courts/book`,
    payload: { court_id: club === 'lakeside' ? LAKE_COURT : COURT.allDay, booker_name: 'Gina Guest', ...payload },
  })
  const outbox = async (recipient: string) => harness.current.context.db.selectFrom('mail_outbox').selectAll()
    .where('recipient_email', 'in', [recipient, recipient.toLowerCase()]).orderBy('created_at').execute()
  const count = async () => (await harness.current.context.db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()).n

  it('refuses a name with a link, naming the field, and books nothing', async () => {
    const before = await count()
    for (const name of ['Win at evil.com', 'http://evil.example', 'www.evil.example', 'me@evil.example']) {
      const response = await book('riverside', { booker_name: name, booker_email: 'link@example.org', start_time: at(DAYS[0] ?? '', '06:00'),
        end_time: at(DAYS[0] ?? '', '07:00') })
      expect(response.status, name).toBe(400)
      expect(response.json<Problem>()).toMatchObject({ code: 'name_with_link', invalid_params: [{ name: 'booker_name',
        code: 'name_with_link', reason: 'Name: please write the name without web or e-mail addresses.' }] })
    }
    expect(await count()).toBe(before)
    expect(await outbox('link@example.org')).toEqual([])
  })

  it('keeps the notes as written for the club, and mails them without links', async () => {
    const notes = 'Call me: see https://evil.example/login'
    const response = await book('riverside', { booker_email: 'notes@example.org', notes, start_time: at(DAYS[1] ?? '', '06:00'),
      end_time: at(DAYS[1] ?? '', '07:00') })
    expect(response.status).toBe(201)
    const stored = await harness.current.context.db.selectFrom('bookings').select('notes')
      .where('id', '=', response.json<{ booking_id: string }>().booking_id).executeTakeFirstOrThrow()
    expect(stored.notes).toBe(notes)
    const [mail] = await outbox('notes@example.org')
    expect(mail?.text_body).toContain('Call me: see [link removed]')
    expect(`${mail?.text_body ?? ''}${mail?.html_body ?? ''}${mail?.ics ?? ''}`).not.toContain('evil.example')
  })

  it('gives the same answer, without counts, for the club cap and the daily limit, and mails the owner once a day', async () => {
    // The club cap: two upcoming bookings at riverside.
    const capped = 'capped@example.org'
    for (const day of [DAYS[2], DAYS[3]]) {
      expect((await book('riverside', { booker_email: capped, start_time: at(day ?? '', '06:00'), end_time: at(day ?? '', '07:00') }))
        .status).toBe(201)
    }
    const third = await book('riverside', { booker_email: 'Capped@Example.org', start_time: at(DAYS[4] ?? '', '06:00'),
      end_time: at(DAYS[4] ?? '', '07:00') })
    expect(third.status).toBe(400)
    expect(third.json<Problem>()).toMatchObject({ type: '/api/v1/problems/invalid-booking', detail: generic })
    expect(third.body).not.toMatch(/\d+ upcoming|\b2\b/)
    // The daily limit across clubs (3 here): riverside allows two, lakeside the third; the fourth is refused.
    const busy = 'busy@example.org'
    for (const [club, day] of [['riverside', DAYS[2]], ['riverside', DAYS[3]], ['lakeside', DAYS[2]]] as const) {
      expect((await book(club, { booker_email: busy, start_time: at(day ?? '', '08:00'), end_time: at(day ?? '', '09:00') })).status)
        .toBe(201)
    }
    const fourth = await book('lakeside', { booker_email: busy, start_time: at(DAYS[3] ?? '', '08:00'), end_time: at(DAYS[3] ?? '', '09:00') })
    expect(fourth.status).toBe(400)
    expect(fourth.json<Problem>().detail).toBe(generic)
    // Each owner got one notice saying why, with nothing the requester wrote; asking again sends no second one.
    await book('lakeside', { booker_email: busy, start_time: at(DAYS[5] ?? '', '08:00'), end_time: at(DAYS[5] ?? '', '09:00') })
    const cappedNotices = (await outbox(capped)).filter((mail) => mail.booking_id === null)
    const busyNotices = (await outbox(busy)).filter((mail) => mail.booking_id === null)
    expect(cappedNotices).toHaveLength(1)
    expect(cappedNotices[0]?.text_body).toContain('already holds 2 upcoming bookings at Club riverside')
    expect(busyNotices).toHaveLength(1)
    expect(busyNotices[0]?.text_body).toContain('used for 3 court bookings in the last 24 hours')
    expect(busyNotices[0]?.text_body).not.toContain('Gina')
    // A day later the daily limit has room again.
    harness.current.clock.advance(86_400_001)
    expect((await book('lakeside', { booker_email: busy, start_time: at(DAYS[6] ?? '', '08:00'), end_time: at(DAYS[6] ?? '', '09:00') }))
      .status).toBe(201)
  })

  it('takes members only when the club says so, answering a guest as at a limit, and applies the club\'s own cap', async () => {
    const env = harness.current.database.env
    const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`
    const slot = (hour: number) => ({ start_time: at(DAYS[6] ?? '', hh(hour)), end_time: at(DAYS[6] ?? '', hh(hour + 1)) })
    expect((await cli(env, ['clubs', 'rules', '--club', 'riverside', '--members-only', 'yes'])).code).toBe(0)
    try {
      const guest = await book('riverside', { booker_email: 'stranger@example.org', ...slot(10) })
      expect(guest.status).toBe(400)
      expect(guest.json<Problem>()).toMatchObject({ code: 'address_refused', detail: generic })
      const notice = (await outbox('stranger@example.org')).at(-1)
      expect(notice?.text_body).toContain('only members of Club riverside can book its courts online')
      // The member list's address (in any case) books.
      expect((await book('riverside', { booker_email: 'MARA@example.org', ...slot(10) })).status).toBe(201)
      // A taken slot answers slot-conflict whoever asks: the answer never tells a member from a guest.
      expect((await book('riverside', { booker_email: 'stranger@example.org', ...slot(10) })).json<Problem>().type)
        .toBe('/api/v1/problems/slot-conflict')
    } finally {
      await cli(env, ['clubs', 'rules', '--club', 'riverside', '--members-only', 'no'])
    }

    expect((await cli(env, ['clubs', 'rules', '--club', 'riverside', '--max-open-per-email', '1'])).code).toBe(0)
    try {
      expect((await book('riverside', { booker_email: 'once@example.org', ...slot(12) })).status).toBe(201)
      const second = await book('riverside', { booker_email: 'once@example.org', ...slot(13) })
      expect(second.json<Problem>()).toMatchObject({ code: 'address_refused', detail: generic })
    } finally {
      await cli(env, ['clubs', 'rules', '--club', 'riverside', '--max-open-per-email', 'default'])
    }
    expect((await book('riverside', { booker_email: 'once@example.org', ...slot(13) })).status).toBe(201)
  })
})
