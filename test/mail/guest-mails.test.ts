/**
 * The mails a guest receives, as a guest's mail program and calendar meet them, over real SMTP:
 * written in the language the booking was made in (Accept-Language, else the club's), with the
 * date as that language writes it and the club's time zone named; from the club's name at the
 * service's address, replies to the club's contact address; the iCalendar parts parsed by a real
 * iCalendar library (ical.js) and checked against what RFC 5546 asks of REQUEST, CANCEL and PUBLISH
 * (ORGANIZER, ATTENDEE, UID, SEQUENCE, METHOD), with the booking's page in the event; after a
 * cancellation, the way back to the club's booking page. Both databases.
 */
import ICAL from 'ical.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { changeBookingRules } from '../../src/services/booking-rules.js'
import { OPERATOR } from '../../src/services/audit.js'
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

/** The calendar part of a mail, or a calendar file, as ical.js reads it, with what RFC 5546 requires of its method. */
function calendar(ics: string) {
  const parsed: unknown = ICAL.parse(ics)
  if (!Array.isArray(parsed)) throw new Error(`not one calendar:\n${ics}`)
  const root = new ICAL.Component(parsed)
  const event = root.getFirstSubcomponent('vevent')
  if (event === null) throw new Error(`no VEVENT in\n${ics}`)
  const organizer = event.getFirstProperty('organizer')
  const attendees = event.getAllProperties('attendee')
  const method = String(root.getFirstPropertyValue('method'))
  const fact = {
    method,
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    organizer: String(organizer?.getFirstValue()),
    organizerName: organizer?.getParameter('cn'),
    attendees: attendees.map((attendee) => String(attendee.getFirstValue())),
    url: event.getFirstPropertyValue('url'),
    description: String(event.getFirstPropertyValue('description')),
    location: String(event.getFirstPropertyValue('location')),
    alarms: event.getAllSubcomponents('valarm').map((alarm) => ({ action: String(alarm.getFirstPropertyValue('action')),
      trigger: String(alarm.getFirstPropertyValue('trigger')) })),
    status: event.getFirstPropertyValue('status'),
    start: event.getFirstPropertyValue('dtstart')?.toString(),
  }
  // RFC 5546 §3.2: every method names one organiser, a UID and a DTSTAMP; REQUEST at least one attendee, CANCEL every
  // attendee of an event cancelled whole and a SEQUENCE; PUBLISH no attendee.
  expect(event.getAllProperties('organizer'), ics).toHaveLength(1)
  expect(event.getAllProperties('uid'), ics).toHaveLength(1)
  expect(event.getAllProperties('dtstamp'), ics).toHaveLength(1)
  expect(event.getAllProperties('sequence'), ics).toHaveLength(1)
  if (method === 'PUBLISH') expect(attendees, ics).toHaveLength(0)
  else expect(attendees.length, ics).toBeGreaterThanOrEqual(1)
  return fact
}

const calendarOf = (mail: ReceivedMail) => {
  const part = mail.parsed.attachments.find((attachment) => attachment.contentType === 'text/calendar')
  return calendar(part?.content.toString('utf8') ?? '')
}

const longDate = (locale: string, date: string) => new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long',
  year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))

