/**
 * The guest's booking page as a guest uses it, in Debian's Chromium with JavaScript off, against
 * the real server process on SQLite and on PostgreSQL, with mail through a real SMTP server: a
 * booking made through the public API, the link from the delivered confirmation opened, the
 * booking cancelled with the page's button (the cancellation mail arrives once), another moved to
 * a free time of its day (the change mail arrives). The pages (open, cancelled, change of time,
 * moved, too late to cancel, not found; English and German) are checked with axe-core and saved as
 * screenshots (desktop and phone) in docs/screenshots/.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { DESKTOP, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { COURT } from '../helpers/courts.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { onRealDay, testNow, testToday, useTestClock } from '../helpers/today.js'

const TZ = 'Europe/Berlin'
const HOUR = 3_600_000

describeInBrowser('the guest\'s booking page in a browser', 'the booking page browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  const violations: string[] = []
  /** Requests the pages made to anywhere but the service. */
  const foreign: string[] = []
  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    env: () => ({ SMTP_URL: smtp.url }),
    seed: async (context) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: TZ })
      await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT.allDay, name: 'Court 3 (floodlit)',
        booking_horizon_days: 30, opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
          .map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
    },
    stop: () => smtp.stop(),
  })

  /** Books the hour starting at `start` and returns the link of the confirmation mail. */
  const book = async (start: number, email: string): Promise<string> => {
    const response = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ court_id: COURT.allDay, start_time: new Date(start).toISOString(),
        end_time: new Date(start + HOUR).toISOString(), booker_name: 'Gina Guest', booker_email: email }) })
    expect(response.status, await response.clone().text()).toBe(201)
    let link: string | undefined
    await expect.poll(() => {
      const mail = smtp.received.find((received) => received.envelopeTo.includes(email))
      link = new RegExp(`(${suite.origin}/bookings/manage/cpm_[A-Za-z0-9_-]{43})`).exec(mail?.parsed.text ?? '')?.[1]
      return link
    }, { timeout: 10_000, interval: 100 }).toBeDefined()
    return link ?? ''
  }

  /** A page with JavaScript off, as the guest may have it. */
  const open = async (url: string, locale = 'en-GB'): Promise<Page> => {
    const context = await suite.browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false, locale })
    const page = await context.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.origin)) foreign.push(request.url())
    })
    const response = await page.goto(url)
    expect(response?.headers()['content-security-policy']).toContain('default-src \'none\'')
    return page
  }

  /** axe-core on the page as it is (in a copy with scripts on, for the instrument), and screenshots at both widths. */
  const check = async (page: Page, name: string) => {
    const context = await suite.browser.newContext({ viewport: DESKTOP, locale: 'en-GB' })
    await useTestClock(context)
    try {
      const copy = await context.newPage()
      await copy.setContent(await page.content())
      violations.push(...await seriousViolations(copy, name))
    } finally {
      await context.close()
    }
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, `booking-${name}`)
  }

  it('lets a guest cancel from the mailed link with JavaScript off; the slot is free and the mail arrives once', async () => {
    const day = testToday(2, TZ)
    const start = localToInstant(day, 18 * 60, TZ)
    const link = await book(start, 'gina@example.org')
    const page = await open(link)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Your booking')
    expect(await page.locator('dd').first().textContent()).toBe('Court 3 (floodlit)')
    await check(page, 'page')

    // One more tap, and a reason if the guest gives one: no script needed.
    await page.getByRole('button', { name: 'Cancel this booking' }).click()
    await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor()
    await page.getByLabel('Why? (optional; the club reads it)').fill('Rain forecast')
    await check(page, 'confirm')
    await page.getByRole('button', { name: 'Yes, cancel the booking' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your booking is cancelled.')
    expect(page.url()).toBe(`${link}?cancelled=1`)
    expect(await page.getByRole('button').count()).toBe(0)
    await check(page, 'cancelled')

    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${day}`)
    const slots = (await listing.json() as { courts: { start_time: string, status: string }[] }).courts
    expect(slots.find((slot) => Date.parse(slot.start_time) === start)?.status).toBe('available')
    await expect.poll(() => smtp.received.filter((mail) => mail.parsed.subject?.startsWith('Booking cancelled')).length,
      { timeout: 10_000, interval: 100 }).toBe(1)

    // In German, as the guest chooses from the page's languages (the page follows the booking's language, English here).
    const german = await open(link, 'de-DE')
    expect(await german.locator('html').getAttribute('lang')).toBe('en')
    await german.getByRole('navigation').getByRole('link', { name: 'Deutsch' }).click()
    await expect.poll(() => german.getByRole('heading', { level: 1 }).textContent()).toBe('Ihre Buchung')
    expect(await german.locator('html').getAttribute('lang')).toBe('de')
    expect(await german.locator('dd').last().textContent()).toBe('Storniert')
    await check(german, 'cancelled-de')
  })

  it('lets a guest move the booking to another time with JavaScript off: the old slot is free, the new one booked', async () => {
    const day = testToday(3, TZ)
    const start = localToInstant(day, 9 * 60, TZ)
    const link = await book(start, 'mover@example.org')
    const page = await open(link)
    await page.getByRole('link', { name: 'Change the date or time' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Change the date or time')
    expect(await page.getByLabel('Date').inputValue()).toBe(day)
    // The free times of the day, as long as the booking; its own hour is not among them.
    expect(await page.getByRole('radio', { name: '09:00–10:00' }).count()).toBe(0)
    await check(page, 'change')

    await page.getByRole('radio', { name: '15:00–16:00' }).check()
    await page.getByRole('button', { name: 'Move my booking' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your booking has been moved.')
    expect(page.url()).toBe(`${link}?moved=1`)
    expect(await page.locator('dd').nth(1).textContent()).toMatch(/15:00–16:00/)
    await check(page, 'moved')

    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${day}`)
    const slots = (await listing.json() as { courts: { start_time: string, status: string }[] }).courts
    expect(slots.find((slot) => Date.parse(slot.start_time) === start)?.status).toBe('available')
    expect(slots.find((slot) => Date.parse(slot.start_time) === start + 6 * HOUR)?.status).toBe('booked')
    await expect.poll(() => smtp.received.filter((mail) => mail.envelopeTo.includes('mover@example.org')
      && mail.parsed.subject?.startsWith('Booking moved')).length, { timeout: 10_000, interval: 100 }).toBe(1)
  })

  it('says when cancelling is too late, and that a wrong link leads nowhere', async () => {
    // The next whole hour but one starts within the default two-hour deadline.
    const start = Math.ceil(testNow() / HOUR) * HOUR + HOUR
    const link = await book(start, 'late@example.org')
    const page = await open(link)
    await expect.poll(() => page.getByRole('status').textContent()).toContain('can no longer be cancelled here')
    expect(await page.getByRole('button').count()).toBe(0)
    await check(page, 'too-late')

    const missing = await open(`${suite.origin}/bookings/manage/cpm_${'x'.repeat(43)}`)
    await expect.poll(() => missing.getByRole('heading', { level: 1 }).textContent()).toBe('Booking not found')
    await check(missing, 'not-found')
  })

  it('found no serious or critical accessibility violations and loaded nothing from elsewhere', () => {
    expect(violations).toEqual([])
    expect(foreign).toEqual([])
  })
})
