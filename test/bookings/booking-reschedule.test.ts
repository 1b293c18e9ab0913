/**
 * A guest moves a booking from its page (the link of the confirmation mail), with plain forms: the
 * page lists the free times of the booking's court on a chosen day, as long as the booking; a
 * chosen time moves it — the same booking, the same link, the same calendar event (a REQUEST with a
 * higher SEQUENCE over real SMTP); the old slot is free and the new one booked at once. A taken
 * time, a time off the grid and a move after the club's deadline are refused with the reason, and
 * change nothing. Both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
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

describeEachDatabase('a guest moving a booking', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'TC Riverside <bookings@riverside.example>',
      BOOKING_MAX_OPEN_PER_EMAIL: '50' } })
    await setUpCourts(h, 'riverside')
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const deliver = () => smtp.deliveredBy(() => h.context.mail.runOnce())
  const book = async (date: string, from: string, to: string, email = 'gina@example.org') => {
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: at(date, from), end_time: at(date, to), booker_name: 'Gina Guest', booker_email: email,
    } })
    expect(response.status, response.body).toBe(201)
    const bookingId = response.json<{ booking_id: string }>().booking_id
    const confirmation = (await deliver()).find((mail) => mail.parsed.text?.includes(bookingId))
    const token = LINK.exec(confirmation?.parsed.text ?? '')?.[1] ?? ''
    expect(token).not.toBe('')
    return { bookingId, path: `/bookings/manage/${token}`, confirmation: confirmation as ReceivedMail }
  }
  const page = (path: string) => h.app.inject({ method: 'GET', url: path })
  const post = (path: string, body: Record<string, string>) =>
    h.app.inject({ method: 'POST', url: path, headers: FORM, payload: new URLSearchParams(body).toString() } satisfies InjectOptions)
  const slotStatus = async (date: string, time: string) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    const slots = listing.json<{ courts: Slot[] }>().courts
    return slots.find((slot) => slot.court_id === COURT.allDay && slot.start_time === at(date, time))?.status
  }
  /** The start times the change form offers, as the radio buttons' values. */
  const offered = (html: string) => [...html.matchAll(/name="start" value="([^"]+)"/g)].map((match) => match[1])
  const icsField = (mail: ReceivedMail | undefined, name: string) => {
    const ics = mail?.parsed.attachments.find((part) => part.contentType === 'text/calendar')?.content.toString('utf8') ?? ''
    return new RegExp(`^${name}:(.*)\\r?$`, 'm').exec(ics)?.[1]
  }
  const stored = (bookingId: string) => h.context.db.selectFrom('bookings').select(['starts_at', 'status', 'calendar_sequence'])
    .where('id', '=', bookingId).executeTakeFirstOrThrow()

  it('lists the free times of the day and moves the booking to one: same booking, same link, a REQUEST of the same event',
    async () => {
      const { bookingId, path, confirmation } = await book(TUESDAY, '08:00', '09:00')
      await book(TUESDAY, '10:00', '11:00', 'tom@example.org')
      const shown = await page(path)
      expect(shown.body).toContain(`href="${path}?change=1"`)

      const change = await page(`${path}?change=1&date=${TUESDAY}`)
      expect(change.statusCode).toBe(200)
      expect(change.body).toContain('Change the date or time')
      const times = offered(change.body)
      // Every free hour of the floodlit court that day: not its own, not the one Tom booked, none before now (Monday).
      expect(times).toContain(at(TUESDAY, '09:00'))
      expect(times).toContain(at(TUESDAY, '00:00'))
      expect(times).not.toContain(at(TUESDAY, '08:00'))
      expect(times).not.toContain(at(TUESDAY, '10:00'))
      expect(times).toHaveLength(22)
      // Another day, as the date form asks.
      expect(offered((await page(`${path}?change=1&date=2026-06-17`)).body)).toHaveLength(24)

      const moved = await post(`${path}/move`, { start: at(TUESDAY, '12:00') })
      expect(moved.statusCode, moved.body).toBe(303)
      expect(moved.headers.location).toBe(`${path}?moved=1`)
      const after = await page(String(moved.headers.location))
      expect(after.body).toContain('Your booking has been moved.')
      expect(after.body).toMatch(/Tuesday,? 16 June 2026, 12:00–13:00/)
      expect(await slotStatus(TUESDAY, '08:00')).toBe('available')
      expect(await slotStatus(TUESDAY, '12:00')).toBe('booked')
      expect(await stored(bookingId)).toMatchObject({ status: 'confirmed', calendar_sequence: 1 })

      const mail = (await deliver()).find((received) => received.parsed.text?.includes(bookingId))
      expect(mail?.parsed.subject)
        .toMatch(/^Booking moved: Court D \(floodlit\), Tue,? 16 Jun 2026, 12:00–13:00 — Club riverside$/)
      expect(mail?.parsed.text).toContain('has been moved as you asked')
      expect(icsField(mail, 'METHOD')).toBe('REQUEST')
      expect(icsField(mail, 'UID')).toBe(icsField(confirmation, 'UID'))
      expect(icsField(mail, 'SEQUENCE')).toBe('1')
      const event = await h.context.db.selectFrom('webhook_messages').select('payload').where('subject_id', '=', bookingId).execute()
      // No endpoint takes the event at this club: nothing is recorded for nobody.
      expect(event).toEqual([])
    })

  it('refuses a taken time and a time off the grid, listing the free times again, and changes nothing', async () => {
    const { bookingId, path } = await book(TUESDAY, '14:00', '15:00')
    await book(TUESDAY, '16:00', '17:00', 'tom@example.org')
    const before = await stored(bookingId)
    const taken = await post(`${path}/move`, { start: at(TUESDAY, '16:00') })
    expect(taken.statusCode).toBe(409)
    expect(taken.body).toContain('That time was taken meanwhile.')
    expect(offered(taken.body)).toContain(at(TUESDAY, '17:00'))
    for (const start of [at(TUESDAY, '16:30'), 'half past four', '']) {
      const refused = await post(`${path}/move`, { start })
      expect(refused.statusCode, start).toBe(400)
      expect(refused.body).toContain('That time cannot be booked.')
    }
    expect(await stored(bookingId)).toEqual(before)
    expect(await deliver()).toEqual([])
  })

  it('answers whatever date or body it is given with a page, never an error, and changes nothing', async () => {
    const { bookingId, path } = await book(TUESDAY, '03:00', '04:00')
    const before = await stored(bookingId)
    for (const date of ['0000-01-01', '9999-12-31', '2026-02-30', 'tomorrow', '', '2026-06-16T10:00']) {
      const shown = await page(`${path}?change=1&date=${encodeURIComponent(date)}`)
      expect(shown.statusCode, date).toBe(200)
      expect(shown.body).toContain('Change the date or time')
    }
    const bodies: Record<string, string>[] = [{ start: '9999-12-31T10:00:00Z' }, { start: '0000-01-01T10:00:00Z' },
      { start: 'x'.repeat(900) }, { other: '1' }]
    for (const body of bodies) {
      const refused = await post(`${path}/move`, body)
      expect(refused.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400)
    }
    expect(await stored(bookingId)).toEqual(before)
    // A JSON body says the same as the form.
    const json = await h.app.inject({ method: 'POST', url: `${path}/move`, payload: { start: at(TUESDAY, '04:00') } })
    expect(json.statusCode).toBe(303)
    expect(await slotStatus(TUESDAY, '04:00')).toBe('booked')
    expect(await slotStatus(TUESDAY, '03:00')).toBe('available')
  })

  it('refuses after the club\'s deadline, saying until when, and in German when asked', async () => {
    const { bookingId, path } = await book(TUESDAY, '20:00', '21:00')
    const before = await stored(bookingId)
    const saved = h.clock.now()
    try {
      // The default deadline: two hours before the start.
      h.clock.set(Date.parse(at(TUESDAY, '18:00')))
      const page18 = await page(`${path}?change=1&date=${TUESDAY}`)
      expect(page18.body).not.toContain('name="start"')
      const refused = await post(`${path}/move`, { start: at(TUESDAY, '22:00') })
      expect(refused.statusCode).toBe(409)
      expect(refused.body).toMatch(/can no longer be changed here: changes were possible until Tuesday,? 16 June 2026, 18:00/)
      const german = await post(`${path}/move?lang=de`, { start: at(TUESDAY, '22:00') })
      expect(german.body).toContain('kann hier nicht mehr geändert werden')
    } finally {
      h.clock.set(saved)
    }
    expect(await stored(bookingId)).toEqual(before)
    expect(await slotStatus(TUESDAY, '20:00')).toBe('booked')
    expect(await slotStatus(TUESDAY, '22:00')).toBe('available')
  })
})
