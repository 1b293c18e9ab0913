/**
 * The booking widget and the hosted booking page as guests use them, in Debian's Chromium against
 * the real server process, on SQLite and on PostgreSQL, with mail through a real SMTP server. A club
 * website on another origin embeds the widget with the two lines of the docs, under club CSS that
 * unsets everything; a guest books with the mouse and with the keyboard alone; a slot taken
 * meanwhile is answered with the conflict and a fresh grid; German at a visitor in another time
 * zone shows the club's times; the hosted page sizes its iframe on an allowed website and is refused
 * on any other. axe-core on every view; screenshots (desktop and phone, en and de) in docs/.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext, Frame, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { OPERATOR } from '../../src/services/audit.js'
import { setWebsites } from '../../src/services/club-websites.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { DESKTOP, PHONE, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { COURT } from '../helpers/courts.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { onRealDay, testToday, useTestClock } from '../helpers/today.js'

const ZONE = 'Europe/Berlin'
const LOCALES = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL' } as const

/** A club's own website: pages on an origin of their own, served as given. */
async function startSite(pages: Record<string, string>): Promise<{ origin: string, close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const page = pages[request.url ?? '/']
    response.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    close: () => new Promise((resolve) => server.close(() => { resolve() })),
  }
}

describeInBrowser('the booking widget on a club website', 'the booking widget browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  let site: Awaited<ReturnType<typeof startSite>>
  let stranger: Awaited<ReturnType<typeof startSite>>
  const foreign: string[] = []
  const violations: string[] = []
  /** Two days ahead at the club: bookable, whatever the hour of the run. */
  const date = testToday(2, ZONE)
  const at = (hour: number) => localToInstant(date, hour * 60, ZONE)

  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    // Every booking of the suite comes from one client address: more than the default bucket of five.
    env: () => ({ SMTP_URL: smtp.url, BOOKING_RATE_CAPACITY: '40' }),
    seed: async (context, service) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: ZONE })
      const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))
      await importClubData(context.db, context.clock, club.id, { courts: [
        { id: COURT.allDay, name: 'Court 1', booking_horizon_days: 30, opening_hours: hours },
        { id: COURT.b, name: 'Court 2', booking_horizon_days: 30, opening_hours: hours },
        { id: COURT.a, name: 'Court 3', booking_horizon_days: 30, opening_hours: hours },
      ] })
      const embed = (lang: string) => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TC Riverside</title>'
      // Club CSS at its most aggressive: nothing of it may reach the widget.
        + '<style>* { all: unset } div { display: none } button { background: red !important; font-size: 40px }</style>'
        + `<script type="module" src="${service}/widget/v1/club-booking.js"></script></head>`
        + `<body><h1>Our club</h1><main><club-booking club="riverside" lang="${lang}"><p id="fallback">Booking needs JavaScript: call 030 123456.</p></club-booking></main></body></html>`
      const frame = (id: string) => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Book</title></head><body>'
        + `<iframe id="${id}" src="${service}/book/riverside" title="Book a court" style="width:100%;border:0;height:150px"></iframe>`
        + '<script>addEventListener("message", (event) => { if (event.origin === ' + JSON.stringify(service)
        + ' && event.data && event.data.type === "club-booking:height") '
        + `document.getElementById(${JSON.stringify(id)}).style.height = event.data.height + "px" })</script></body></html>`
      site = await startSite({ '/en': embed('en'), '/de': embed('de'), '/fr': embed('fr'), '/es': embed('es'), '/it': embed('it'),
        '/nl': embed('nl'), '/frame': frame('booking'),
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

  const open = async (path: string, options: { timezoneId?: string, locale?: string, blockMessages?: boolean } = {}) => {
    const context: BrowserContext = await suite.browser.newContext({ viewport: DESKTOP, locale: options.locale ?? 'en-GB',
      ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }) })
    await useTestClock(context)
    // A step that cannot happen fails naming its locator, well before the test's own time runs out.
    context.setDefaultTimeout(8_000)
    const page = await context.newPage()
    if (options.blockMessages === true) await page.route('**/widget/v1/messages/*', (route) => route.fulfill({ status: 404 }))
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
  const check = async (page: Page, name: string) => {
    violations.push(...await seriousViolations(page, name))
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, name)
  }
  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
  const statusOf = async (hour: number, court = COURT.allDay) => {
    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { court_id: string, start_time: string, status: string }[] }).courts
    return slots.find((slot) => slot.court_id === court && Date.parse(slot.start_time) === at(hour))?.status
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
    // Into the widget (the day before today is not offered): the next day.
    await press('Tab')
    expect(await focused()).toBe('Next day')
    await press('Enter')
    const name = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
      .format(new Date(`${tomorrow}T12:00:00Z`))
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
    await page.getByRole('button', { name: 'Next day' }).click()
    await expect.poll(async () => (await seen()).filter((event) => event.type === 'date-change').at(-1)?.detail)
      .toEqual({ date: testToday(3, ZONE) })
    await check(page, 'widget-events')
    await context.close()
  })

  it.each([['a phone', PHONE], ['a desktop', DESKTOP]] as const)('on %s: courts beyond the edge scroll under sticky times, '
    + 'with a cue; the choice and its refusal stay in sight', async (screen, viewport) => {
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
        cue: root?.querySelector('.grid-wrap')?.hasAttribute('data-more'), timeLeft: time, left: scroll?.getBoundingClientRect().left }
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
    await page.getByRole('button', { name: 'Court 1, 12:00–13:00: free' }).click()
    await page.getByRole('button', { name: 'Court 1, 13:00–14:00: free' }).click()
    expect(await inView('Continue')).toBe(true)
    // A third is more than the court allows: the reason shows beside Continue, on the screen.
    await page.getByRole('button', { name: 'Court 1, 14:00–15:00: free' }).click()
    const reason = page.getByRole('status').getByText('One booking of this court covers at most 2 times.')
    await reason.waitFor()
    expect(await reason.evaluate((node) => {
      const box = node.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })).toBe(true)
    if (screen === 'a phone') await check(page, 'widget-phone-refusal')
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
      await page.getByRole('heading', { name: 'Réservé: Court 1, 11:00–12:00' }).waitFor()
      await expect.poll(() => mailsTo('fleur@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
      const mail = mailsTo('fleur@example.org')[0]
      expect(mail?.parsed.subject).toMatch(/^Réservation confirmée : Court 1, /)
      expect(mail?.parsed.from?.value).toEqual([{ name: 'TC Riverside', address: expect.any(String) as string }])
      await context.close()
    }
    // Texts that cannot be fetched: the widget speaks English rather than nothing.
    const { context, page } = await open('/nl', { blockMessages: true })
    await page.getByRole('region', { name: 'Book a court' }).waitFor()
    await context.close()
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

  it('tells a visitor with JavaScript off that booking needs it and links the club\'s website; a site\'s fallback shows', async () => {
    const off = await suite.browser.newContext({ viewport: PHONE, javaScriptEnabled: false, locale: 'en-GB' })
    const page = await off.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.origin)) foreign.push(request.url())
    })
    await page.goto(`${suite.origin}/book/riverside`)
    // Playwright's text and role engines skip <noscript>; the browser shows it when scripts are off.
    const notice = page.locator('noscript p')
    await notice.waitFor()
    expect(await notice.isVisible()).toBe(true)
    expect(await notice.textContent()).toBe('Booking on this page needs JavaScript, which is turned off in this browser. Turn it on '
      + `and reload the page, or book with TC Riverside directly: ${new URL(site.origin).host}`)
    expect(await notice.locator('a').getAttribute('href')).toBe(site.origin)
    // The instrument needs scripts: axe runs on a copy of the page as it is, in a context with them on.
    const copyContext = await suite.browser.newContext({ viewport: PHONE, locale: 'en-GB' })
    const copy = await copyContext.newPage()
    await copy.setContent(await page.content())
    violations.push(...await seriousViolations(copy, 'booking-page-no-script'))
    await copyContext.close()
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, 'booking-page-no-script')
    // On the club's own page, the fallback content it put inside the element.
    const embedded = await off.newPage()
    await embedded.goto(`${site.origin}/en`)
    expect(await embedded.locator('#fallback').isVisible()).toBe(true)
    const german = await off.newPage()
    await german.goto(`${suite.origin}/book/riverside?lang=de`)
    expect(await german.locator('noscript p').textContent()).toMatch(/^Zum Buchen braucht diese Seite JavaScript/)
    await off.close()
  })

  it('loaded nothing from elsewhere, and no view has serious or critical accessibility violations', () => {
    expect(foreign).toEqual([])
    expect(violations).toEqual([])
  })
})
