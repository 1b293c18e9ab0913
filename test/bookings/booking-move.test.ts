/**
 * The club moves a booking to another time or court (admin API and command line): the same
 * booking, its old slot free and its new one taken at once; the guest's mail arrives over real
 * SMTP with an iCalendar REQUEST of the same event (same UID, higher SEQUENCE), and a later
 * cancellation's CANCEL is higher still; a `booking.rescheduled` event and a `booking.moved` audit
 * entry are written with it. A taken, invalid or foreign target, a cancelled booking and another
 * club's booking change nothing. Both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { importClubData } from '../../src/services/import.js'
import { cli } from '../helpers/cli.js'
import { idFor } from '../helpers/fixtures.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import type { ReceivedMail } from '../helpers/smtp.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const PUBLIC_URL = 'https://clubs.example'
const HILL_COURT = idFor('court:hillside')

interface Slot { status: string, court_id: string, start_time: string }

describeEachDatabase('moving a booking', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let clubId = ''
  let owner: ReturnType<typeof asSession>

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'TC Riverside <bookings@riverside.example>',
      BOOKING_MAX_OPEN_PER_EMAIL: '50', WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' },
    webhookResolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) })
    clubId = (await setUpCourts(h, 'riverside')).clubId
    const hillside = await h.createClub('hillside', 'Europe/Berlin')
    await importClubData(h.context.db, h.clock, hillside.id, { courts: [{ id: HILL_COURT, name: 'Hill court', opening_hours:
      Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
    owner = asSession(h, await signedIn(h, clubId, 'olga@riverside.example', 'owner'))
    const endpoint = await owner('POST', '/api/admin/v1/clubs/riverside/webhook-endpoints', { url: 'https://hooks.example/in',
      event_types: ['booking.rescheduled'] })
    expect(endpoint.status, endpoint.body).toBe(201)
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const deliver = () => smtp.deliveredBy(() => h.context.mail.runOnce())
  const book = async (club: string, date: string, from: string, to: string, email = 'gina@example.org', court = COURT.allDay) => {
    const response = await h.request({ method: 'POST', url: `/api/v1/public/${club}/courts/book`, payload: {
      court_id: court, start_time: at(date, from), end_time: at(date, to), booker_name: 'Gina Guest', booker_email: email,
    } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }
  const move = (bookingId: string, body: Record<string, unknown>, club = 'riverside') =>
    owner('POST', `/api/admin/v1/clubs/${club}/bookings/${bookingId}/move`, body)
  const slotStatus = async (court: string, date: string, time: string) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    const slots = listing.json<{ courts: Slot[] }>().courts
    return slots.find((slot) => slot.court_id === court && slot.start_time === at(date, time))?.status
  }
  const stored = (bookingId: string) => h.context.db.selectFrom('bookings')
    .select(['court_id', 'starts_at', 'ends_at', 'status', 'calendar_sequence']).where('id', '=', bookingId).executeTakeFirstOrThrow()
  const calendarOf = (mail: ReceivedMail | undefined) => {
    const attachment = mail?.parsed.attachments.find((part) => part.contentType === 'text/calendar')
    return { ics: attachment?.content.toString('utf8') ?? '', type: /^Content-Type: (text\/calendar.*)\r?$/m.exec(mail?.raw ?? '')?.[1] }
  }
  /** A property's value (after its name's `:` or `;`), its folded lines joined (RFC 5545 §3.1). */
  const icsField = (ics: string, name: string) => new RegExp(`^${name}[:;](.*)\\r?$`, 'm').exec(ics.replace(/\r\n[ \t]/g, ''))?.[1]
  const mailAbout = (mails: ReceivedMail[], bookingId: string) => mails.find((mail) => mail.parsed.text?.includes(bookingId))

  it('moves it to another court and time: the old slot is free, the new one booked, the guest gets a REQUEST of the same event',
    async () => {
      const bookingId = await book('riverside', TUESDAY, '08:00', '09:00')
      const confirmed = calendarOf(mailAbout(await deliver(), bookingId))
      const moved = await move(bookingId, { court_id: COURT.a, start_time: at(TUESDAY, '14:00'), end_time: at(TUESDAY, '15:00') })
      expect(moved.status, moved.body).toBe(200)
      expect(moved.json()).toMatchObject({ id: bookingId, court_id: COURT.a, court_name: 'Court A', start_time: at(TUESDAY, '14:00'),
        end_time: at(TUESDAY, '15:00'), status: 'confirmed', booker_email: 'gina@example.org' })
      expect(await slotStatus(COURT.allDay, TUESDAY, '08:00')).toBe('available')
      expect(await slotStatus(COURT.a, TUESDAY, '14:00')).toBe('booked')

      const mail = mailAbout(await deliver(), bookingId)
      expect(mail?.parsed.subject).toMatch(/^Booking moved: Court A, Tue,? 16 Jun 2026, 14:00–15:00 — Club riverside$/)
      expect(mail?.envelopeTo).toEqual(['gina@example.org'])
      expect(mail?.parsed.text)
        .toMatch(/It was: Court D \(floodlit\), Tuesday,? 16 June 2026, 08:00–09:00 \(Central European Time\)\./)
      const request = calendarOf(mail)
      expect(request.type).toMatch(/^text\/calendar; charset=utf-8; method=REQUEST;?$/)
      expect(icsField(request.ics, 'METHOD')).toBe('REQUEST')
      expect(icsField(request.ics, 'UID')).toBe(icsField(confirmed.ics, 'UID'))
      expect(icsField(confirmed.ics, 'SEQUENCE')).toBe('0')
      expect(icsField(request.ics, 'SEQUENCE')).toBe('1')
      expect(icsField(request.ics, 'DTSTART')).toBe('20260616T120000Z')
      expect(icsField(request.ics, 'ATTENDEE')).toContain('mailto:gina@example.org')

      // Moved again a minute later, then cancelled by the club: each calendar part higher than the one before.
      h.clock.set(h.clock.now() + 60_000)
      expect((await move(bookingId, { court_id: COURT.a, start_time: at(TUESDAY, '16:00'), end_time: at(TUESDAY, '17:00') })).status)
        .toBe(200)
      expect(icsField(calendarOf(mailAbout(await deliver(), bookingId)).ics, 'SEQUENCE')).toBe('2')
      expect((await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${bookingId}/cancel`, { reason: 'rain' })).status).toBe(200)
      const cancellation = calendarOf(mailAbout(await deliver(), bookingId))
      expect([icsField(cancellation.ics, 'METHOD'), icsField(cancellation.ics, 'SEQUENCE')]).toEqual(['CANCEL', '3'])
      expect((await stored(bookingId)).calendar_sequence).toBe(3)

      // The event and the audit entry of each move.
      const events = await h.context.db.selectFrom('webhook_messages').select(['type', 'payload']).where('subject_id', '=', bookingId)
        .orderBy('created_at').execute()
      expect(events.map((event) => event.type)).toEqual(['booking.rescheduled', 'booking.rescheduled'])
      expect(JSON.parse(events[0]?.payload ?? '{}')).toMatchObject({ type: 'booking.rescheduled', data: { id: bookingId,
        court_id: COURT.a, start_time: at(TUESDAY, '14:00'), moved_by: 'club', previous: { court_id: COURT.allDay,
          start_time: at(TUESDAY, '08:00'), end_time: at(TUESDAY, '09:00') } } })
      expect(events[0]?.payload).not.toContain('gina@')
      const audit = await h.context.db.selectFrom('audit_log').select(['action', 'target_name', 'detail'])
        .where('target', '=', bookingId).where('action', '=', 'booking.moved').orderBy('created_at').execute()
      expect(audit[0]).toEqual({ action: 'booking.moved', target_name: 'Court A, 2026-06-16 14:00–15:00',
        detail: 'from Court D (floodlit), 2026-06-16 08:00–09:00' })
    })

  it('moves within its own time (a later overlapping hour), and to where it is without a change or a mail', async () => {
    const bookingId = await book('riverside', TUESDAY, '14:00', '16:00')
    await deliver()
    const later = await move(bookingId, { court_id: COURT.allDay, start_time: at(TUESDAY, '15:00'), end_time: at(TUESDAY, '17:00') })
    expect(later.status, later.body).toBe(200)
    expect(mailAbout(await deliver(), bookingId)).toBeDefined()
    const same = await move(bookingId, { court_id: COURT.allDay, start_time: at(TUESDAY, '15:00'), end_time: at(TUESDAY, '17:00') })
    expect(same.status).toBe(200)
    expect(await deliver()).toEqual([])
    expect((await stored(bookingId)).calendar_sequence).toBe(1)
  })

  it('refuses a taken, blocked, invalid or foreign target, a cancelled booking and another club\'s, changing nothing', async () => {
    const bookingId = await book('riverside', TUESDAY, '18:00', '19:00')
    const other = await book('riverside', TUESDAY, '19:00', '20:00', 'otto@example.org')
    const hillside = await book('hillside', TUESDAY, '18:00', '19:00', 'hilde@example.org', HILL_COURT)
    await deliver()
    const before = await stored(bookingId)
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ court_id: COURT.allDay, start_time: at(TUESDAY, '19:00'), end_time: at(TUESDAY, '20:00') }, 400, 'slot-conflict'],
      [{ court_id: COURT.allDay, start_time: at(TUESDAY, '18:30'), end_time: at(TUESDAY, '19:30') }, 400, 'invalid-booking'],
      // Court A's line painting (a block of the fixture's).
      [{ court_id: COURT.inactive, start_time: at(TUESDAY, '18:00'), end_time: at(TUESDAY, '19:00') }, 400, 'invalid-booking'],
      [{ court_id: randomUUID(), start_time: at(TUESDAY, '18:00'), end_time: at(TUESDAY, '19:00') }, 400, 'invalid-booking'],
      [{ court_id: COURT.allDay, start_time: at('2026-06-14', '18:00'), end_time: at('2026-06-14', '19:00') }, 400, 'invalid-booking'],
      [{ court_id: COURT.a, start_time: at(TUESDAY, '10:00'), end_time: at(TUESDAY, '11:00') }, 400, 'slot-conflict'],
      [{ court_id: COURT.allDay, start_time: 'tomorrow', end_time: at(TUESDAY, '19:00') }, 400, 'validation-error'],
    ]
    for (const [body, status, kind] of refusals) {
      const answer = await move(bookingId, body)
      expect(answer.status, `${JSON.stringify(body)}: ${answer.body}`).toBe(status)
      expect(answer.json<{ type: string }>().type, answer.body).toContain(kind)
    }
    expect(await stored(bookingId)).toEqual(before)
    expect((await stored(other)).status).toBe('confirmed')
    // Another club's booking is not found, from this club's routes.
    expect((await move(hillside, { court_id: COURT.allDay, start_time: at(TUESDAY, '20:00'), end_time: at(TUESDAY, '21:00') })).status)
      .toBe(404)
    expect((await stored(hillside)).court_id).toBe(HILL_COURT)
    // A cancelled booking stays where it is.
    expect((await owner('POST', `/api/admin/v1/clubs/riverside/bookings/${other}/cancel`, {})).status).toBe(200)
    const cancelled = await move(other, { court_id: COURT.allDay, start_time: at(TUESDAY, '21:00'), end_time: at(TUESDAY, '22:00') })
    expect(cancelled.status).toBe(409)
    expect(await deliver()).toHaveLength(1)
  })

  it('moves from the command line, with or without the guest\'s mail', async () => {
    const bookingId = await book('riverside', TUESDAY, '06:00', '07:00')
    await deliver()
    const moved = await cli(h.database.env, ['bookings', 'move', bookingId, '--club', 'riverside', '--start', at(TUESDAY, '05:00'),
      '--end', at(TUESDAY, '06:00'), '--no-mail', '--json'], h.clock)
    expect(moved.code, moved.stderr).toBe(0)
    expect(JSON.parse(moved.stdout)).toMatchObject({ id: bookingId, court_id: COURT.allDay, start_time: at(TUESDAY, '05:00') })
    expect(await deliver()).toEqual([])
    const taken = await book('riverside', TUESDAY, '07:00', '08:00', 'tom@example.org')
    const refused = await cli(h.database.env, ['bookings', 'move', bookingId, '--club', 'riverside', '--start', at(TUESDAY, '07:00'),
      '--end', at(TUESDAY, '08:00')], h.clock)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('already booked')
    expect((await stored(taken)).status).toBe('confirmed')
  })
})