describeEachDatabase('the guest\'s mails', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let clubId = ''

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'Club Platform <bookings@platform.example>',
      BOOKING_MAX_OPEN_PER_EMAIL: '50' } })
    clubId = (await setUpCourts(h, 'riverside')).clubId
    await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR,
      rules: { language: 'de', contactEmail: 'office@riverside.example' } })
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const book = async (from: string, to: string, acceptLanguage?: string, notes?: string) => {
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: at(TUESDAY, from), end_time: at(TUESDAY, to), booker_name: 'Gina Guest',
      booker_email: 'gina@example.org', ...notes === undefined ? {} : { notes },
    }, headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } })
    expect(response.status, response.body).toBe(201)
    const bookingId = response.json<{ booking_id: string }>().booking_id
    const [confirmation] = await smtp.deliveredBy(() => h.context.mail.runOnce())
    if (confirmation === undefined) throw new Error('no confirmation')
    const token = LINK.exec(confirmation.parsed.text ?? '')?.[1] ?? ''
    expect(token, confirmation.parsed.text).not.toBe('')
    return { bookingId, token, confirmation, path: `/bookings/manage/${token}` }
  }
  const post = (url: string, payload = '') => h.app.inject({ method: 'POST', url, headers: FORM, payload })

  it('writes a French guest\'s mails in French, from the club\'s name, with replies to the club and one calendar event', async () => {
    const { bookingId, confirmation, path } = await book('08:00', '09:00', 'fr-CH, fr;q=0.9, en;q=0.5')
    const manageUrl = `${PUBLIC_URL}${path}`
    expect(confirmation.parsed.from?.value).toEqual([{ name: 'Club riverside', address: 'bookings@platform.example' }])
    expect(confirmation.parsed.replyTo?.value.map((address) => address.address)).toEqual(['office@riverside.example'])
    expect(confirmation.parsed.subject)
      .toMatch(/^Réservation confirmée : Court D \(floodlit\), mar\.? 16 juin 2026, 08:00–09:00 — Club riverside$/)
    expect(longDate('fr-FR', TUESDAY)).toBe('mardi 16 juin 2026')
    expect(confirmation.parsed.text).toContain('mardi 16 juin 2026, 08:00–09:00 (heure d’Europe centrale)')
    expect(confirmation.parsed.text).toContain('votre réservation chez Club riverside est confirmée.')
    expect(confirmation.parsed.text).toContain('Répondez à cet e-mail pour joindre Club riverside.')
    const request = calendarOf(confirmation)
    expect(request).toMatchObject({ method: 'REQUEST', uid: `${bookingId}@club-platform`, sequence: 0,
      organizer: 'mailto:office@riverside.example', organizerName: 'Club riverside', attendees: ['mailto:gina@example.org'],
      url: manageUrl, status: 'CONFIRMED', start: '2026-06-16T06:00:00Z' })
    expect(request.description).toContain(manageUrl)
    expect(confirmation.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/)

    // The booking's page speaks the booking's language, and offers the event as a file of its own.
    const page = await h.app.inject({ url: path })
    expect(page.body).toContain('<html lang="fr">')
    expect(page.body).toContain('mardi 16 juin 2026, 08:00–09:00 (heure d’Europe centrale)')
    expect(page.body).toContain(`href="${path}/calendar.ics"`)
    const file = await h.app.inject({ url: `${path}/calendar.ics` })
    expect(file.headers['content-type']).toBe('text/calendar; charset=utf-8; method=PUBLISH')
    // A calendar app polling it gets a 304 while the booking is unchanged, a new copy once it changes.
    expect(file.headers['cache-control']).toBe('private, max-age=300')
    const etag = String(file.headers.etag)
    h.clock.advance(60_000)
    expect((await h.app.inject({ url: `${path}/calendar.ics`, headers: { 'if-none-match': etag } })).statusCode).toBe(304)
    expect(calendar(file.body)).toMatchObject({ method: 'PUBLISH', uid: `${bookingId}@club-platform`, sequence: 0, attendees: [],
      organizer: 'mailto:office@riverside.example', url: manageUrl, status: 'CONFIRMED' })

    // Moved by the guest: the same event, requested anew with the next SEQUENCE, in French.
    const moved = await post(`${path}/move`, `start=${encodeURIComponent(at(TUESDAY, '10:00'))}`)
    expect(moved.statusCode, moved.body).toBe(303)
    const [move] = await smtp.deliveredBy(() => h.context.mail.runOnce())
    expect(move?.parsed.subject).toMatch(/^Réservation déplacée : Court D \(floodlit\), mar\.? 16 juin 2026, 10:00–11:00/)
    expect(move?.parsed.replyTo?.value.map((address) => address.address)).toEqual(['office@riverside.example'])
    const afterMove = await h.app.inject({ url: `${path}/calendar.ics`, headers: { 'if-none-match': etag } })
    expect([afterMove.statusCode, calendar(afterMove.body).sequence]).toEqual([200, 1])
    expect(move === undefined ? undefined : calendarOf(move)).toMatchObject({ method: 'REQUEST', uid: `${bookingId}@club-platform`,
      sequence: 1, organizer: 'mailto:office@riverside.example', attendees: ['mailto:gina@example.org'], url: manageUrl,
      start: '2026-06-16T08:00:00Z' })

    // Cancelled by the guest: CANCEL of the same event, every attendee named, and the way back to booking.
    const cancelled = await post(path)
    expect(cancelled.statusCode, cancelled.body).toBe(303)
    const [cancellation] = await smtp.deliveredBy(() => h.context.mail.runOnce())
    expect(cancellation?.parsed.subject).toMatch(/^Réservation annulée : /)
    expect(cancellation?.parsed.text).toContain('votre réservation chez Club riverside a été annulée à votre demande.')
    expect(cancellation?.parsed.text).toContain(`Réserver un autre créneau : ${PUBLIC_URL}/book/riverside`)
    expect(cancellation?.parsed.html).toContain(`<a href="${PUBLIC_URL}/book/riverside">`)
    expect(cancellation === undefined ? undefined : calendarOf(cancellation)).toMatchObject({ method: 'CANCEL',
      uid: `${bookingId}@club-platform`, sequence: 2, organizer: 'mailto:office@riverside.example',
      attendees: ['mailto:gina@example.org'], status: 'CANCELLED' })
    const after = await h.app.inject({ url: `${path}?cancelled=1` })
    expect(after.body).toContain('<a href="/book/riverside">Réserver un terrain chez Club riverside</a>')
    expect(calendar((await h.app.inject({ url: `${path}/calendar.ics` })).body)).toMatchObject({ method: 'PUBLISH', sequence: 2,
      status: 'CANCELLED' })
  })

  it('writes in the club\'s language when the guest\'s browser asks for none the service speaks', async () => {
    const { confirmation, path } = await book('12:00', '13:00', 'pl, cs;q=0.8')
    expect(confirmation.parsed.subject).toMatch(/^Buchung bestätigt: Court D \(floodlit\), Di\.?, 16\. Juni 2026, 12:00–13:00/)
    expect(confirmation.parsed.text).toContain(`${longDate('de-DE', TUESDAY)}, 12:00–13:00 (Mitteleuropäische Zeit)`)
    expect((await h.app.inject({ url: path })).body).toContain('<html lang="de">')
    // The guest may read the page in another language; the links keep the choice.
    const english = await h.app.inject({ url: `${path}?lang=en` })
    expect(english.body).toContain('<html lang="en">')
    expect(english.body).toContain('Your booking')
    expect(english.body).toContain(`href="${path}?lang=nl" hreflang="nl" lang="nl">Nederlands</a>`)
  })

  it('without a contact address: no Reply-To, and the service\'s address organises the event', async () => {
    await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR, rules: { contactEmail: null } })
    try {
      const { confirmation } = await book('14:00', '15:00', 'en-GB')
      expect(confirmation.parsed.from?.value).toEqual([{ name: 'Club riverside', address: 'bookings@platform.example' }])
      expect(confirmation.parsed.replyTo).toBeUndefined()
      expect(confirmation.parsed.text).not.toContain('Reply to this mail')
      expect(calendarOf(confirmation)).toMatchObject({ method: 'REQUEST', organizer: 'mailto:bookings@platform.example',
        organizerName: 'Club riverside' })
    } finally {
      await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR, rules: { contactEmail: 'office@riverside.example' } })
    }
  })

  it('reminds two hours before, places the event at the club\'s address, keeps the guest\'s note when moved, and names the phone',
    async () => {
      await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR,
        rules: { address: 'Uferweg 4, 10557 Berlin', contactPhone: '+49 30 1234567' } })
      try {
        const { confirmation, path } = await book('16:00', '17:00', 'en-GB', 'Two rackets, please')
        const request = calendarOf(confirmation)
        expect(request.location).toBe('Club riverside, Court D (floodlit), Uferweg 4, 10557 Berlin')
        expect(request.alarms).toEqual([{ action: 'DISPLAY', trigger: '-PT2H' }])
        expect(confirmation.parsed.text).toContain('Phone of the club: +49 30 1234567')
        const file = calendar((await h.app.inject({ url: `${path}/calendar.ics` })).body)
        expect([file.location, file.alarms]).toEqual([request.location, request.alarms])
        // The booking's page names the address, and where it sends the guest to the club, the phone and address to reach it.
        expect((await h.app.inject({ url: path })).body).toContain('<dt>Where</dt><dd>Uferweg 4, 10557 Berlin</dd>')

        const moved = await post(`${path}/move`, `start=${encodeURIComponent(at(TUESDAY, '18:00'))}`)
        expect(moved.statusCode, moved.body).toBe(303)
        const [move] = await smtp.deliveredBy(() => h.context.mail.runOnce())
        expect(move?.parsed.text).toContain('Your notes:\nTwo rackets, please')
        expect(move?.parsed.html).toContain('Two rackets, please')
        const moveEvent = move === undefined ? undefined : calendarOf(move)
        expect(moveEvent?.description).toContain('Two rackets, please')
        expect(moveEvent?.alarms).toEqual([{ action: 'DISPLAY', trigger: '-PT2H' }])

        const cancelled = await post(path)
        expect(cancelled.statusCode).toBe(303)
        const [cancellation] = await smtp.deliveredBy(() => h.context.mail.runOnce())
        // A cancelled event has nothing to remind of.
        expect(cancellation === undefined ? undefined : calendarOf(cancellation).alarms).toEqual([])
      } finally {
        await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR, rules: { address: null, contactPhone: null } })
      }
    })

  it('promises no deadline that has passed: a booking made after it says to contact the club, and how', async () => {
    await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR,
      rules: { cancellationDeadlineMinutes: 43_200, contactPhone: '+49 30 1234567' } })
    try {
      const { confirmation, path } = await book('20:00', '21:00', 'en-GB')
      const text = confirmation.parsed.text ?? ''
      expect(text).toContain('Your booking\'s page (it can no longer be cancelled online; to cancel it, please contact Club riverside):')
      expect(text).not.toMatch(/cancel it until/)
      expect(confirmation.parsed.html).toContain('>See your booking</a>')
      expect(text).toContain('Reply to this mail to reach Club riverside.')
      expect(text).toContain('Phone of the club: +49 30 1234567')
      // Its page says so too, with the club's phone and address as links.
      const page = (await h.app.inject({ url: path })).body
      expect(page).toContain('This booking can no longer be cancelled here')
      expect(page).toContain('How to reach the club: <span class="links"><a href="tel:+49301234567">+49 30 1234567</a>'
        + '<a href="mailto:office@riverside.example">office@riverside.example</a></span>')
      expect(page).not.toContain('name="cancel"')
    } finally {
      await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR,
        rules: { cancellationDeadlineMinutes: 120, contactPhone: null } })
    }
  })
})
