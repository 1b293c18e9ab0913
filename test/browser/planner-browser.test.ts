/**
 * The front desk's planner as an owner uses it, in Debian's Chromium against the real server
 * process, on SQLite and on PostgreSQL, with mail through a real SMTP server: all courts of a day
 * side by side; a booking made through the public API appears without a reload (on PostgreSQL also
 * on the planner of a second server process, which did not take it); a member found by
 * name booked on a free time and mailed a confirmation; one booking moved
 * by drag and drop, one by keyboard alone, one by the booking's form, each guest mailed an update
 * of the same calendar event (METHOD:REQUEST, same UID, higher SEQUENCE); previous and next day; a
 * 12-week series with two dates in the way previewed, booked without them, one date moved and the
 * rest cancelled.
 * axe-core on each state, screenshots (desktop, tablet, phone) in docs/screenshots/.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { addDays, localToInstant } from '../../src/domain/zoned-time.js'
import { DESKTOP, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { cli } from '../helpers/cli.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import { idFor } from '../helpers/fixtures.js'
import type { ReceivedMail } from '../helpers/smtp.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { onRealDay, testToday, useTestClock } from '../helpers/today.js'

const ZONE = 'Europe/Berlin'
const COURTS = [1, 2, 3].map((n) => ({ id: idFor(`planner-court:${String(n)}`), name: `Court ${String(n)}` }))
const TABLET = { width: 820, height: 1180 }

describeInBrowser('the planner in a browser', 'the planner browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    // Every booking and waiting list request of the suite comes from one client address: more than the default bucket.
    env: () => ({ SMTP_URL: smtp.url, BOOKING_MAX_OPEN_PER_EMAIL: '50', BOOKING_RATE_CAPACITY: '20' }),
    seed: async (context) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: ZONE })
      const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))
      await importClubData(context.db, context.clock, club.id, { members: [{ id: idFor('planner-member'), name: 'Mara Member',
        email: 'mara@example.org' }], courts: [
        ...COURTS.map((court) => ({ ...court, booking_horizon_days: 30, opening_hours: hours })),
        { id: idFor('planner-court:4'), name: 'Court 4 (mornings)', slot_minutes: 30, booking_horizon_days: 30,
          opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '12:00' }])) },
      ] })
    },
    stop: () => smtp.stop(),
  })
  const violations: string[] = []
  const date = testToday(2)
  let owner: { context: BrowserContext, page: Page }

  const check = async (page: Page, name: string) => {
    violations.push(...await seriousViolations(page, name))
    if (dialect !== 'sqlite' || !onRealDay()) return
    await screenshots(page, `dashboard-${name}`)
    const viewport = page.viewportSize() ?? DESKTOP
    await page.setViewportSize(TABLET)
    await page.screenshot({ path: `docs/screenshots/dashboard-${name}-tablet.png`, fullPage: true })
    await page.setViewportSize(viewport)
  }
  const at = (time: string) => new Date(localToInstant(date, Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)), ZONE))
  const book = async (court: number, time: string, name: string) => {
    const start = at(time)
    const response = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURTS[court - 1]?.id,
        start_time: start.toISOString(), end_time: new Date(start.getTime() + 3_600_000).toISOString(), booker_name: name,
        booker_email: `${name.split(' ')[0]?.toLowerCase() ?? ''}@example.org` }) })
    expect(response.status, await response.clone().text()).toBe(201)
    return (await response.json() as { booking_id: string }).booking_id
  }
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
  const calendarOf = (mail: ReceivedMail | undefined) => (mail?.parsed.attachments
    .find((part) => part.contentType === 'text/calendar')?.content.toString('utf8') ?? '').replace(/\r\n[ \t]/g, '')
  const field = (ics: string, name: string) => new RegExp(`^${name}[:;](.*)\\r?$`, 'm').exec(ics)?.[1]
  /** The guest's mails once the worker sent `count`: the first one's event and the last one's must be the same. */
  const updateMailed = async (address: string, count: number, movedTo: string) => {
    await expect.poll(() => mailsTo(address).length, { timeout: 10_000, interval: 100 }).toBe(count)
    const mails = mailsTo(address)
    const first = calendarOf(mails[0])
    const update = calendarOf(mails.at(-1))
    expect(field(update, 'METHOD')).toBe('REQUEST')
    expect(field(update, 'UID')).toBe(field(first, 'UID'))
    expect(Number(field(update, 'SEQUENCE'))).toBeGreaterThan(Number(field(first, 'SEQUENCE') ?? 0))
    expect(mails.at(-1)?.parsed.text).toContain(movedTo)
  }
  const cell = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}\\W+Court`) })

  it('signs the owner in and shows all courts of the day side by side, bookings with the guest\'s name', async () => {
    const invited = await cli(suite.env, ['admins', 'invite', '--club', 'riverside', '--email', 'olivia@example.org', '--json'])
    expect(invited.code, invited.stderr).toBe(0)
    await book(1, '09:00', 'Anna Early')
    await book(2, '10:00', 'Ben Keyboard')
    await book(3, '18:00', 'Cara Form')
    const context = await suite.browser.newContext({ viewport: DESKTOP, locale: 'en-GB', timezoneId: 'America/New_York' })
    await useTestClock(context)
    context.setDefaultTimeout(8_000)
    const page = await context.newPage()
    owner = { context, page }
    await page.goto(invited.json<{ invitation_url: string }>().invitation_url)
    await page.getByRole('button', { name: 'Accept and sign in' }).click()
    await page.getByRole('heading', { name: 'Developer access' }).waitFor()
    await page.getByRole('link', { name: 'Planner' }).click()
    await page.getByRole('heading', { name: 'Planner', level: 1 }).waitFor()
    await page.getByText('Live: changes show by themselves').waitFor()
    await page.getByLabel('Date').fill(date)
    await page.getByLabel('Date').dispatchEvent('change')
    await cell(page, 'Anna Early').waitFor()
    const headers = await page.getByRole('columnheader').allTextContents()
    expect(headers).toEqual(['Time', 'Court 1', 'Court 2', 'Court 3', 'Court 4 (mornings)'])
    // Rows every 30 minutes (the mornings court's slots); an hour's booking fills two.
    expect(await page.getByRole('rowheader').first().textContent()).toBe('08:00')
    expect(await cell(page, 'Anna Early').textContent()).toContain('09:00–10:00')
    await check(page, 'planner')
    // Many courts: a filter by name.
    await page.getByLabel('Filter courts').fill('mornings')
    await expect.poll(() => page.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Court 4 (mornings)'])
    await page.getByLabel('Filter courts').fill('')
    await expect.poll(() => page.getByRole('columnheader').count()).toBe(5)
  })

  it('counts the addresses waiting for a booked time on its booking, live', async () => {
    const { page } = owner
    for (const name of ['wendy', 'walt']) {
      const start = at('18:00')
      const response = await fetch(`${suite.origin}/api/v1/public/riverside/courts/waitlist`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURTS[2]?.id,
          start_time: start.toISOString(), end_time: new Date(start.getTime() + 3_600_000).toISOString(), name,
          email: `${name}@example.org` }) })
      expect(response.status, await response.text()).toBe(201)
    }
    await expect.poll(() => cell(page, 'Cara Form').textContent(), { timeout: 5_000 }).toContain('2 waiting')
    await cell(page, 'Cara Form').scrollIntoViewIfNeeded()
    await check(page, 'planner-waiting')
  })

  it('shows a booking made through the public API within 5 s, without a reload', async () => {
    const { page } = owner
    const marker = await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true
      return true
    })
    expect(marker).toBe(true)
    // On PostgreSQL, the same planner served by a second server process, which learns of the booking
    // only through the database's notifications (the session's cookie is the host's, whatever the port).
    const second = dialect === 'postgres' ? await startServer({ ...suite.env, PORT: '0' }) : undefined
    const elsewhere = second === undefined ? undefined : await owner.context.newPage()
    try {
      if (second !== undefined && elsewhere !== undefined) {
        await elsewhere.goto(`http://localhost:${new URL(second.url).port}/dashboard/clubs/riverside/planner`)
        await elsewhere.getByText('Live: changes show by themselves').waitFor()
        await elsewhere.getByLabel('Date').fill(date)
        await elsewhere.getByLabel('Date').dispatchEvent('change')
        await cell(elsewhere, 'Anna Early').waitFor()
      }
      const started = Date.now()
      await book(1, '12:00', 'Dana Widget')
      const open = elsewhere === undefined ? [page] : [page, elsewhere]
      await Promise.all(open.map((shown) => cell(shown, 'Dana Widget').waitFor({ timeout: 5_000 })))
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
    } finally {
      await elsewhere?.close()
      if (second !== undefined) await stopServer(second)
    }
  })

  it('books a free time for a member found by name, with a note; the member is mailed a confirmation', async () => {
    const { page } = owner
    await page.getByRole('button', { name: /^Book\W+Court 3, 08:00$/ }).click()
    await page.getByRole('heading', { name: 'New booking: Court 3, 08:00' }).waitFor()
    await page.getByLabel('Find a member').fill('mar')
    await page.getByRole('button', { name: 'Mara Member <mara@example.org>' }).click()
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Mara Member')
    expect(await page.getByLabel('E-mail (optional)').inputValue()).toBe('mara@example.org')
    await page.getByLabel('Note').fill('Coaching with Tim')
    await check(page, 'planner-new-booking')
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByText('Mara Member booked on Court 3, 08:00–09:00; a confirmation is mailed.').waitFor()
    expect(await page.locator('td.booking[data-court="Court 3"][data-time="08:00"]').textContent()).toContain('Coaching with Tim')
    await expect.poll(() => mailsTo('mara@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    expect(mailsTo('mara@example.org')[0]?.parsed.subject).toMatch(/^Booking confirmed: Court 3/)
  })

  it('moves a booking by drag and drop; the guest is mailed an update of the same event', async () => {
    const { page } = owner
    while (mailsTo('anna@example.org').length === 0) await new Promise((resolve) => setTimeout(resolve, 100))
    await cell(page, 'Anna Early').dragTo(page.locator('td.available[data-court="Court 2"][data-time="11:00"]'))
    await page.getByText('Anna Early moved to Court 2, 11:00–12:00; the guest is mailed.').waitFor()
    expect(await page.locator('td.booking[data-court="Court 2"][data-time="11:00"]').textContent()).toContain('Anna Early')
    expect(await page.locator('td[data-court="Court 1"][data-time="09:00"]').getAttribute('class')).toContain('available')
    await updateMailed('anna@example.org', 2, '11:00')
  })

  it('moves a booking by keyboard alone: Enter on it, "Move…", then a free time', async () => {
    const { page } = owner
    while (mailsTo('ben@example.org').length === 0) await new Promise((resolve) => setTimeout(resolve, 100))
    await cell(page, 'Ben Keyboard').focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Ben Keyboard', level: 2 }).waitFor()
    // The panel's heading takes the focus; the next Tab stop is "Move…".
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('booking-panel-title')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Move…')
    await page.keyboard.press('Enter')
    await page.getByRole('region', { name: 'Moving a booking' }).waitFor()
    await check(page, 'planner-moving')
    const target = page.getByRole('button', { name: /^Move here\W+Court 3, 14:00$/ })
    await target.focus()
    await page.keyboard.press('Enter')
    await page.getByText('Ben Keyboard moved to Court 3, 14:00–15:00; the guest is mailed.').waitFor()
    await updateMailed('ben@example.org', 2, '14:00')
    // Escape leaves a move without one.
    await cell(page, 'Cara Form').focus()
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Move…' }).click()
    await page.keyboard.press('Escape')
    await page.getByText('Move cancelled.').waitFor()
  })

  it('moves a booking by its form, to another court and time, and walks to the next and previous day', async () => {
    const { page } = owner
    await cell(page, 'Cara Form').click()
    // A taken time is listed, and cannot be chosen.
    await page.getByLabel('Court', { exact: true }).selectOption({ label: 'Court 1' })
    expect(await page.getByLabel('Start').locator('option', { hasText: '12:00 (Booked)' }).isDisabled()).toBe(true)
    await page.getByLabel('Court', { exact: true }).selectOption({ label: 'Court 2' })
    await page.getByLabel('Start').selectOption({ label: '20:00' })
    await check(page, 'planner-booking')
    await page.getByRole('button', { name: 'Move booking' }).click()
    await page.getByText('Cara Form moved to Court 2, 20:00–21:00; the guest is mailed.').waitFor()
    await updateMailed('cara@example.org', 2, '20:00')
    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { court_id: string, start_time: string, status: string }[] }).courts
    const status = (court: number, time: string) => slots.find((slot) => slot.court_id === COURTS[court - 1]?.id
      && Date.parse(slot.start_time) === at(time).getTime())?.status
    expect([status(3, '18:00'), status(2, '20:00'), status(2, '10:00'), status(3, '14:00')])
      .toEqual(['available', 'booked', 'available', 'booked'])

    await page.getByRole('button', { name: 'Next day' }).click()
    await expect.poll(() => page.getByLabel('Date').inputValue()).toBe(testToday(3))
    // The table says which day it shows once that day has arrived.
    await page.getByRole('table', { name: `All courts on ${testToday(3)}` }).waitFor()
    expect(await page.getByRole('button', { name: /^Cara Form/ }).count()).toBe(0)
    await page.getByRole('button', { name: 'Previous day' }).click()
    await page.getByRole('table', { name: `All courts on ${date}` }).waitFor()
    await cell(page, 'Cara Form').waitFor()
  })

  it('previews a 12-week series with two dates in the way, books it without them, moves one and cancels the rest', async () => {
    // In the way: a booking in week 3 and a block in week 6, each taken through the command line.
    const court3 = COURTS[2]?.id ?? ''
    const week = (n: number) => addDays(date, 7 * n)
    const local = (day: string, time: string) => new Date(localToInstant(day, Number(time.slice(0, 2)) * 60, ZONE)).toISOString()
    const taken = await cli(suite.env, ['bookings', 'create', '--club', 'riverside', '--court', court3, '--start',
      local(week(2), '10:00'), '--end', local(week(2), '11:00'), '--name', 'Earlier guest', '--override-horizon', '--reason', 'test'])
    expect(taken.code, taken.stderr).toBe(0)
    const blocked = await cli(suite.env, ['courts', 'hold', '--club', 'riverside', '--court', court3, '--kind', 'block', '--from',
      local(week(5), '09:00'), '--to', local(week(5), '12:00'), '--reason', 'resurfacing'])
    expect(blocked.code, blocked.stderr).toBe(0)
    const { page } = owner
    await page.getByRole('button', { name: /^Book\W+Court 3, 10:00$/ }).click()
    await page.getByLabel('Name', { exact: true }).fill('Juniors A')
    await page.getByLabel('Every week (a series)').check()
    expect(await page.getByLabel('Until').inputValue()).toBe(week(11))
    await page.getByRole('button', { name: 'Show the dates' }).click()
    const dates = page.getByRole('list', { name: 'The dates of the series' }).getByRole('listitem')
    await expect.poll(() => dates.count()).toBe(12)
    expect(await dates.nth(2).textContent()).toBe(`${week(2)}: booked`)
    expect(await dates.nth(5).textContent()).toBe(`${week(5)}: blocked`)
    await page.getByLabel('Book the 10 free dates').waitFor()
    await check(page, 'planner-series')
    await page.getByRole('button', { name: 'Book the series' }).click()
    await page.getByText('Series for Juniors A: 10 dates booked, 2 left out.').waitFor()
    await cell(page, 'Juniors A').waitFor()

    // One occurrence moves like any booking: this week's, to noon.
    await cell(page, 'Juniors A').click()
    await page.getByLabel('Start').selectOption({ label: '12:00' })
    await page.getByRole('button', { name: 'Move booking' }).click()
    await page.getByText('Juniors A moved to Court 3, 12:00–13:00.').waitFor()

    // The rest, from next week on, cancelled from next week's planner.
    await page.getByLabel('Date').fill(week(1))
    await page.getByLabel('Date').dispatchEvent('change')
    await page.getByRole('table', { name: `All courts on ${week(1)}` }).waitFor()
    await cell(page, 'Juniors A').click()
    await page.getByRole('button', { name: 'Cancel this and the following weeks' }).click()
    await page.getByText(`9 bookings of the series cancelled from ${week(1)} on.`).waitFor()
    // The day is drawn again once the cancellation is in: the message may come a moment before the grid.
    await expect.poll(() => page.getByRole('button', { name: /^Juniors A/ }).count()).toBe(0)
    const status = async (day: string, time: string) => {
      const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${day}`)
      return (await listing.json() as { courts: { court_id: string, start_time: string, status: string }[] }).courts
        .find((slot) => slot.court_id === court3 && Date.parse(slot.start_time) === Date.parse(local(day, time)))?.status
    }
    expect([await status(date, '12:00'), await status(week(1), '10:00'), await status(week(3), '10:00')])
      .toEqual(['booked', 'available', 'available'])
    await owner.context.close()
  })

  it('has no serious or critical accessibility violations', () => {
    expect(violations).toEqual([])
  })
})
