/**
 * The waiting list end to end on both databases, over real SMTP with the mail worker running and
 * a real webhook receiver that verifies with `standardwebhooks`: two addresses wait for a booked
 * time, its guest cancels through the manage link, both get exactly one mail within 5 s with a link
 * to book it, the first to book gets it and the second a slot-conflict; the stop link ends an entry;
 * a move and a removed reservation free times as a cancellation does; `slot.freed` is signed; the
 * per-address limits keep "notify me" from mailing a stranger again and again; a club may switch the
 * list off.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { changeBookingRules } from '../../src/services/booking-rules.js'
import { erasePersonalData, exportPersonalData } from '../../src/services/personal-data.js'
import { applyRetention } from '../../src/services/retention.js'
import { OPERATOR } from '../../src/services/audit.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { cli } from '../helpers/cli.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import type { ReceivedMail } from '../helpers/smtp.js'
import { WebhookReceiver } from '../helpers/webhook-receiver.js'

const at = (date: string, time: string) => `${date}T${time}:00+02:00`
const WAIT = '/api/v1/public/riverside/courts/waitlist'
const BOOK = '/api/v1/public/riverside/courts/book'
const CLUB = '/api/admin/v1/clubs/riverside'
const MANAGE = /\/bookings\/manage\/(cpm_[A-Za-z0-9_-]{43})/
const STOP = /\/waiting-list\/(cpw_[A-Za-z0-9_-]{43})/
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

describeEachDatabase('the waiting list', (dialect) => {
  const smtp = new TestSmtpServer()
  const receiver = new WebhookReceiver()
  let h: Harness & { close(): Promise<void> }
  let clubId = ''

  beforeAll(async () => {
    await smtp.start()
    await receiver.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      BOOKING_MAX_OPEN_PER_EMAIL: '3', BOOKING_MAX_PER_ADDRESS_PER_DAY: '5' } })
    receiver.clock = () => h.clock.now()
    clubId = (await setUpCourts(h, 'riverside')).clubId
    h.context.mail.start()
  })
  afterAll(async () => {
    await h.close()
    await receiver.stop()
    await smtp.stop()
  })

  /** The mails to an address received so far. */
  const inbox = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
  /** Waits (at most `ms`) until the address has `count` mails; returns them. */
  const mailsOf = async (address: string, count: number, ms = 5_000) => {
    const deadline = Date.now() + ms
    while (inbox(address).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    return inbox(address)
  }
  const book = (start: string, end: string, email: string) => h.request({ method: 'POST', url: BOOK, payload: {
    court_id: COURT.allDay, start_time: start, end_time: end, booker_name: 'Gina Guest', booker_email: email } })
  const wait = (start: string, end: string, email: string, name = 'Walter Waiting', headers: Record<string, string> = {}) =>
    h.request({ method: 'POST', url: WAIT, headers, payload: { court_id: COURT.allDay, start_time: start, end_time: end, name,
      email } })
  const textOf = (mail: ReceivedMail | undefined) => mail?.parsed.text ?? ''
  const subjects = (mails: readonly ReceivedMail[]) => mails.map((mail) => mail.parsed.subject ?? '')

  it('mails both waiters once when the guest cancels; the first to book gets the time, the second a slot-conflict', async () => {
    const [start, end] = [at(TUESDAY, '10:00'), at(TUESDAY, '11:00')]
    expect((await book(start, end, 'booker@example.org')).status).toBe(201)
    const [confirmation] = await mailsOf('booker@example.org', 1)
    const manage = MANAGE.exec(textOf(confirmation))?.[1] ?? ''

    const first = await wait(start, end, 'anna@example.org', 'Anna', { 'accept-language': 'de' })
    expect(first.status, first.body).toBe(201)
    expect(first.json()).toEqual({ success: true, court_id: COURT.allDay, start_time: start, end_time: end })
    expect((await wait(start, end, 'ben@example.org', 'Ben')).status).toBe(201)
    // Asking again changes nothing and mails nothing.
    expect((await wait(start, end, 'Anna@Example.org', 'Anna')).status).toBe(201)
    const [joined] = await mailsOf('anna@example.org', 1)
    expect(joined?.parsed.subject)
      .toMatch(/^Auf der Warteliste: Court D \(floodlit\), Di\.?, 16\. Juni 2026, 10:00–11:00 — Club riverside$/)
    expect(textOf(joined)).toMatch(STOP)
    expect((await mailsOf('ben@example.org', 1))).toHaveLength(1)

    // The guest cancels through the manage link: both waiters are mailed at once, once each.
    const cancelled = await h.app.inject({ method: 'POST', url: `/bookings/manage/${manage}`, headers: FORM, payload: '' })
    expect(cancelled.statusCode, cancelled.body).toBe(303)
    const anna = await mailsOf('anna@example.org', 2)
    const ben = await mailsOf('ben@example.org', 2)
    expect(anna.map((mail) => mail.parsed.subject)).toEqual([expect.stringMatching(/^Auf der Warteliste/),
      expect.stringMatching(/^Jetzt frei: Court D \(floodlit\), Di\.?, 16\. Juni 2026, 10:00–11:00 — Club riverside$/)])
    expect(ben[1]?.parsed.subject).toMatch(/^Free now: Court D \(floodlit\), Tue, 16 Jun 2026, 10:00–11:00 — Club riverside$/)
    // The link to book it carries the entry's token, never its address: the page fills in the name and address from the entry.
    const token = STOP.exec(textOf(ben[1]))?.[1] ?? ''
    const bookLink = `${ORIGIN}/book/riverside?date=${TUESDAY}&court=${COURT.allDay}&lang=en&wait=${token}`
    expect(textOf(ben[1])).toContain(bookLink)
    expect(ben[1]?.parsed.html).toContain(`<a href="${bookLink.replaceAll('&', '&#38;')}">Book this time</a>`)
    // A mail program may stop the mails with one click (RFC 8058): List-Unsubscribe names the stop link, which takes a POST.
    const header = (name: string) => ben[1]?.parsed.headerLines.find((line) => line.key === name)?.line.replace(/\r\n\s+/g, ' ')
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${ORIGIN}/waiting-list/${token}>`)
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    // The link opens the club's booking page on the time's day and court, the time chosen, Ben's name and address filled in.
    const bookingPage = await h.app.inject({ url: bookLink.replace(ORIGIN, '') })
    expect(bookingPage.body).toContain(`<club-booking club="riverside" lang="en" date="${TUESDAY}" court="${COURT.allDay}" `
      + `start="${new Date(Date.parse(start)).toISOString()}" booker-name="Ben" booker-email="ben@example.org">`)
    expect((await h.app.inject({ url: '/book/riverside?date=%22%3E&court=x' })).body).toContain('<club-booking club="riverside" lang="en">')

    // First come, first served: nothing is held.
    expect((await book(start, end, 'ben@example.org')).status).toBe(201)
    // Ben's entry has ended with his booking: its link opens the day, and fills in nothing any more.
    const afterBooking = (await h.app.inject({ url: bookLink.replace(ORIGIN, '') })).body
    expect(afterBooking).toContain(`<club-booking club="riverside" lang="en" date="${TUESDAY}" court="${COURT.allDay}">`)
    expect(afterBooking).not.toContain('ben@example.org')
    const second = await book(start, end, 'anna@example.org')
    expect(second.status).toBe(400)
    expect(second.json<{ type: string }>().type).toBe('/api/v1/problems/slot-conflict')
    // Still exactly one freed mail each after the worker has had time to send anything more.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(inbox('anna@example.org')).toHaveLength(2)
    expect(inbox('ben@example.org')).toHaveLength(3)
  })

  it('says on the stop page that its address booked the time, and a mail program\'s one-click stop (RFC 8058) ends an entry',
    async () => {
      const [start, end] = [at(TUESDAY, '15:00'), at(TUESDAY, '16:00')]
      expect((await book(start, end, 'holder@example.org')).status).toBe(201)
      const [held] = await mailsOf('holder@example.org', 1)
      expect((await wait(start, end, 'fiona@example.org', 'Fiona')).status).toBe(201)
      expect((await wait(start, end, 'gabe@example.org', 'Gabe', { 'idempotency-key': 'gabe-1' })).status).toBe(201)
      // Asked again with its key: answered alike, said to be a repeat, mailed once.
      const again = await wait(start, end, 'gabe@example.org', 'Gabe', { 'idempotency-key': 'gabe-1' })
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true'])
      const fiona = STOP.exec(textOf((await mailsOf('fiona@example.org', 1))[0]))?.[1] ?? ''
      const gabe = STOP.exec(textOf((await mailsOf('gabe@example.org', 1))[0]))?.[1] ?? ''
      expect((await h.app.inject({ url: `/waiting-list/${fiona}` })).body).toContain('You are on the waiting list')
      // The time frees; Fiona books it: her stop link's page says so (the link is only looked at: it changes nothing).
      const manage = MANAGE.exec(textOf(held))?.[1] ?? ''
      expect((await h.app.inject({ method: 'POST', url: `/bookings/manage/${manage}`, headers: FORM, payload: '' })).statusCode)
        .toBe(303)
      expect((await book(start, end, 'fiona@example.org')).status).toBe(201)
      const page = (await h.app.inject({ url: `/waiting-list/${fiona}` })).body
      expect(page).toContain('You booked this time: the waiting list does not write to you about it any more.')
      expect(page).not.toContain('You are on the waiting list')
      expect(page).not.toContain('<form method="post">')
      // Gabe's mail program stops his mails with one POST, as RFC 8058 sends it.
      const boundary = 'one-click-boundary'
      const oneClick = await h.app.inject({ method: 'POST', url: `/waiting-list/${gabe}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n` })
      expect(oneClick.statusCode).toBe(303)
      expect((await h.app.inject({ url: `/waiting-list/${gabe}` })).body).toContain('This entry has ended')
    })

  it('ends an entry with its stop link; a move and a removed reservation free times as a cancellation does; slot.freed is signed',
    async () => {
      const owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
      const created = await owner('POST', `${CLUB}/webhook-endpoints`, { url: receiver.url, event_types: ['slot.freed'] })
      expect(created.status, created.body).toBe(201)
      const { secret } = created.json<{ secret: string }>()
      const [start, end] = [at(TUESDAY, '12:00'), at(TUESDAY, '13:00')]
      const booked = await book(start, end, 'carla@example.org')
      const bookingId = booked.json<{ booking_id: string }>().booking_id
      expect((await wait(start, end, 'dora@example.org', 'Dora')).status).toBe(201)
      expect((await wait(start, end, 'emil@example.org', 'Emil')).status).toBe(201)
      const stop = STOP.exec(textOf((await mailsOf('dora@example.org', 1))[0]))?.[1] ?? ''
      // The front desk's planner counts who waits for each slot.
      const waitingAt = async (time: string) => {
        const day = await owner('GET', `${CLUB}/planner?date=${TUESDAY}`)
        expect(day.status, day.body).toBe(200)
        const courts = day.json<{ courts: { id: string, slots: { start_time: string, waiting: number }[] }[] }>().courts
        return courts.find((court) => court.id === COURT.allDay)?.slots.find((slot) => slot.start_time === time)?.waiting
      }
      expect(await waitingAt(start)).toBe(2)

      // The page shows the time and a button; a GET (a mail scanner's) changes nothing.
      const page = await h.app.inject({ url: `/waiting-list/${stop}` })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('Court D (floodlit)')
      expect(page.body).not.toContain('dora@example.org')
      const stopped = await h.app.inject({ method: 'POST', url: `/waiting-list/${stop}`, headers: FORM, payload: '' })
      expect(stopped.statusCode).toBe(303)
      expect((await h.app.inject({ url: stopped.headers.location ?? '' })).body)
        .toContain('Done: you will get no more e-mails about this time.')
      expect((await h.app.inject({ url: '/waiting-list/cpw_not-a-token' })).statusCode).toBe(404)
      expect(await waitingAt(start)).toBe(1)

      // The club moves the booking to another hour: the time it leaves is free, and only Emil still waits.
      const moved = await owner('POST', `${CLUB}/bookings/${bookingId}/move`, { court_id: COURT.allDay,
        start_time: at(TUESDAY, '14:00'), end_time: at(TUESDAY, '15:00'), notify_guest: false })
      expect(moved.status, moved.body).toBe(200)
      expect(subjects(await mailsOf('emil@example.org', 2))).toContainEqual(expect.stringMatching(/^Free now: .*12:00–13:00/))
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(inbox('dora@example.org')).toHaveLength(1)
      while (await h.context.webhooks.runOnce() > 0);
      const event = receiver.received.map((request) => WebhookReceiver.verify(request, secret)).find((body) => body.type === 'slot.freed')
      expect(event).toMatchObject({ type: 'slot.freed', data: { court_id: COURT.allDay, court_name: 'Court D (floodlit)',
        start_time: start, end_time: end, freed_by: 'move', waiting: 1 } })
      expect(JSON.stringify(event)).not.toMatch(/emil|dora|carla/i)

      // Court A's weekly junior training (Tuesdays 18:00–20:00) is removed: whoever waits for 18:00 is told.
      const reserved = [at(TUESDAY, '18:00'), at(TUESDAY, '19:00')] as const
      expect((await h.request({ method: 'POST', url: WAIT, payload: { court_id: COURT.a, start_time: reserved[0],
        end_time: reserved[1], name: 'Fritz', email: 'fritz@example.org' } })).status).toBe(201)
      const holds = await owner('GET', `${CLUB}/courts/${COURT.a}/holds`)
      const training = holds.json<{ items: { id: string, reason: string | null }[] }>().items
        .find((hold) => hold.reason === 'junior training')
      expect((await owner('DELETE', `${CLUB}/courts/${COURT.a}/holds/${training?.id ?? ''}`)).status).toBe(204)
      expect(subjects(await mailsOf('fritz@example.org', 2)))
        .toContainEqual(expect.stringMatching(/^Free now: Court A, Tue, 16 Jun 2026, 18:00–19:00/))
    })

  it('tells no one when a block is laid over a waited-for booking, and tells all when it goes; a booker\'s own time is not news',
    async () => {
      const owner = asSession(h, await signedIn(h, clubId, 'oskar@example.org', 'owner'))
      const [start, end] = [at('2026-06-18', '10:00'), at('2026-06-18', '11:00')]
      const bookingOf = async (email: string, from = start, to = end) => {
        const response = await book(from, to, email)
        expect(response.status, response.body).toBe(201)
        return response.json<{ booking_id: string }>().booking_id
      }
      await bookingOf('jana@example.org')
      h.clock.advance(60_000)
      expect((await wait(start, end, 'kai@example.org', 'Kai')).status).toBe(201)
      await mailsOf('kai@example.org', 1)
      // A block over the booking cancels it, and the time is still not free: nobody is told it is.
      const block = await owner('POST', `${CLUB}/courts/${COURT.allDay}/holds`, { kind: 'block', starts_at: start, ends_at: end,
        cancel_displaced_bookings: true })
      expect(block.status, block.body).toBe(201)
      await mailsOf('jana@example.org', 2)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(inbox('kai@example.org')).toHaveLength(1)
      // Removed again: now the time is free, and Kai is told.
      expect((await owner('DELETE', `${CLUB}/courts/${COURT.allDay}/holds/${block.json<{ id: string }>().id}`)).status).toBe(204)
      expect(subjects(await mailsOf('kai@example.org', 2))).toContainEqual(expect.stringMatching(/^Free now: .*10:00–11:00/))

      // Lena waits for the time she has booked herself (nothing tells anyone who booked a time); the club cancels her booking:
      // Kai is told, Lena only gets her cancellation.
      const [eleven, noon] = [at('2026-06-18', '11:00'), at('2026-06-18', '12:00')]
      const lenas = await bookingOf('lena@example.org', eleven, noon)
      h.clock.advance(60_000)
      expect((await wait(eleven, noon, 'lena@example.org', 'Lena')).status).toBe(201)
      expect((await wait(eleven, noon, 'kai@example.org', 'Kai')).status).toBe(201)
      await mailsOf('kai@example.org', 3)
      expect((await owner('POST', `${CLUB}/bookings/${lenas}/cancel`, { reason: 'Net repairs' })).status).toBe(200)
      expect(subjects(await mailsOf('kai@example.org', 4))).toContainEqual(expect.stringMatching(/^Free now: .*11:00–12:00/))
      await mailsOf('lena@example.org', 3)
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The worker sends over several connections: mails may arrive in any order.
      expect(subjects(inbox('lena@example.org')).sort()).toEqual([expect.stringMatching(/^Booking cancelled/),
        expect.stringMatching(/^Booking confirmed/), expect.stringMatching(/^On the waiting list/)])
    })

  it('refuses a free time, a time not on the grid, and a stranger\'s address past its limits, as booking does', async () => {
    const free = await wait(at(TUESDAY, '20:00'), at(TUESDAY, '21:00'), 'gus@example.org')
    expect(free.status).toBe(400)
    expect(free.json<{ type: string, detail: string }>()).toMatchObject({ type: '/api/v1/problems/invalid-booking',
      code: 'slot_free', detail: 'This time on Court D (floodlit) is free: book it instead of waiting for it.' })
    const offGrid = await wait(at(TUESDAY, '20:30'), at(TUESDAY, '21:30'), 'gus@example.org')
    expect([offGrid.status, offGrid.json<{ code: string }>().code]).toEqual([400, 'off_grid'])
    expect((await h.request({ method: 'POST', url: WAIT, payload: { court_id: COURT.allDay, start_time: at(TUESDAY, '20:00') } }))
      .json<{ type: string }>().type).toBe('/api/v1/problems/invalid-booking')

    // Someone enters a stranger's address for one taken time after another: it is mailed for at most 3 (its open limit).
    const hours = ['01', '02', '03', '04', '05', '06']
    const next = (hour: string) => String(Number(hour) + 1).padStart(2, '0')
    for (const [i, hour] of hours.entries()) {
      expect((await book(at('2026-06-17', `${hour}:00`), at('2026-06-17', `${next(hour)}:00`), `host${String(i)}@example.org`)).status)
        .toBe(201)
    }
    const answers = []
    for (const hour of hours) {
      answers.push(await wait(at('2026-06-17', `${hour}:00`), at('2026-06-17', `${next(hour)}:00`), 'stranger@example.org'))
    }
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 400, 400, 400])
    expect(answers[3]?.json<{ detail: string }>()).toMatchObject({ code: 'address_cannot_wait',
      detail: 'This e-mail address cannot wait for another time now.' })
    await mailsOf('stranger@example.org', 3)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(inbox('stranger@example.org')).toHaveLength(3)
  })

  it('answers nothing but a refusal when the club has switched its list off, and the listing says so', async () => {
    // Switched off at the command line (another process): the listing's cached answers see it.
    const listed = async () => (await h.request({ url: `/api/v1/public/riverside/courts?date=${TUESDAY}` }))
      .json<{ waiting_list: boolean }>().waiting_list
    expect(await listed()).toBe(true)
    const off = await cli(h.database.env, ['clubs', 'rules', '--club', 'riverside', '--waiting-list', 'off', '--json'])
    expect(off.code, off.stderr).toBe(0)
    expect(off.json()).toMatchObject({ waiting_list: false })
    try {
      await expect.poll(listed).toBe(false)
      const refused = await wait(at(TUESDAY, '14:00'), at(TUESDAY, '15:00'), 'hanna@example.org')
      expect(refused.json<{ detail: string }>()).toMatchObject({ code: 'no_waiting_list', detail: 'This club has no waiting list.' })
    } finally {
      await changeBookingRules(h.context.db, h.clock, { clubId, actor: OPERATOR, rules: { waitingList: true } })
    }
    expect(await listed()).toBe(true)
  })

  it('exports and erases an address\'s entries with its other data, and retention removes every entry whose slot has started',
    async () => {
      const [start, end] = [at(TUESDAY, '16:00'), at(TUESDAY, '17:00')]
      expect((await book(start, end, 'ida-host@example.org')).status).toBe(201)
      expect((await wait(start, end, 'ida@example.org', 'Ida')).status).toBe(201)
      const request = { email: 'ida@example.org', clubId, actor: OPERATOR }
      expect((await exportPersonalData(h.context.db, h.clock, request)).waiting_list).toEqual([expect.objectContaining({
        court_name: 'Court D (floodlit)', start_time: new Date(Date.parse(start)).toISOString(), name: 'Ida', email: 'ida@example.org',
        ended_at: null })])
      expect((await erasePersonalData(h.context.db, h.clock, request)).waitingEntries).toBe(1)
      expect((await exportPersonalData(h.context.db, h.clock, request)).waiting_list).toEqual([])

      const entries = () => h.context.db.selectFrom('waiting_list_entries').select('starts_at').execute()
      expect((await entries()).length).toBeGreaterThan(0)
      h.clock.set(Date.parse(at('2026-06-17', '02:30')))
      const report = await applyRetention(h.context.db, h.clock.now())
      // What is left waits for 03:00 on the 17th; everything that has started has gone.
      const left = (await entries()).map((row) => new Date(row.starts_at).getTime())
      expect(left.every((time) => time > h.clock.now())).toBe(true)
      expect(report.waitingEntriesDeleted).toBeGreaterThan(0)
      expect(left.length).toBeGreaterThan(0)
    })
})
