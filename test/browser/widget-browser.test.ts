/**
 * The booking widget and the hosted booking page as guests use them, in Debian's Chromium against
 * the real server process, on SQLite and on PostgreSQL, with mail through a real SMTP server. A club
 * website on another origin embeds the widget with the two lines of the docs, under club CSS that
 * unsets everything; a guest books with the mouse and with the keyboard alone; a slot taken
 * meanwhile is answered with the conflict and a fresh grid; German at a visitor in another time
 * zone shows the club's times; the hosted page sizes its iframe on an allowed website and is refused
 * on any other. axe-core on every view; screenshots (desktop and phone, en and de) in docs/.
 */
import type { BrowserContext, Frame, Locator, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { OPERATOR } from '../../src/services/audit.js'
import { setWebsites } from '../../src/services/club-websites.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { DESKTOP, PHONE, describeInBrowser, framePage, screenshots, seriousViolations, startSite, useBrowserSuite } from '../helpers/browser.js'
import { COURT } from '../helpers/courts.js'
import { idFor } from '../helpers/fixtures.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { onRealDay, testNow, testToday, useTestClock } from '../helpers/today.js'

const ZONE = 'Europe/Berlin'
/** The desktop of the issue's acceptance: the laptop screen the docs' desktop screenshots are wider than. */
const LAPTOP = { width: 1280, height: 800 }
const LOCALES = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL' } as const

describeInBrowser('the booking widget on a club website', 'the booking widget browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  let site: Awaited<ReturnType<typeof startSite>>
  let stranger: Awaited<ReturnType<typeof startSite>>
  const foreign: string[] = []
  const violations: string[] = []
  /** Two days ahead at the club: bookable, whatever the hour of the run. */
  const date = testToday(2, ZONE)
  /** Five days ahead: every court reserved all day. */
  const fullDay = testToday(5, ZONE)
  const at = (hour: number) => localToInstant(date, hour * 60, ZONE)

  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    // Every booking and listing of the suite comes from one client address: more than the default buckets.
    env: () => ({ SMTP_URL: smtp.url, BOOKING_RATE_CAPACITY: '40', BOOKING_RATE_PER_MINUTE: '1', PUBLIC_RATE_CAPACITY: '1000' }),
    seed: async (context, service) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: ZONE })
      const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))
      await importClubData(context.db, context.clock, club.id, { courts: [
        { id: COURT.allDay, name: 'Court 1', booking_horizon_days: 30, opening_hours: hours },
        { id: COURT.b, name: 'Court 2', booking_horizon_days: 30, opening_hours: hours },
        { id: COURT.a, name: 'Court 3', booking_horizon_days: 30, opening_hours: hours },
      ],
      // A club championship on every court: a day with nothing to book, the day before the next free time.
      court_holds: [COURT.allDay, COURT.b, COURT.a].map((court, index) => ({ id: idFor(`championship:${String(index)}`),
        court_id: court, kind: 'reservation' as const, reason: 'club championship',
        starts_at: new Date(localToInstant(fullDay, 0, ZONE)).toISOString(),
        ends_at: new Date(localToInstant(fullDay, 24 * 60, ZONE)).toISOString() })) })
      const embed = (lang: string) => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TC Riverside</title>'
      // Club CSS at its most aggressive: nothing of it may reach the widget.
        + '<style>* { all: unset } div { display: none } button { background: red !important; font-size: 40px }</style>'
        + `<script type="module" src="${service}/widget/v1/club-booking.js"></script></head>`
        + `<body><h1>Our club</h1><main><club-booking club="riverside" lang="${lang}"><p id="fallback">Booking needs JavaScript: call 030 123456.</p></club-booking></main></body></html>`
      const frame = (id: string) => framePage(service, '/book/riverside', id)
      site = await startSite({ '/en': embed('en'), '/de': embed('de'), '/fr': embed('fr'), '/es': embed('es'), '/it': embed('it'),
        '/nl': embed('nl'), '/frame': frame('booking'),
        // The popup and floating-button modes, on a page long enough to scroll.
        ...Object.fromEntries(['popup', 'floating'].map((mode) => [`/${mode}`, '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        + `<title>TC Riverside</title><script type="module" src="${service}/widget/v1/club-booking.js"></script></head><body>`
        + `<h1>Our club</h1><main><club-booking club="riverside" mode="${mode}"${mode === 'floating' ? ' label="Book now"' : ''}>`
        + '<a href="tel:+4930123456">Call us to book</a></club-booking>'
        + `${'<p>News of the club, one paragraph after another.</p>'.repeat(30)}</main></body></html>`])),
        // The page's own hooks: a day to start on, one court, a signed-in member's name and address; the widget's events.
        '/events': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Members</title>'
          + `<script type="module" src="${service}/widget/v1/club-booking.js"></script></head><body><main>`
          + `<club-booking club="riverside" date="${date}" court="${COURT.b}" booker-name="Pia Prefill" booker-email="pia@example.org">`
          + '</club-booking></main><script>window.seen = []; for (const type of ["booked", "error", "date-change"]) '
          + 'document.addEventListener(type, (event) => { window.seen.push({ type, detail: event.detail }) })</script></body></html>' })
      stranger = await startSite({ '/frame': frame('booking') })
      await setWebsites(context.db, context.clock, { clubId: club.id, websites: [site.origin], actor: OPERATOR })
    },
    stop: () => Promise.all([site.close(), stranger.close(), smtp.stop()]).then(() => undefined),
  })

  interface OpenOptions { timezoneId?: string, locale?: string, blockMessages?: 'nl' | 'all', clock?: boolean }
  const open = async (path: string, options: OpenOptions = {}) => {
    const context: BrowserContext = await suite.browser.newContext({ viewport: DESKTOP, locale: options.locale ?? 'en-GB',
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }) })
    // `clock`: the browser's clock is the test's to move (installed whatever the day); else it runs on from the run's today.
    if (options.clock === true) await context.clock.install({ time: testNow() })
    else await useTestClock(context)
    // A step that cannot happen fails naming its locator, well before the test's own time runs out.
    context.setDefaultTimeout(8_000)
    const page = await context.newPage()
    if (options.blockMessages !== undefined) {
      await page.route(options.blockMessages === 'all' ? '**/widget/v1/messages/*' : '**/widget/v1/messages/nl.json',
        (route) => route.fulfill({ status: 404 }))
    }
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(suite.origin) && !url.startsWith(site.origin) && !url.startsWith(stranger.origin)) foreign.push(url)
    })
    await page.goto(`${site.origin}${path}`)
    return { context, page }
  }
  /** The date two days ahead, shown: its name is in the table's caption once its times are there. */
  const showDate = async (page: Page, language: keyof typeof LOCALES = 'en') => {
    await page.getByLabel(/^(Date|Datum|Fecha|Data)$/).fill(date)
    await page.getByLabel(/^(Date|Datum|Fecha|Data)$/).dispatchEvent('change')
    const name = new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long', day: 'numeric', month: 'long',
      timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
    await page.locator('caption', { hasText: name }).waitFor({ state: 'attached' })
  }
  const check = async (page: Page, name: string, options: { screen?: boolean } = {}) => {
    violations.push(...await seriousViolations(page, name))
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, name, options)
  }
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
  const statusOf = async (hour: number, court = COURT.allDay) => {
    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { court_id: string, start_time: string, status: string }[] }).courts
    return slots.find((slot) => slot.court_id === court && Date.parse(slot.start_time) === at(hour))?.status
  }

  /** The full name of a date, as the widget writes it in English. */
  const dayName = (day: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long',
    timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))
  /**
   * What a guest must see after each step, on the screen without scrolling: the element with the
   * keyboard focus, every alert and status with something to say, and the step's next action.
   */
  const expectInSight = async (page: Page, step: string, next?: Locator) => {
    const outside = await page.evaluate(() => {
      const root = document.querySelector('club-booking')?.shadowRoot
      const seen = (node: Element) => {
        const box = node.getBoundingClientRect()
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0
          && box.right <= window.innerWidth
      }
      const named = (node: Element) => `${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') ?? node.textContent).trim()}"`
      const said = Array.from(root?.querySelectorAll('[role="alert"], [role="status"]') ?? [])
        .filter((node) => node.textContent.trim() !== '')
      const active = root?.activeElement
      return [...said, ...active == null ? [] : [active]].filter((node) => !seen(node)).map(named)
    })
    const nextSeen = next === undefined
      ? true
      : await next.evaluate((node) => {
          const box = node.getBoundingClientRect()
          return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth
        })
    expect({ step, outside, nextSeen }).toEqual({ step, outside: [], nextSeen: true })
  }

  it('books a free time from a club website on another origin, whatever the club\'s CSS; the guest is mailed', async () => {
    const { context, page } = await open('/en')
    await showDate(page)
    // The site's fallback content inside the element gives way to the widget.
    expect(await page.locator('#fallback').isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Court 1, 18:00–19:00: free' }).click()
    await page.getByRole('button', { name: 'Court 1, 19:00–20:00: free' }).click()
    await page.getByText('Court 1, 18:00–20:00').waitFor()
    // The court's maximum (booking_windows' max_slots_per_booking: 2) stops the selection, with a word why.
    await page.getByRole('button', { name: 'Court 1, 20:00–21:00: free' }).click()
    await page.getByRole('status').getByText('One booking of this court covers at most 2 times.').waitFor()
    await page.getByText('Court 1, 18:00–20:00').waitFor()
    await check(page, 'widget-grid')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Your name').fill('Wanda Widget')
    await page.getByLabel('Your e-mail address').fill('wanda@example.org')
    await check(page, 'widget-form')
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('heading', { name: 'Booked: Court 1, 18:00–20:00' }).waitFor()
    await page.getByText('The confirmation is on its way to wanda@example.org').waitFor()
    await check(page, 'widget-booked')
    expect([await statusOf(18), await statusOf(19)]).toEqual(['booked', 'booked'])
    await expect.poll(() => mailsTo('wanda@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    expect(mailsTo('wanda@example.org')[0]?.parsed.subject).toMatch(/Court 1/)
    await page.getByRole('button', { name: 'Book another time' }).click()
    await page.getByRole('button', { name: 'Court 1, 18:00–19:00: booked' }).waitFor()
    // The club's CSS reached none of it: the widget's buttons keep their own size and colour.
    expect(await page.getByRole('button', { name: 'Court 1, 20:00–21:00: free' }).evaluate((node) => getComputedStyle(node).fontSize))
      .not.toBe('40px')
    expect(await page.locator('club-booking').evaluate((node) => getComputedStyle(node).display)).toBe('block')
    await context.close()
  })

  it('answers a time booked meanwhile with the conflict and a refreshed grid', async () => {
    const { context, page } = await open('/en')
    await showDate(page)
    await page.getByRole('button', { name: 'Court 2, 10:00–11:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Your name').fill('Slow Sam')
    await page.getByLabel('Your e-mail address').fill('sam@example.org')
    const taken = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.b,
        start_time: new Date(at(10)).toISOString(), end_time: new Date(at(11)).toISOString(), booker_name: 'Quick Quinn',
        booker_email: 'quinn@example.org' }) })
    expect(taken.status).toBe(201)
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('alert').getByText('Someone booked this time a moment ago.').waitFor()
    // The form the guest was in is gone: the keyboard focus is on the alert that says why.
    await expect.poll(() => page.evaluate(() => {
      const active = document.querySelector('club-booking')?.shadowRoot?.activeElement
      return active?.getAttribute('role') === 'alert' ? active.textContent.trim() : `${active?.tagName ?? 'nothing'} has the focus`
    })).toMatch(/^Someone booked this time a moment ago\./)
    await page.getByRole('button', { name: 'Court 2, 10:00–11:00: booked' }).waitFor()
    await check(page, 'widget-conflict')
    expect(mailsTo('sam@example.org')).toEqual([])
    await context.close()
  })

  it('offers the waiting list on a taken time; the guest is mailed when it frees', async () => {
    const taken = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.a,
        start_time: new Date(at(11)).toISOString(), end_time: new Date(at(12)).toISOString(), booker_name: 'Owen Owner',
        booker_email: 'owen@example.org' }) })
    expect(taken.status).toBe(201)
    const { context, page } = await open('/en')
    await showDate(page)
    await page.getByRole('button', { name: 'Court 3, 11:00–12:00: booked' }).click()
    await page.getByRole('status').getByText('This time is taken. We can e-mail you if it becomes free.').waitFor()
    const notify = page.getByRole('button', { name: 'Notify me if it becomes free' })
    await expectInSight(page, 'a taken time chosen', notify)
    await check(page, 'widget-waiting-offer')
    await notify.click()
    expect(await page.getByLabel('Notes (optional)').count()).toBe(0)
    // What the address is for: this time, not a booking.
    await page.getByText('Your name and e-mail address are used only to tell you about this time.').waitFor()
    await page.getByLabel('Your name').fill('Wes Waiting')
    await page.getByLabel('Your e-mail address').fill('wes@example.org')
    await page.getByRole('button', { name: 'Notify me if it becomes free' }).click()
    await page.getByRole('heading', { name: 'On the waiting list: Court 3, 11:00–12:00' }).waitFor()
    await page.getByText('We will e-mail wes@example.org if this time becomes free.').waitFor()
    await expectInSight(page, 'on the waiting list')
    await check(page, 'widget-waiting')
    await expect.poll(() => mailsTo('wes@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    // Owen cancels with the link of his confirmation: Wes is told at once, with a link to book it.
    await expect.poll(() => mailsTo('owen@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    const manage = /\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43}/.exec(mailsTo('owen@example.org')[0]?.parsed.text ?? '')?.[0] ?? ''
    const cancelled = await fetch(`${suite.origin}${manage}`, { method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
    expect(cancelled.status).toBe(303)
    await expect.poll(() => mailsTo('wes@example.org').length, { timeout: 5_000, interval: 50 }).toBe(2)
    expect(mailsTo('wes@example.org')[1]?.parsed.subject).toMatch(/^Free now: Court 3, .*, 11:00–12:00 — TC Riverside$/)
    expect(mailsTo('wes@example.org')[1]?.parsed.text).toMatch(new RegExp(`/book/riverside\\?date=${date}&court=${COURT.a}&lang=en&wait=cpw_`))
    // The stop link of the mail: the time waited for, and a button that ends the mails about it.
    const stop = /\/waiting-list\/cpw_[A-Za-z0-9_-]{43}/.exec(mailsTo('wes@example.org')[1]?.parsed.text ?? '')?.[0] ?? ''
    // The mail's link to book it: the freed time chosen, the form open with Wes's name and address, which the link does not hold.
    const bookLink = /http:\/\/\S+\/book\/riverside\?\S+/.exec(mailsTo('wes@example.org')[1]?.parsed.text ?? '')?.[0] ?? ''
    expect(bookLink).not.toContain('wes')
    await page.goto(bookLink)
    await page.getByText('Court 3, 11:00–12:00').first().waitFor()
    expect([await page.getByRole('textbox', { name: 'Your name' }).inputValue(),
      await page.getByRole('textbox', { name: 'Your e-mail address' }).inputValue()]).toEqual(['Wes Waiting', 'wes@example.org'])
    await check(page, 'widget-freed-time')
    await page.goto(`${suite.origin}${stop}`)
    await page.getByRole('heading', { name: 'Waiting list' }).waitFor()
    await page.getByText('Court 3', { exact: true }).waitFor()
    await check(page, 'waiting-list-stop')
    await page.getByRole('button', { name: 'Stop the mails about this time' }).click()
    await page.getByText('Done: you will get no more e-mails about this time.').waitFor()
    expect(await page.getByRole('button', { name: 'Stop the mails about this time' }).count()).toBe(0)
    await check(page, 'waiting-list-stopped')
    await context.close()
  })

  it('books court 3 at 19:00 tomorrow with the keyboard alone in at most 15 key presses, typing aside', async () => {
    const { context, page } = await open('/en')
    await page.getByRole('grid').waitFor()
    const tomorrow = testToday(1, ZONE)
    const keys: string[] = []
    const press = async (key: string) => {
      keys.push(key)
      await page.keyboard.press(key)
    }
    const focused = () => page.evaluate(() => {
      const active = document.querySelector('club-booking')?.shadowRoot?.activeElement
      return active?.getAttribute('aria-label') ?? active?.textContent.trim() ?? ''
    })
    const dayName = (day: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long',
      timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))
    const name = dayName(tomorrow)
    // Into the widget: its language switch, then the date strip, one Tab stop on the day shown (today), the arrow to the next
    // day; late in the evening, when nothing of today can be booked, the strip starts with tomorrow and Space chooses it.
    await press('Tab')
    expect(await page.evaluate(() => document.querySelector('club-booking')?.shadowRoot?.activeElement?.id)).toBe('language')
    await press('Tab')
    const stop = await focused()
    if (stop.startsWith(`${name}:`)) await press('Space')
    else {
      expect(stop).toMatch(new RegExp(`^${dayName(testToday(0, ZONE))}: \\d+ free$`))
      await press('ArrowRight')
    }
    expect(await focused()).toMatch(new RegExp(`^${name}: \\d+ free$`))
    await page.locator('caption', { hasText: name }).waitFor({ state: 'attached' })
    // One Tab stop into the grid, on its first free time; Page Down by five rows, then the arrows.
    await press('Tab')
    expect(await focused()).toBe('Court 1, 08:00–09:00: free')
    await press('PageDown')
    await press('PageDown')
    await press('ArrowDown')
    await press('ArrowRight')
    await press('ArrowRight')
    expect(await focused()).toBe('Court 3, 19:00–20:00: free')
    await press('Enter')
    await press('Tab')
    expect(await focused()).toBe('Continue')
    await press('Enter')
    await page.keyboard.type('Kim Keys')
    await press('Tab')
    await page.keyboard.type('kim@example.org')
    await press('Enter')
    await page.getByRole('heading', { name: 'Booked: Court 3, 19:00–20:00' }).waitFor()
    console.info(`keyboard booking: ${String(keys.length)} key presses (${keys.join(' ')}), the name and address typed`)
    expect(keys.length).toBeLessThanOrEqual(15)
    await expect.poll(() => mailsTo('kim@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    await context.close()
  })

  it('tells the page what happened (booked, error, date-change), starts on its day and court, and fills in its member', async () => {
    const { context, page } = await open('/events')
    const name = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
      .format(new Date(`${date}T12:00:00Z`))
    await page.locator('caption', { hasText: name }).waitFor({ state: 'attached' })
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Time', 'Court 2'])
    type Seen = { type: string, detail: Record<string, unknown> }[]
    const seen = () => page.evaluate(() => (window as unknown as { seen: Seen }).seen)
    expect(await seen()).toEqual([{ type: 'date-change', detail: { date } }])
    await page.getByRole('button', { name: 'Court 2, 16:00–17:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    expect([await page.getByLabel('Your name').inputValue(), await page.getByLabel('Your e-mail address').inputValue()])
      .toEqual(['Pia Prefill', 'pia@example.org'])
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('heading', { name: 'Booked: Court 2, 16:00–17:00' }).waitFor()
    const booked = (await seen()).find((event) => event.type === 'booked')?.detail
    expect(booked).toMatchObject({ court_id: COURT.b, court_name: 'Court 2',
      start_time: expect.stringMatching(/T16:00:00\+0[12]:00$/) as string,
      end_time: expect.stringMatching(/T17:00:00\+0[12]:00$/) as string })
    expect(await statusOf(16, COURT.b)).toBe('booked')
    expect(String(booked?.booking_id)).toMatch(/^[0-9a-f-]{36}$/)
    // A time taken meanwhile: the page hears the refusal with its status and problem.
    await page.getByRole('button', { name: 'Book another time' }).click()
    await page.getByRole('button', { name: 'Court 2, 17:00–18:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    const taken = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.b, start_time: new Date(at(17)).toISOString(),
        end_time: new Date(at(18)).toISOString(), booker_name: 'Quick Quinn', booker_email: 'quinn@example.org' }) })
    expect(taken.status).toBe(201)
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('alert').getByText('Someone booked this time a moment ago.').waitFor()
    expect((await seen()).find((event) => event.type === 'error')?.detail).toMatchObject({ status: 400,
      problem: { type: expect.stringMatching(/\/slot-conflict$/) as string } })
    // The date strip (of Court 2 alone, as the page asks) moves the day on.
    const later = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
      .format(new Date(`${testToday(3, ZONE)}T12:00:00Z`))
    await page.getByRole('radio', { name: new RegExp(`^${later}: `) }).click()
    await expect.poll(async () => (await seen()).filter((event) => event.type === 'date-change').at(-1)?.detail)
      .toEqual({ date: testToday(3, ZONE) })
    await check(page, 'widget-events')
    await context.close()
  })

  it.each([['a phone', PHONE], ['a desktop', LAPTOP]] as const)('on %s: courts beyond the edge scroll under sticky times, '
    + 'with a cue; the choice, its refusal and each step after stay in sight', async (screen, viewport) => {
    // Each screen books a court of its own.
    const court = screen === 'a phone' ? 'Court 1' : 'Court 2'
    const phone = await suite.browser.newContext({ viewport, locale: 'en-GB' })
    await useTestClock(phone)
    const page = await phone.newPage()
    await page.goto(`${site.origin}/en`)
    await showDate(page)
    const grid = () => page.evaluate(() => {
      const root = document.querySelector('club-booking')?.shadowRoot
      const scroll = root?.querySelector<HTMLElement>('.scroll')
      const time = root?.querySelector('tbody th')?.getBoundingClientRect().left
      return { scrolls: (scroll?.scrollWidth ?? 0) > (scroll?.clientWidth ?? 0) + 1,
        cue: scroll?.parentElement?.hasAttribute('data-more'), timeLeft: time, left: scroll?.getBoundingClientRect().left }
    })
    const before = await grid()
    // A grid wider than the screen says so; scrolled to its end, the cue goes and the times stay at the left edge.
    expect(before.scrolls ? before.cue : 'fits').toBe(before.scrolls ? true : 'fits')
    if (before.scrolls) {
      await page.evaluate(() => {
        const scroll = document.querySelector('club-booking')?.shadowRoot?.querySelector<HTMLElement>('.scroll')
        scroll?.scrollTo({ left: scroll.scrollWidth })
      })
      await expect.poll(async () => (await grid()).cue).toBe(false)
      const after = await grid()
      expect(Math.round(after.timeLeft ?? -1)).toBe(Math.round(after.left ?? -2))
    }
    const inView = (name: string) => page.getByRole('button', { name }).evaluate((node) => {
      const box = node.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })
    // Two times in the morning, far above the grid's end: Continue is on the screen, not below the grid.
    await page.getByRole('button', { name: `${court}, 12:00–13:00: free` }).click()
    await page.getByRole('button', { name: `${court}, 13:00–14:00: free` }).click()
    expect(await inView('Continue')).toBe(true)
    // A third is more than the court allows: the reason shows beside Continue, on the screen.
    await page.getByRole('button', { name: `${court}, 14:00–15:00: free` }).click()
    const reason = page.getByRole('status').getByText('One booking of this court covers at most 2 times.')
    await reason.waitFor()
    expect(await reason.evaluate((node) => {
      const box = node.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })).toBe(true)
    if (screen === 'a phone') await check(page, 'widget-phone-refusal')
    await expectInSight(page, 'a time refused', page.getByRole('button', { name: 'Continue' }))
    // Each step after it: the form with its first field focused, then the confirmation.
    await page.getByRole('button', { name: 'Continue' }).click()
    await expectInSight(page, 'the form', page.getByLabel('Your name'))
    await page.getByLabel('Your name').fill('Phoebe Phone')
    await page.getByLabel('Your e-mail address').fill(`phoebe.${screen === 'a phone' ? 'phone' : 'laptop'}@example.org`)
    const book = page.getByRole('button', { name: 'Book', exact: true })
    await book.scrollIntoViewIfNeeded()
    await book.click()
    await page.getByRole('heading', { name: `Booked: ${court}, 12:00–14:00` }).waitFor()
    await expectInSight(page, 'booked', page.getByRole('button', { name: 'Book another time' }))
    await phone.close()
  })

  it('shows the club\'s times in German to a visitor in another time zone, and books with the keyboard alone', async () => {
    const { context, page } = await open('/de', { timezoneId: 'America/New_York', locale: 'de-DE' })
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York')
    await showDate(page, 'de')
    const slot = page.getByRole('button', { name: 'Court 1, 15:00–16:00: frei' })
    await slot.waitFor()
    await check(page, 'widget-de')
    await slot.focus()
    await page.keyboard.press('Enter')
    for (let i = 0; i < 200; i += 1) {
      const name = await page.evaluate(() => {
        const host = document.querySelector('club-booking')
        return host?.shadowRoot?.activeElement?.textContent.trim() ?? ''
      })
      if (name === 'Weiter') break
      await page.keyboard.press('Tab')
    }
    await page.keyboard.press('Enter')
    await page.keyboard.type('Karla Keyboard')
    await page.keyboard.press('Tab')
    await page.keyboard.type('karla@example.org')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Gebucht: Court 1, 15:00–16:00' }).waitFor()
    expect(await statusOf(15)).toBe('booked')
    await expect.poll(() => mailsTo('karla@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    // Booked in German: mailed in German, though the club's language is English.
    expect(mailsTo('karla@example.org')[0]?.parsed.subject).toMatch(/^Buchung bestätigt: Court 1, /)
    await context.close()
  })

  it('speaks French, Spanish, Italian and Dutch with texts fetched from the service; a booking in French is mailed in French', async () => {
    const titles = { fr: 'Réserver un terrain', es: 'Reservar una pista', it: 'Prenotare un campo', nl: 'Een baan boeken' } as const
    const free = { fr: 'libre', es: 'libre', it: 'libero', nl: 'vrij' } as const
    // French last: it books the time the others show free.
    for (const language of ['es', 'it', 'nl', 'fr'] as const) {
      // The browser asks for English: the page's attribute decides.
      const { context, page } = await open(`/${language}`)
      await page.getByRole('region', { name: titles[language] }).waitFor()
      await showDate(page, language)
      await page.getByRole('button', { name: `Court 1, 11:00–12:00: ${free[language]}` }).waitFor()
      await check(page, `widget-${language}`)
      if (language !== 'fr') {
        await context.close()
        continue
      }
      await page.getByRole('button', { name: 'Court 1, 11:00–12:00: libre' }).click()
      await page.getByRole('button', { name: 'Continuer' }).click()
      await page.getByLabel('Votre nom').fill('Fleur Française')
      await page.getByLabel('Votre adresse e-mail').fill('fleur@example.org')
      await page.getByRole('button', { name: 'Réserver', exact: true }).click()
      // French punctuation: a space before the colon.
      await page.getByRole('heading', { name: 'Réservé : Court 1, 11:00–12:00' }).waitFor()
      await expect.poll(() => mailsTo('fleur@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
      const mail = mailsTo('fleur@example.org')[0]
      expect(mail?.parsed.subject).toMatch(/^Réservation confirmée : Court 1, /)
      expect(mail?.parsed.from?.value).toEqual([{ name: 'TC Riverside', address: expect.any(String) as string }])
      await context.close()
    }
    // A language's texts that cannot be fetched: the widget speaks English rather than nothing.
    const dutch = await open('/nl', { blockMessages: 'nl' })
    await dutch.page.getByRole('region', { name: 'Book a court' }).waitFor()
    await dutch.context.close()
    // No texts at all: the page's own fallback inside the element shows, as without JavaScript.
    const mute = await open('/en', { blockMessages: 'all' })
    await mute.page.locator('#fallback').waitFor()
    expect(await mute.page.locator('#fallback').isVisible()).toBe(true)
    await mute.context.close()
  })

  it('sizes the hosted page\'s iframe on the club\'s website, and is refused in a frame anywhere else', async () => {
    const { context, page } = await open('/frame')
    const frameOf = async (): Promise<Frame> => {
      await expect.poll(() => page.frames().find((frame) => frame.url().startsWith(`${suite.origin}/book/`))?.url()).toBeDefined()
      return page.frames().find((frame) => frame.url().startsWith(`${suite.origin}/book/`)) as Frame
    }
    const frame = await frameOf()
    await frame.getByRole('button', { name: /Court 1, .*: (free|not bookable now|booked)/ }).first().waitFor()
    // The parent set the height it was told; the framed page fits it without scrolling.
    await expect.poll(async () => page.locator('#booking').evaluate((node) => node.getBoundingClientRect().height))
      .toBeGreaterThan(400)
    await expect.poll(async () => frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1))
      .toBe(true)
    await check(page, 'booking-page-framed')
    await context.close()

    const refused = await suite.browser.newContext({ viewport: DESKTOP })
    const other = await refused.newPage()
    const blocked = other.waitForEvent('console', { predicate: (message) => /frame-ancestors/.test(message.text()), timeout: 10_000 })
    await other.goto(`${stranger.origin}/frame`)
    await blocked
    const framed = other.frames().find((frame) => frame.url().startsWith(`${suite.origin}/book/`))
    expect(await framed?.locator('club-booking').count().catch(() => 0) ?? 0).toBe(0)
    await refused.close()

    const direct = await suite.browser.newContext({ viewport: PHONE })
    await useTestClock(direct)
    const alone = await direct.newPage()
    const response = await alone.goto(`${suite.origin}/book/riverside?lang=de`)
    expect(response?.headers()['content-security-policy']).toContain(`frame-ancestors 'self' ${site.origin}`)
    await alone.getByRole('heading', { name: 'TC Riverside: Platz buchen' }).waitFor()
    expect((await alone.goto(`${suite.origin}/book/nowhere`))?.status()).toBe(404)
    await direct.close()
  })

  it.each([['a phone', PHONE], ['a desktop', LAPTOP]] as const)('on %s: the date strip shows the days with their free times; a '
    + 'full day jumps to the next free time, chosen and in sight', async (screen, viewport) => {
    const browser = await suite.browser.newContext({ viewport, locale: 'en-GB' })
    await useTestClock(browser)
    browser.setDefaultTimeout(8_000)
    const page = await browser.newPage()
    await page.goto(`${site.origin}/en`)
    await page.getByRole('grid').waitFor()
    const strip = page.getByRole('radiogroup', { name: 'Days' })
    // Each day of the strip as the service counts it (GET …/courts/days), bookable days alone.
    const days = (await (await fetch(`${suite.origin}/api/v1/public/riverside/courts/days?days=31`)).json() as {
      days: { date: string, bookable: boolean, free_slots: number }[] }).days.filter((day) => day.bookable)
    await expect.poll(() => strip.getByRole('radio').count()).toBe(days.length)
    const labels = await strip.getByRole('radio').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')))
    expect(labels).toEqual(days.map((day) => `${dayName(day.date)}: ${day.free_slots === 0 ? 'full' : `${String(day.free_slots)} free`}`))
    expect(labels).toContain(`${dayName(fullDay)}: full`)
    // The full day, chosen in the strip: it says so, and offers the first free time after it.
    const full = strip.getByRole('radio', { name: `${dayName(fullDay)}: full` })
    await full.scrollIntoViewIfNeeded()
    await full.click()
    await page.getByText('No times can be booked on this day.').waitFor()
    const jump = page.getByRole('button', { name: `Next free time: ${dayName(testToday(6, ZONE))}, 08:00, Court 1` })
    await expectInSight(page, 'a full day', jump)
    if (screen === 'a phone') await check(page, 'widget-full-day')
    await jump.click()
    await page.locator('caption', { hasText: dayName(testToday(6, ZONE)) }).waitFor({ state: 'attached' })
    expect(await strip.getByRole('radio', { checked: true }).getAttribute('aria-label')).toMatch(new RegExp(`^${dayName(testToday(6, ZONE))}: `))
    // The time is chosen, has the focus, and Continue is on the screen.
    await page.getByText('Court 1, 08:00–09:00').waitFor()
    await expect.poll(() => page.evaluate(() => document.querySelector('club-booking')?.shadowRoot?.activeElement?.getAttribute('aria-label')))
      .toBe('Court 1, 08:00–09:00: selected')
    await expectInSight(page, 'the next free time chosen', page.getByRole('button', { name: 'Continue' }))
    await page.getByRole('button', { name: 'Continue' }).click()
    await expectInSight(page, 'the form', page.getByLabel('Your name'))
    await browser.close()
  })

  it('opens in a dialog from a button on the page (popup) and from one at the screen\'s corner (floating), and books there',
    async () => {
      const phone = await suite.browser.newContext({ viewport: PHONE, locale: 'en-GB' })
      await useTestClock(phone)
      phone.setDefaultTimeout(8_000)
      const page = await phone.newPage()
      const asked: string[] = []
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/public/')) asked.push(request.url())
      })
      await page.goto(`${site.origin}/popup`)
      const launcher = page.getByRole('button', { name: 'Book a court' })
      await launcher.waitFor()
      // Closed, it asks the service nothing; the page's fallback gave way to the button.
      expect(asked).toEqual([])
      expect(await page.getByText('Call us to book').isVisible()).toBe(false)
      if (dialect === 'sqlite' && onRealDay()) await screenshots(page, 'widget-popup-closed', { screen: true })
      await launcher.click()
      const dialog = page.getByRole('dialog', { name: 'Book a court' })
      await dialog.getByRole('grid').waitFor()
      await dialog.getByRole('radio', { name: new RegExp(`^${dayName(date)}: `) }).click()
      await dialog.locator('caption', { hasText: dayName(date) }).waitFor({ state: 'attached' })
      const slot = dialog.getByRole('button', { name: 'Court 3, 21:00–22:00: free' })
      await slot.scrollIntoViewIfNeeded()
      await slot.click()
      await expectInSight(page, 'a time chosen in the dialog', dialog.getByRole('button', { name: 'Continue' }))
      await check(page, 'widget-popup', { screen: true })
      await dialog.getByRole('button', { name: 'Continue' }).click()
      await dialog.getByLabel('Your name').fill('Petra Popup')
      await dialog.getByLabel('Your e-mail address').fill('petra@example.org')
      await dialog.getByRole('button', { name: 'Book', exact: true }).click()
      await dialog.getByRole('heading', { name: 'Booked: Court 3, 21:00–22:00' }).waitFor()
      await expectInSight(page, 'booked in the dialog')
      // Escape closes it, and the focus is back on the page's button.
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
      expect(await page.evaluate(() => document.querySelector('club-booking')?.shadowRoot?.activeElement?.textContent.trim()))
        .toBe('Book a court')
      await expect.poll(() => mailsTo('petra@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)

      // Floating: its button stays at the corner of the screen wherever the page is scrolled, and opens the same dialog.
      await page.goto(`${site.origin}/floating`)
      const floating = page.getByRole('button', { name: 'Book now' })
      await floating.waitFor()
      for (const position of ['top', 'bottom'] as const) {
        await page.evaluate((to) => {
          window.scrollTo(0, to === 'top' ? 0 : document.body.scrollHeight)
        }, position)
        const box = await floating.boundingBox()
        expect(box !== null && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height && box.y > PHONE.height / 2)
          .toBe(true)
      }
      if (dialect === 'sqlite' && onRealDay()) await screenshots(page, 'widget-floating-closed', { screen: true })
      await floating.click()
      await page.getByRole('dialog', { name: 'Book a court' }).getByRole('grid').waitFor()
      await check(page, 'widget-floating', { screen: true })
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
      await page.getByRole('dialog').waitFor({ state: 'hidden' })
      await phone.close()
    })

  it('offers the day\'s free times to a visitor with JavaScript off, in the chosen language; a site\'s fallback shows', async () => {
    const off = await suite.browser.newContext({ viewport: PHONE, javaScriptEnabled: false, locale: 'en-GB' })
    const page = await off.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.origin)) foreign.push(request.url())
    })
    // The hosted page books without the widget (test/browser/guest-pages-browser.test.ts books there): no "needs JavaScript".
    await page.goto(`${suite.origin}/book/riverside?date=${date}`)
    await page.getByRole('group', { name: 'Court 1' }).getByRole('radio').first().waitFor()
    expect(await page.locator('noscript').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Book', exact: true }).isVisible()).toBe(true)
    // On the club's own page, the fallback content it put inside the element.
    const embedded = await off.newPage()
    await embedded.goto(`${site.origin}/en`)
    expect(await embedded.locator('#fallback').isVisible()).toBe(true)
    const german = await off.newPage()
    await german.goto(`${suite.origin}/book/riverside?lang=de&date=${date}`)
    await german.getByRole('button', { name: 'Buchen', exact: true }).waitFor()
    expect(await german.getByRole('group', { name: 'Wählen Sie eine freie Zeit' }).count()).toBe(1)
    await off.close()
  })

  it('counts a 429\'s Retry-After down on the Book button and offers it again when it has passed', async () => {
    // The browser's clock is the test's to move: the countdown is watched second by second without waiting for it.
    const { context, page } = await open('/en', { clock: true })
    await showDate(page)
    await page.getByRole('button', { name: 'Court 3, 08:00–09:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Your name').fill('Rita Rush')
    await page.getByLabel('Your e-mail address').fill('rita@example.org')
    // This client's booking bucket (40, the suite's BOOKING_RATE_CAPACITY; one more a minute) emptied from its address.
    for (let sent = 0; sent < 45; sent += 1) {
      const answer = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: '{}' })
      if (answer.status === 429) break
    }
    const book = page.getByRole('button', { name: /^Book/ })
    await book.click()
    const alert = page.getByRole('alert')
    await alert.getByText(/^Too many attempts\. Please try again in \d+ seconds\.$/).waitFor()
    await expectInSight(page, 'a 429', book)
    const waiting = Number(/\((\d+)\)$/.exec(await book.textContent() ?? '')?.[1])
    expect([waiting >= 1 && waiting <= 60, await book.isDisabled()]).toEqual([true, true])
    await page.clock.runFor(1000)
    await expect.poll(() => book.textContent()).toBe(`Book (${String(waiting - 1)})`)
    await page.clock.runFor(waiting * 1000)
    await expect.poll(() => book.textContent()).toBe('Book')
    // The alert has gone: nothing is announced or shown any more.
    expect([await book.isDisabled(), await page.getByRole('alert').count()]).toEqual([false, 0])
    expect(mailsTo('rita@example.org')).toEqual([])
    await context.close()
  })

  it('loaded nothing from elsewhere, and no view has serious or critical accessibility violations', () => {
    expect(foreign).toEqual([])
    expect(violations).toEqual([])
  })
})
