/**
 * A guest cancels from the confirmation mail: the mail's personal link opens the booking's page
 * (GET never changes anything), the page's form cancels (POST), once; the slot is free at once; a
 * cancellation mail with an iCalendar CANCEL of the same event arrives exactly once over SMTP.
 * After the club's deadline the page refuses and says until when it was possible. The club
 * cancels with a reason from the command line. Real SMTP, both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
import { generateToken, hashToken } from '../../src/domain/secret-token.js'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import type { ReceivedMail } from '../helpers/smtp.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const PUBLIC_URL = 'https://clubs.example'
const LINK = /https:\/\/clubs\.example\/bookings\/manage\/(cpm_[A-Za-z0-9_-]{43})/
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

interface Slot { status: string, court_id: string, start_time: string }

describeEachDatabase('guest cancellation', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let clubId = ''

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'TC Riverside <bookings@riverside.example>',
      BOOKING_MAX_OPEN_PER_EMAIL: '50' } })
    clubId = (await setUpCourts(h, 'riverside')).clubId
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const page = (method: InjectOptions['method'], path: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method, url: path, headers: method === 'POST' ? { ...FORM, ...headers } : headers, ...method === 'POST' ? { payload: '' } : {} })
  /** Books a slot of the floodlit court and returns the booking id and the link from the delivered confirmation. */
  const book = async (date: string, from: string, to: string, email = 'gina@example.org', acceptLanguage = 'en-GB,en;q=0.8') => {
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: at(date, from), end_time: at(date, to), booker_name: 'Gina Guest', booker_email: email,
    }, headers: { 'accept-language': acceptLanguage } })
    expect(response.status, response.body).toBe(201)
    const bookingId = response.json<{ booking_id: string }>().booking_id
    const delivered = await smtp.deliveredBy(() => h.context.mail.runOnce())
    const confirmation = delivered.find((mail) => mail.parsed.text?.includes(bookingId))
    const token = LINK.exec(confirmation?.parsed.text ?? '')?.[1] ?? ''
    expect(token, confirmation?.parsed.text).not.toBe('')
    return { bookingId, token, confirmation: confirmation as ReceivedMail, path: `/bookings/manage/${token}` }
  }
  const slotStatus = async (date: string, time: string) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    const slots = listing.json<{ courts: Slot[] }>().courts
    return slots.find((slot) => slot.court_id === COURT.allDay && slot.start_time === at(date, time))?.status
  }
  const stored = (bookingId: string) => h.context.db.selectFrom('bookings')
    .select(['status', 'cancelled_by', 'cancelled_at', 'cancel_reason', 'manage_token_hash']).where('id', '=', bookingId)
    .executeTakeFirstOrThrow()
  const mailsOf = (bookingId: string) => h.context.db.selectFrom('mail_outbox').select(['subject']).where('booking_id', '=', bookingId)
    .orderBy('created_at').execute()
  const calendarOf = (mail: ReceivedMail) => {
    const attachment = mail.parsed.attachments.find((part) => part.contentType === 'text/calendar')
    return { ics: attachment?.content.toString('utf8') ?? '', type: /^Content-Type: (text\/calendar.*)\r?$/m.exec(mail.raw)?.[1] }
  }
  const icsField = (ics: string, name: string) => new RegExp(`^${name}:(.*)\\r?$`, 'm').exec(ics)?.[1]

  it('shows the booking on GET, cancels on POST once, frees the slot at once and mails a calendar CANCEL of the same event', async () => {
    const { bookingId, token, confirmation, path } = await book(TUESDAY, '08:00', '09:00')
    // The link's token is stored only as its hash.
    expect((await stored(bookingId)).manage_token_hash).toBe(hashToken(token))
    const confirmed = calendarOf(confirmation)
    expect(icsField(confirmed.ics, 'METHOD')).toBe('REQUEST')
    expect(icsField(confirmed.ics, 'SEQUENCE')).toBe('0')
    expect(confirmation.parsed.text).toMatch(/cancel it until Tuesday,? 16 June 2026, 06:00 \(Central European Time\)/)

    // Opening the link (and a scanner's HEAD) changes nothing.
    for (const method of ['GET', 'HEAD', 'GET'] as const) {
      const shown = await page(method, path)
      expect(shown.statusCode).toBe(200)
      expect(shown.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(shown.headers['referrer-policy']).toBe('no-referrer')
      expect(shown.headers['cache-control']).toBe('no-store')
      expect(shown.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'/)
    }
    const shown = await page('GET', path)
    expect(shown.body).toContain('Court D (floodlit)')
    // The cancel button asks first (a GET of the page with the question), without a script.
    expect(shown.body).toContain(`<form method="get" action="${path}"><input type="hidden" name="cancel" value="1">`
      + '<button type="submit">Cancel this booking</button></form>')
    const asked = await page('GET', `${path}?cancel=1`)
    expect(asked.body).toContain('Cancel this booking?')
    expect(asked.body).toContain(`<form method="post" action="${path}" class="stack"><label for="reason">Why? (optional; the club `
      + 'reads it)</label><textarea id="reason" name="reason" maxlength="500" rows="3"></textarea><button type="submit">Yes, cancel the '
      + 'booking</button></form>')
    expect(asked.body).toContain(`<a href="${path}">No, keep my booking</a>`)
    // Nothing of the guest's but the booking itself: not the address.
    expect(shown.body).not.toContain('gina@example.org')
    expect((await stored(bookingId)).status).toBe('confirmed')
    expect(await slotStatus(TUESDAY, '08:00')).toBe('booked')

    // The confirmation, with a reason of two lines: the club reads it as one.
    const cancelled = await h.app.inject({ method: 'POST', url: path, headers: FORM,
      payload: new URLSearchParams({ reason: 'Rain forecast,\r\nsorry' }).toString() })
    expect(cancelled.statusCode).toBe(303)
    expect(cancelled.headers.location).toBe(`${path}?cancelled=1`)
    expect(await slotStatus(TUESDAY, '08:00')).toBe('available')
    expect(await stored(bookingId)).toMatchObject({ status: 'cancelled', cancelled_by: 'guest', cancel_reason: 'Rain forecast, sorry' })
    const after = await page('GET', String(cancelled.headers.location))
    expect(after.body).toContain('Your booking is cancelled.')
    expect(after.body).not.toContain('<form')

    // A second POST (a reload, a double click) changes nothing and queues no mail.
    expect((await page('POST', path)).statusCode).toBe(303)
    expect((await mailsOf(bookingId)).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Booking confirmed: Court D \(floodlit\), Tue,? 16 Jun 2026, 08:00–09:00 — Club riverside$/),
      expect.stringMatching(/^Booking cancelled: Court D \(floodlit\), Tue,? 16 Jun 2026, 08:00–09:00 — Club riverside$/),
    ])
    const delivered = await smtp.deliveredBy(() => h.context.mail.runOnce())
    expect(delivered).toHaveLength(1)
    const mail = delivered[0] as ReceivedMail
    expect(mail.envelopeTo).toEqual(['gina@example.org'])
    expect(mail.parsed.text).toContain('has been cancelled as you asked')
    const cancellation = calendarOf(mail)
    expect(cancellation.type).toMatch(/^text\/calendar; charset=utf-8; method=CANCEL;?$/)
    expect(icsField(cancellation.ics, 'METHOD')).toBe('CANCEL')
    expect(icsField(cancellation.ics, 'UID')).toBe(icsField(confirmed.ics, 'UID'))
    expect(icsField(cancellation.ics, 'UID')).toBe(`${bookingId}@club-platform`)
    expect(Number(icsField(cancellation.ics, 'SEQUENCE'))).toBeGreaterThan(Number(icsField(confirmed.ics, 'SEQUENCE')))
    expect(icsField(cancellation.ics, 'STATUS')).toBe('CANCELLED')
    expect(icsField(cancellation.ics, 'ORGANIZER;CN="Club riverside"')).toBe('mailto:bookings@riverside.example')

    // The slot can be booked again, and the cancelled booking stays in the history.
    const again = await book(TUESDAY, '08:00', '09:00', 'other@example.org')
    expect(again.bookingId).not.toBe(bookingId)
    expect(await slotStatus(TUESDAY, '08:00')).toBe('booked')
    expect((await stored(bookingId)).status).toBe('cancelled')
  })

  it('answers one 404 page for a wrong, malformed or expired link, and changes nothing', async () => {
    const { bookingId, path } = await book(TUESDAY, '10:00', '11:00')
    for (const wrong of [generateToken('manage'), 'cpm_short', 'abc', `${path.slice(-47)}x`, 'cpk_' + 'a'.repeat(43)]) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await page(method, `/bookings/manage/${wrong}`)
        expect(answer.statusCode, `${method} ${wrong}`).toBe(404)
        expect(answer.body).toContain('Booking not found')
      }
    }
    // The link ends with the booking.
    const saved = h.clock.now()
    h.clock.set(Date.parse(at(TUESDAY, '11:00')))
    try {
      expect((await page('GET', path)).statusCode).toBe(404)
      expect((await page('POST', path)).statusCode).toBe(404)
    } finally {
      h.clock.set(saved)
    }
    expect((await stored(bookingId)).status).toBe('confirmed')
    expect((await page('GET', path)).statusCode).toBe(200)
  })

  it('refuses after the club\'s deadline, saying until when, and the club can move the deadline', async () => {
    const { bookingId, path } = await book(TUESDAY, '20:00', '21:00')
    const saved = h.clock.now()
    try {
      // The default deadline: two hours before the start (18:00 in Berlin).
      h.clock.set(Date.parse(at(TUESDAY, '18:00')) - 1)
      expect((await page('GET', path)).body).toContain('Cancel this booking')
      h.clock.set(Date.parse(at(TUESDAY, '18:00')))
      const shown = await page('GET', path)
      expect(shown.statusCode).toBe(200)
      expect(shown.body).not.toContain('<form')
      // The date as the platform's ICU writes it (some versions put no comma after the weekday).
      expect(shown.body).toMatch(/cancellation was possible until Tuesday,? 16 June 2026, 18:00 \(Central European Time\)/)
      const refused = await page('POST', path)
      expect(refused.statusCode).toBe(409)
      expect(refused.body).toContain('can no longer be cancelled here')
      expect((await stored(bookingId)).status).toBe('confirmed')
      expect(await mailsOf(bookingId)).toHaveLength(1)

      // The club allows cancelling until one hour before: the same moment is open again.
      const env = h.database.env
      const rules = await cli(env, ['clubs', 'rules', '--club', 'riverside', '--cancellation-deadline-hours', '1', '--json'])
      expect(rules.code, rules.stderr).toBe(0)
      expect(rules.json()).toMatchObject({ cancellation_deadline_minutes: 60 })
      expect((await page('POST', path)).statusCode).toBe(303)
      expect((await stored(bookingId)).status).toBe('cancelled')
    } finally {
      h.clock.set(saved)
      await cli(h.database.env, ['clubs', 'rules', '--club', 'riverside', '--cancellation-deadline-hours', '2'])
    }
  })

  it('speaks the language the booking was made in, and the language the guest chose', async () => {
    const { path } = await book(TUESDAY, '12:00', '13:00', 'gina@example.org', 'pl, de-DE;q=0.8, en;q=0.5')
    const german = await page('GET', path, { 'accept-language': 'en' })
    expect(german.body).toContain('<html lang="de">')
    expect(german.body).toContain('Diese Buchung stornieren')
    expect(german.body).toMatch(/Dienstag,? 16\. Juni 2026, 12:00–13:00 \(Mitteleuropäische Zeit\)/)
    expect(german.body).toContain(`href="${path}?lang=en"`)
    const chosen = await page('GET', `${path}?lang=en`, { 'accept-language': 'de' })
    expect(chosen.body).toContain('<html lang="en">')
    // A link with tracking parameters added by a mail client still opens.
    expect((await page('GET', `${path}?utm_source=mail&lang=de`)).body).toContain('<html lang="de">')
    const cancelled = await page('POST', `${path}?lang=de`)
    expect(cancelled.headers.location).toBe(`${path}?lang=de&cancelled=1`)
    expect((await page('GET', String(cancelled.headers.location))).body).toContain('Ihre Buchung ist storniert.')
  })

  it('sends one cancellation mail when the guest presses the button many times at once', async () => {
    const { bookingId, path } = await book(TUESDAY, '14:00', '15:00')
    const answers = await Promise.all(Array.from({ length: 8 }, () => page('POST', path)))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 8 }, () => 303))
    expect((await mailsOf(bookingId)).filter((mail) => mail.subject.startsWith('Booking cancelled'))).toHaveLength(1)
  })

  it('lets the club cancel with a reason from the command line; the guest is mailed the reason, once', async () => {
    const { bookingId, path } = await book(TUESDAY, '16:00', '17:00')
    const env = h.database.env
    const listed = await cli(env, ['bookings', 'list', '--club', 'riverside', '--date', TUESDAY, '--json'], h.clock)
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.json<{ id: string, status: string, booker_email: string }[]>().find((booking) => booking.id === bookingId))
      .toMatchObject({ status: 'confirmed', booker_email: 'gina@example.org' })
    const reason = 'The court is flooded after the storm. Sorry!'
    const cancelled = await cli(env, ['bookings', 'cancel', bookingId, '--club', 'riverside', '--reason', reason, '--json'], h.clock)
    expect(cancelled.code, cancelled.stderr).toBe(0)
    expect(cancelled.json()).toEqual({ id: bookingId, status: 'cancelled', already_cancelled: false })
    const again = await cli(env, ['bookings', 'cancel', bookingId, '--club', 'riverside', '--json'], h.clock)
    expect(again.json()).toEqual({ id: bookingId, status: 'cancelled', already_cancelled: true })
    expect(await stored(bookingId)).toMatchObject({ status: 'cancelled', cancelled_by: 'club', cancel_reason: reason })
    // Another club's id, or a booking of another club, is not found.
    const other = await h.createClub('elsewhere')
    const foreign = await cli(env, ['bookings', 'cancel', bookingId, '--club', other.slug], h.clock)
    expect(foreign.code).not.toBe(0)
    expect(foreign.stderr).toContain(`no booking ${bookingId} at elsewhere`)

    const before = smtp.received.length
    while (await h.context.mail.runOnce() > 0);
    const delivered = smtp.received.slice(before)
    expect(delivered).toHaveLength(1)
    expect(delivered[0]?.parsed.text).toContain('has been cancelled by the club')
    expect(delivered[0]?.parsed.text).toContain(reason)
    expect(icsField(calendarOf(delivered[0] as ReceivedMail).ics, 'METHOD')).toBe('CANCEL')
    // The guest's page says who cancelled and why.
    const shown = await page('GET', path)
    expect(shown.body).toContain('This booking was cancelled by the club')
    expect(shown.body).toContain('The court is flooded after the storm. Sorry!')
    expect(clubId).not.toBe(other.id)
  })
})
