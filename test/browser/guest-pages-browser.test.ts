/**
 * What a guest meets booking a court, in Debian's Chromium against the real server process, on SQLite and
 * on PostgreSQL, with mail through a real SMTP server: an answer lost on the way (the widget inline, the
 * hosted page framed and alone) ends on the confirmation of one booking; refusals in the guest's language
 * at their fields, what was typed kept; the language the guest chooses, kept for the mails and the
 * booking's page; on a phone, what the guest must see in sight of a framing page, court names on top of
 * the grid, no text cut off in six languages, the popup's close button in view; the times that have begun
 * folded away; the cancellation policy before booking and a true promise after; the hosted page without
 * JavaScript. Tap targets and focus rings are measured on every guest page; axe-core runs on every view;
 * screenshots (desktop and phone) go to docs/.
 */
import fs from 'node:fs'
import type { BrowserContext, Frame, Page, Request, Route } from 'playwright-core'
import { expect, it } from 'vitest'
import { GUEST_LANGUAGES } from '../../src/domain/languages.js'
import type { GuestLanguage } from '../../src/domain/languages.js'
import { fill } from '../../src/domain/messages.js'
import type { Text } from '../../src/domain/messages.js'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { OPERATOR } from '../../src/services/audit.js'
import { changeBookingRules } from '../../src/services/booking-rules.js'
import { setWebsites } from '../../src/services/club-websites.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { DESKTOP, PHONE, describeInBrowser, framePage, screenshots, seriousViolations, startSite, useBrowserSuite }
  from '../helpers/browser.js'
import { idFor } from '../helpers/fixtures.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { onRealDay, testNow, testToday, useTestClock } from '../helpers/today.js'

const ZONE = 'Europe/Berlin'
const SMALL_PHONE = { width: 360, height: 740 }
const COURTS = { one: idFor('guest:court-1'), two: idFor('guest:court-2'), three: idFor('guest:court-3'), late: idFor('guest:late'),
  noon: idFor('guest:noon') }
const LOCALES = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL' } as const

/** The widget's texts of a language, as the service serves them. */
const widgetTexts = (language: GuestLanguage) =>
  JSON.parse(fs.readFileSync(`widget/public/messages/${language}.json`, 'utf8')) as Record<string, Text>
const say = (language: GuestLanguage, key: string, params: Record<string, string | number> = {}) =>
  fill(LOCALES[language], widgetTexts(language)[key] ?? '', params)

/** A zone where it is about noon now (Etc/GMT±N): today has times that have begun and times to book, whenever the run is. */
function noonZone(): string {
  const hour = new Date(testNow()).getUTCHours()
  const shift = Math.max(-12, Math.min(14, 12 - hour))
  return shift === 0 ? 'Etc/GMT' : `Etc/GMT${shift > 0 ? '-' : '+'}${String(Math.abs(shift))}`
}

interface OpenOptions {
  readonly viewport?: { width: number, height: number }
  readonly script?: boolean
  readonly widget?: boolean
  readonly locale?: string
}

describeInBrowser('the guest\'s pages', 'the guest pages browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  let site: Awaited<ReturnType<typeof startSite>>
  const violations: string[] = []
  const date = testToday(2, ZONE)
  const at = (hour: number) => localToInstant(date, hour * 60, ZONE)
  const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))

  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    env: () => ({ SMTP_URL: smtp.url, BOOKING_RATE_CAPACITY: '200', BOOKING_RATE_PER_MINUTE: '60', PUBLIC_RATE_CAPACITY: '2000',
      BOOKING_MAX_OPEN_PER_EMAIL: '20' }),
    seed: async (context, service) => {
      const riverside = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: ZONE })
      await importClubData(context.db, context.clock, riverside.id, { courts: [
        { id: COURTS.one, name: 'Court 1', booking_horizon_days: 30, opening_hours: hours },
        { id: COURTS.two, name: 'Court 2', booking_horizon_days: 30, opening_hours: hours },
        { id: COURTS.three, name: 'Court 3', booking_horizon_days: 30, opening_hours: hours },
      ] })
      await changeBookingRules(context.db, context.clock, { clubId: riverside.id, actor: OPERATOR, rules: {
        contactEmail: 'office@riverside.example', contactPhone: '+49 30 1234567', address: 'Uferweg 4, 10557 Berlin' } })
      // A club whose bookings can no longer be cancelled online once made (its deadline is 30 days before the start).
      const lakeside = await createClub(context.db, context.clock, { slug: 'lakeside', name: 'TC Lakeside', timezone: ZONE })
      await importClubData(context.db, context.clock, lakeside.id, { courts: [
        { id: COURTS.late, name: 'Lake court', booking_horizon_days: 30, opening_hours: hours }] })
      await changeBookingRules(context.db, context.clock, { clubId: lakeside.id, actor: OPERATOR, rules: {
        cancellationDeadlineMinutes: 43_200, contactPhone: '+49 30 7654321', contactEmail: 'desk@lakeside.example' } })
      // A club where it is noon: today's morning has begun, its afternoon is free.
      const noon = await createClub(context.db, context.clock, { slug: 'noon', name: 'Noon Club', timezone: noonZone() })
      await importClubData(context.db, context.clock, noon.id, { courts: [{ id: COURTS.noon, name: 'Day court', booking_horizon_days: 3,
        opening_hours: Object.fromEntries(Object.keys(hours).map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
      const inline = (lang?: string) => '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TC Riverside</title>'
        + `<script type="module" src="${service}/widget/v1/club-booking.js"></script></head><body><h1>Our club</h1><main>`
        + `<club-booking club="riverside"${lang === undefined ? '' : ` lang="${lang}"`}></club-booking></main></body></html>`
      site = await startSite({ '/inline': inline(), '/spanish': inline('es'),
        // The framing page of the docs, below a header that pushes the frame down the page.
        '/frame': framePage(service, '/book/riverside', 'booking', `<h1>Our club</h1>${'<p>News of the club.</p>'.repeat(12)}`),
        '/popup': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TC Riverside</title>'
          + `<script type="module" src="${service}/widget/v1/club-booking.js"></script></head><body><main>`
          + '<club-booking club="riverside" mode="popup"></club-booking></main></body></html>' })
      await setWebsites(context.db, context.clock, { clubId: riverside.id, websites: [site.origin], actor: OPERATOR })
    },
    stop: () => Promise.all([site.close(), smtp.stop()]).then(() => undefined),
  })

  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
  /**
   * A page in a browser of its own. `script: false`: JavaScript off (the page's scripts and the test's; axe runs on a
   * copy); `widget: false`: scripts on, but the widget's script never arrives (what the page shows without it, measurable).
   */
  const open = async (url: string, options: OpenOptions = {}) => {
    const context: BrowserContext = await suite.browser.newContext({ viewport: options.viewport ?? DESKTOP,
      locale: options.locale ?? 'en-GB', javaScriptEnabled: options.script !== false })
    await useTestClock(context)
    context.setDefaultTimeout(8_000)
    const page = await context.newPage()
    if (options.widget === false) await page.route('**/widget/v1/club-booking*.js', (route) => route.abort())
    await page.goto(url.startsWith('/') ? `${suite.origin}${url}` : url)
    return { context, page }
  }
  const check = async (page: Page, name: string, options: { screen?: boolean, script?: false } = {}) => {
    if (options.script === false) {
      // The instrument needs scripts: axe runs on a copy of the page as it is, in a context with them on.
      const copyContext = await suite.browser.newContext({ viewport: page.viewportSize() ?? DESKTOP })
      const copy = await copyContext.newPage()
      await copy.setContent(await page.content())
      violations.push(...await seriousViolations(copy, name))
      await copyContext.close()
    } else {
      violations.push(...await seriousViolations(page, name))
    }
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, name, options)
  }
  const dayName = (day: string, language: GuestLanguage = 'en') => new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long',
    day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))
  /** The date two days ahead, shown in the widget (of a page or a frame): its name is in the grid's caption once it is there. */
  const showDate = async (target: Page | Frame, language: GuestLanguage = 'en') => {
    // The widget's date field (the hosted page's own form, for browsers without JavaScript, has one too, hidden by the widget).
    const field = target.locator('club-booking').locator('#date')
    await field.fill(date)
    await field.dispatchEvent('change')
    await target.locator('caption', { hasText: dayName(date, language) }).waitFor({ state: 'attached' })
  }
  const statusOf = async (hour: number, court = COURTS.one, slug = 'riverside') => {
    const listing = await fetch(`${suite.origin}/api/v1/public/${slug}/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { court_id: string, start_time: string, status: string }[] }).courts
    return slots.find((slot) => slot.court_id === court && Date.parse(slot.start_time) === at(hour))?.status
  }
  const bookByApi = async (hour: number, email: string, court = COURTS.one) => {
    const answer = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: court, start_time: new Date(at(hour)).toISOString(),
        end_time: new Date(at(hour + 1)).toISOString(), booker_name: 'Quick Quinn', booker_email: email }) })
    expect(answer.status).toBe(201)
  }

  /**
   * The first answer to a booking is lost after the service took it (as a phone's connection drops); the
   * requests are counted and their keys kept.
   */
  const loseFirstAnswer = async (page: Page) => {
    const keys: string[] = []
    await page.route('**/api/v1/public/*/courts/book', async (route: Route, request: Request) => {
      if (request.method() !== 'POST') return route.continue()
      keys.push(request.headers()['idempotency-key'] ?? '')
      if (keys.length > 1) return route.continue()
      await route.fetch()
      return route.abort('connectionreset')
    })
    return keys
  }

  it.each([['inline on a club website', 'inline'], ['in a frame on a club website', 'frame'], ['on the hosted page', 'hosted']] as const)(
    'books once when the first answer is lost (%s): the same key again, the confirmation, one booking, one mail',
    async (_case, where) => {
      const hour = { inline: 8, frame: 9, hosted: 10 }[where]
      const { context, page } = await open(where === 'hosted' ? '/book/riverside' : `${site.origin}/${where}`)
      const keys = await loseFirstAnswer(page)
      let target: Page | Frame = page
      if (where === 'frame') {
        await expect.poll(() => page.frames().some((frame) => frame.url().startsWith(`${suite.origin}/book/`))).toBe(true)
        target = page.frames().find((frame) => frame.url().startsWith(`${suite.origin}/book/`)) as Frame
      }
      await showDate(target)
      await target.getByRole('button', { name: `Court 2, ${String(hour).padStart(2, '0')}:00–${String(hour + 1).padStart(2, '0')}:00: free` })
        .click()
      await target.getByRole('button', { name: 'Continue' }).click()
      const email = `lost.${where}@example.org`
      await target.getByRole('textbox', { name: 'Your name' }).fill('Lena Lost')
      await target.getByRole('textbox', { name: 'Your e-mail address' }).fill(email)
      await target.getByRole('button', { name: 'Book', exact: true }).click()
      await target.getByRole('heading', { name: `Booked: Court 2, ${String(hour).padStart(2, '0')}:00–` }).waitFor()
      expect(keys.length).toBe(2)
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
      expect(keys[1]).toBe(keys[0])
      expect(await statusOf(hour, COURTS.two)).toBe('booked')
      await expect.poll(() => mailsTo(email).length, { timeout: 10_000, interval: 100 }).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(mailsTo(email)).toHaveLength(1)
      await context.close()
    })

  it('says each refusal at its field in the guest\'s language, all at once, in all six languages, and keeps what was typed', async () => {
    const { context, page } = await open(`${site.origin}/inline`)
    await showDate(page)
    for (const [i, language] of GUEST_LANGUAGES.entries()) {
      const hour = 11 + i
      await page.locator('club-booking').locator('#language').selectOption(language)
      await page.locator('caption', { hasText: dayName(date, language) }).waitFor({ state: 'attached' })
      await page.getByRole('button', { name: `Court 3, ${String(hour)}:00–${String(hour + 1)}:00: ${say(language, 'available')}` })
        .click()
      await page.getByRole('button', { name: say(language, 'continue') }).click()
      await page.getByLabel(say(language, 'name')).fill('   ')
      await page.getByLabel(say(language, 'email')).fill('someone@')
      await page.getByRole('button', { name: say(language, 'book'), exact: true }).click()
      // Both fields are marked, each described by its reason in the guest's words; the first has the focus.
      const fields = page.locator('club-booking').locator('input[aria-invalid="true"]')
      await expect.poll(() => fields.count()).toBe(2)
      const described = await page.evaluate(() => {
        const root = document.querySelector('club-booking')?.shadowRoot
        return ['name', 'email'].map((id) => {
          const input = root?.getElementById(id)
          return { id, invalid: input?.getAttribute('aria-invalid'), said: root?.getElementById(input?.getAttribute('aria-describedby')
            ?? '')?.textContent, value: (input as HTMLInputElement | null)?.value }
        }).concat([{ id: 'focus', invalid: null, said: root?.activeElement?.id, value: undefined }])
      })
      expect(described).toEqual([
        { id: 'name', invalid: 'true', said: say(language, 'r.blank'), value: '   ' },
        { id: 'email', invalid: 'true', said: say(language, 'r.invalid_email'), value: 'someone@' },
        { id: 'focus', invalid: null, said: 'name', value: undefined }])
      await page.getByRole('alert').getByText(say(language, 'fixFields', { count: 2 })).waitFor()
      if (language === 'es') await check(page, 'widget-refused-fields')
      // Corrected, it books: in the guest's language, the mail too.
      await page.getByLabel(say(language, 'name')).fill(`Gast ${language}`)
      await page.getByLabel(say(language, 'email')).fill(`fields.${language}@example.org`)
      await page.getByRole('button', { name: say(language, 'book'), exact: true }).click()
      await page.getByRole('heading', { name: say(language, 'bookedTitle', { summary: `Court 3, ${String(hour)}:00–${String(hour + 1)}:00` }) })
        .waitFor()
      await page.getByRole('button', { name: say(language, 'another') }).click()
    }
    await expect.poll(() => mailsTo('fields.fr@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    expect(mailsTo('fields.fr@example.org')[0]?.parsed.subject).toMatch(/^Réservation confirmée : Court 3, /)
    expect(mailsTo('fields.nl@example.org')[0]?.parsed.subject).toMatch(/^Boeking bevestigd: Court 3, /)
    await context.close()
  })

  it('keeps what was typed after a time was taken meanwhile, and offers another time with the same name and address', async () => {
    const { context, page } = await open(`${site.origin}/inline`)
    await showDate(page)
    await page.getByRole('button', { name: 'Court 1, 17:00–18:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Your name').fill('Tilda Typed')
    await page.getByLabel('Your e-mail address').fill('tilda@example.org')
    await page.getByLabel('Notes (optional)').fill('Bringing balls')
    await bookByApi(17, 'quick.17@example.org')
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('alert').getByText(say('en', 'r.slot_booked')).waitFor()
    await page.getByRole('button', { name: 'Court 1, 18:00–19:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    expect([await page.getByLabel('Your name').inputValue(), await page.getByLabel('Your e-mail address').inputValue(),
      await page.getByLabel('Notes (optional)').inputValue()]).toEqual(['Tilda Typed', 'tilda@example.org', 'Bringing balls'])
    await context.close()
  })

  it('speaks the language the guest chooses in the widget, and its booking\'s mails and page follow the choice', async () => {
    const { context, page } = await open(`${site.origin}/spanish`)
    await page.getByRole('region', { name: say('es', 'title') }).waitFor()
    await page.getByLabel(say('es', 'language')).selectOption('it')
    await page.getByRole('region', { name: say('it', 'title') }).waitFor()
    await showDate(page, 'it')
    // What the guest is promised is said before booking: the club's policy for this time.
    await page.getByRole('button', { name: `Court 2, 16:00–17:00: ${say('it', 'available')}` }).click()
    await page.getByRole('button', { name: say('it', 'continue') }).click()
    await page.getByText(say('it', 'policyHours', { count: 2 })).waitFor()
    await page.getByLabel(say('it', 'name')).fill('Ilaria')
    await page.getByLabel(say('it', 'email')).fill('ilaria@example.org')
    await page.getByRole('button', { name: say('it', 'book'), exact: true }).click()
    await page.getByRole('heading', { name: say('it', 'bookedTitle', { summary: 'Court 2, 16:00–17:00' }) }).waitFor()
    // After booking: its page, the calendar file and both calendars' links.
    const manage = await page.getByRole('link', { name: say('it', 'manage') }).getAttribute('href') ?? ''
    expect(manage).toMatch(new RegExp(`^${suite.origin}/bookings/manage/cpm_[A-Za-z0-9_-]{43}$`))
    expect(await page.getByRole('link', { name: say('it', 'calendarFile') }).getAttribute('href')).toBe(`${manage}/calendar.ics`)
    const google = new URL(await page.getByRole('link', { name: 'Google Calendar' }).getAttribute('href') ?? '')
    const start = new Date(at(16)).toISOString().replace(/[-:]|\.\d{3}/g, '')
    expect([google.host, google.searchParams.get('dates')?.split('/')[0], google.searchParams.get('location')])
      .toEqual(['calendar.google.com', start, 'Court 2, TC Riverside, Uferweg 4, 10557 Berlin'])
    expect(new URL(await page.getByRole('link', { name: 'Outlook' }).getAttribute('href') ?? '').host).toBe('outlook.live.com')
    await page.getByText(new RegExp(`^${say('it', 'cancelUntil', { until: 'X' }).split('X')[0] ?? ''}`)).waitFor()
    await check(page, 'widget-booked-links')
    await expect.poll(() => mailsTo('ilaria@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    expect(mailsTo('ilaria@example.org')[0]?.parsed.subject).toMatch(/^Prenotazione confermata: Court 2, /)
    const booking = await context.newPage()
    await booking.goto(manage)
    expect(await booking.locator('html').getAttribute('lang')).toBe('it')
    await context.close()
  })

  it('tells before booking that a time can no longer be cancelled online, and says so again after, with the club\'s phone', async () => {
    const { context, page } = await open('/book/lakeside')
    await showDate(page)
    await page.getByRole('button', { name: 'Lake court, 10:00–11:00: free' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    const late = `${say('en', 'lateTime')} ${say('en', 'contactClub', { contact: '+49 30 7654321 · desk@lakeside.example' })}`
    await page.getByText(late).waitFor()
    await page.getByRole('textbox', { name: 'Your name' }).fill('Leo Late')
    await page.getByRole('textbox', { name: 'Your e-mail address' }).fill('leo@example.org')
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.getByRole('heading', { name: 'Booked: Lake court, 10:00–11:00' }).waitFor()
    await page.getByText(late).waitFor()
    expect(await page.getByRole('link', { name: say('en', 'manageLate') }).count()).toBe(1)
    expect(await page.getByText(/change or cancel the booking until/).count()).toBe(0)
    await check(page, 'widget-booked-late')
    await expect.poll(() => mailsTo('leo@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)
    expect(mailsTo('leo@example.org')[0]?.parsed.text).toContain('it can no longer be cancelled online')
    await context.close()
  })

  it('folds away the times of today that have begun: the first free time is on the screen, the earlier ones a tap away', async () => {
    const { context, page } = await open('/book/noon', { viewport: PHONE })
    const earlier = page.getByRole('button', { name: /^Show \d+ earlier times?$/ })
    await earlier.waitFor()
    const first = page.locator('club-booking').locator('button.slot.available').first()
    expect(await first.evaluate((node) => {
      const box = node.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })).toBe(true)
    expect(await page.getByRole('button', { name: /: not bookable now$/ }).count()).toBe(0)
    await check(page, 'widget-earlier-folded')
    await earlier.click()
    await expect.poll(() => page.getByRole('button', { name: /: not bookable now$/ }).count()).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Hide earlier times' }).waitFor()
    await context.close()
  })

  it('on a phone in a frame: the chosen time and Continue are in sight of the club\'s page, and so is the form', async () => {
    const { context, page } = await open(`${site.origin}/frame`, { viewport: PHONE })
    await expect.poll(() => page.frames().some((frame) => frame.url().startsWith(`${suite.origin}/book/`))).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().startsWith(`${suite.origin}/book/`)) as Frame
    await showDate(frame)
    await expect.poll(() => page.locator('#booking').evaluate((node) => node.getBoundingClientRect().height)).toBeGreaterThan(600)
    // In the frame's own view, as the club's page shows it: the box of an element of the frame in the page's viewport.
    const inSight = async (locator: ReturnType<Frame['getByRole']>) => {
      const box = await locator.boundingBox()
      return box !== null && box.y >= 0 && box.y + box.height <= PHONE.height
    }
    const cell = frame.getByRole('button', { name: 'Court 1, 20:00–21:00: free' })
    await cell.scrollIntoViewIfNeeded()
    await cell.click()
    const next = frame.getByRole('button', { name: 'Continue' })
    const chosen = frame.getByRole('button', { name: 'Court 1, 20:00–21:00: selected' })
    await expect.poll(async () => [await inSight(chosen), await inSight(next)]).toEqual([true, true])
    await check(page, 'booking-page-framed-chosen', { screen: true })
    await next.click()
    await expect.poll(() => inSight(frame.getByRole('textbox', { name: 'Your name' }))).toBe(true)
    await context.close()
  })

  it('at 360 px: the court names stay on top of the grid, and no text is cut off in any of the six languages', async () => {
    const { context, page } = await open('/book/riverside', { viewport: SMALL_PHONE })
    await showDate(page)
    await page.evaluate(() => {
      const scroll = document.querySelector('club-booking')?.shadowRoot?.querySelector('.scroll')
      scroll?.scrollTo({ top: scroll.scrollHeight })
    })
    const header = await page.evaluate(() => {
      const root = document.querySelector('club-booking')?.shadowRoot
      const frame = root?.querySelector('.scroll')?.getBoundingClientRect()
      const names = Array.from(root?.querySelectorAll('thead th') ?? []).map((node) => node.getBoundingClientRect())
      return { frameTop: Math.round(frame?.top ?? -1), tops: [...new Set(names.map((box) => Math.round(box.top)))],
        scrolled: (root?.querySelector('.scroll')?.scrollTop ?? 0) > 0 }
    })
    expect(header.scrolled).toBe(true)
    expect(header.tops.every((top) => Math.abs(top - header.frameTop) <= 1), JSON.stringify(header)).toBe(true)
    await check(page, 'widget-sticky-courts')
    for (const language of GUEST_LANGUAGES) {
      await page.locator('club-booking').locator('#language').selectOption(language)
      await page.locator('caption', { hasText: dayName(date, language) }).waitFor({ state: 'attached' })
      // A chosen time, a taken one and times not bookable now are all in the grid; none is cut.
      await page.locator('club-booking').locator('button.slot.available').first().click()
      const cut = await page.evaluate(() => {
        const root = document.querySelector('club-booking')?.shadowRoot
        return Array.from(root?.querySelectorAll<HTMLElement>('.slot, thead th, .strip button') ?? [])
          .filter((node) => node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1)
          .map((node) => node.textContent.trim())
      })
      expect({ language, cut }).toEqual({ language, cut: [] })
    }
    await context.close()
  })

  it('keeps the popup\'s close button in view while its dialog scrolls', async () => {
    const { context, page } = await open(`${site.origin}/popup`, { viewport: PHONE })
    await page.getByRole('button', { name: 'Book a court' }).click()
    const dialog = page.getByRole('dialog', { name: 'Book a court' })
    await dialog.getByRole('grid').waitFor()
    await dialog.evaluate((node) => {
      node.scrollTo({ top: node.scrollHeight })
    })
    await expect.poll(() => dialog.evaluate((node) => node.scrollTop)).toBeGreaterThan(0)
    const close = dialog.getByRole('button', { name: 'Close' })
    const box = await close.boundingBox()
    expect(box !== null && box.y >= 0 && box.y + box.height <= PHONE.height).toBe(true)
    await check(page, 'widget-popup-scrolled', { screen: true })
    await close.click()
    await dialog.waitFor({ state: 'hidden' })
    await context.close()
  })

  it('books on the hosted page with JavaScript off, says a taken time and a refused address at their fields, and keeps the form',
    async () => {
      const { context, page } = await open(`/book/riverside?date=${date}`, { script: false, viewport: PHONE })
      await page.getByRole('group', { name: 'Court 3' }).waitFor()
      await check(page, 'booking-page-no-script', { script: false })
      const choose = (court: string, hour: number) => page.getByRole('group', { name: court })
        .getByLabel(new RegExp(`^${String(hour).padStart(2, '0')}:00–`))
      // A free time booked: the browser lands on the booking's page, and one mail goes out.
      await choose('Court 3', 8).check()
      await page.getByLabel('Your name').fill('Nina No-Script')
      await page.getByLabel('Your e-mail address').fill('nina@example.org')
      await page.getByRole('button', { name: 'Book', exact: true }).click()
      await page.getByText('Booked. The confirmation is on its way to you by e-mail.').waitFor()
      expect(page.url()).toMatch(/\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43}\?booked=1&lang=en$/)
      await check(page, 'manage-booking-booked', { script: false })
      expect(await statusOf(8, COURTS.three)).toBe('booked')
      await expect.poll(() => mailsTo('nina@example.org').length, { timeout: 10_000, interval: 100 }).toBe(1)

      // A time taken while the guest typed: the day again without it, the alert, the name and address kept.
      await page.goto(`${suite.origin}/book/riverside?date=${date}`)
      await choose('Court 3', 9).check()
      await page.getByLabel('Your name').fill('Nina No-Script')
      await page.getByLabel('Your e-mail address').fill('nina@example.org')
      await bookByApi(9, 'quick.9@example.org', COURTS.three)
      await page.getByRole('button', { name: 'Book', exact: true }).click()
      await page.getByRole('alert').getByText('Someone has just booked this time on Court 3. Please choose another one.').waitFor()
      expect([await page.getByLabel('Your name').inputValue(), await page.getByLabel('Your e-mail address').inputValue()])
        .toEqual(['Nina No-Script', 'nina@example.org'])
      expect(await choose('Court 3', 9).count()).toBe(0)
      await check(page, 'booking-page-no-script-taken', { script: false })

      // An address that cannot take another booking: said at its field, which is marked and described by it.
      for (const hour of [12, 13]) await bookByApi(hour, 'busy.nojs@example.org', COURTS.two)
      await changeRulesOf('riverside', { maxOpenPerEmail: 2 })
      try {
        await choose('Court 3', 10).check()
        await page.getByLabel('Your e-mail address').fill('busy.nojs@example.org')
        await page.getByRole('button', { name: 'Book', exact: true }).click()
        const email = page.getByLabel('Your e-mail address')
        await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true')
        const said = await page.locator(`#${await email.getAttribute('aria-describedby') ?? ''}`).textContent()
        expect(said).toBe('This e-mail address cannot take another booking now. If it is yours, its mailbox has a message saying why.')
        expect(await page.locator('#email').getAttribute('autofocus')).toBe('')
        await check(page, 'booking-page-no-script-refused', { script: false })
      } finally {
        await changeRulesOf('riverside', { maxOpenPerEmail: null })
      }
      expect(await statusOf(10, COURTS.three)).toBe('available')
      await context.close()
    })

  /** A club's rules changed as the dashboard changes them (the server sees the change at once). */
  const changeRulesOf = async (slug: string, rules: { maxOpenPerEmail: number | null }) => {
    const { openContext } = await import('../helpers/context.js')
    const context = await openContext(suite.database)
    try {
      const club = await context.db.selectFrom('clubs').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
      await changeBookingRules(context.db, context.clock, { clubId: club.id, actor: OPERATOR, rules })
    } finally {
      await context.close()
    }
  }

  it('has tap targets of at least 44 × 44 px and a focus ring of at least 3:1 against what is around it, on every guest page',
    async () => {
      // The booking's page, and its confirmation step, change of time and a club's page of a past deadline.
      await expect.poll(() => mailsTo('nina@example.org').length, { timeout: 10_000 }).toBeGreaterThan(0)
      const manage = /\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43}/.exec(mailsTo('nina@example.org')[0]?.parsed.text ?? '')?.[0] ?? ''
      await expect.poll(() => mailsTo('leo@example.org').length, { timeout: 10_000 }).toBeGreaterThan(0)
      const late = /\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43}/.exec(mailsTo('leo@example.org')[0]?.parsed.text ?? '')?.[0] ?? ''
      // A waiting list entry's stop link, for a time taken.
      await bookByApi(21, 'taken.21@example.org', COURTS.three)
      const waited = await fetch(`${suite.origin}/api/v1/public/riverside/courts/waitlist`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURTS.three,
          start_time: new Date(at(21)).toISOString(), end_time: new Date(at(22)).toISOString(), name: 'Wanda', email: 'wanda@example.org' }) })
      expect(waited.status).toBe(201)
      await expect.poll(() => mailsTo('wanda@example.org').length, { timeout: 10_000 }).toBeGreaterThan(0)
      const stop = /\/waiting-list\/cpw_[A-Za-z0-9_-]{43}/.exec(mailsTo('wanda@example.org')[0]?.parsed.text ?? '')?.[0] ?? ''
      const pages: [string, string, boolean][] = [
        ['a waiting list entry\'s stop link', stop, false],
        ['the hosted page', `/book/riverside?date=${date}`, true],
        ['the hosted page without the widget', `/book/riverside?date=${date}`, false],
        ['the booking\'s page', manage, false],
        ['its cancellation, to confirm', `${manage}?cancel=1`, false],
        ['its change of time', `${manage}?change=1&date=${date}`, false],
        ['a booking past its deadline', late, false],
      ]
      for (const [name, url, script] of pages) {
        for (const viewport of [SMALL_PHONE, PHONE, DESKTOP]) {
          const { context, page } = await open(url, { widget: script, viewport })
          if (script) await page.locator('club-booking').getByRole('grid').waitFor()
          expect({ name, viewport, small: await smallTargets(page) }).toEqual({ name, viewport, small: [] })
          expect({ name, viewport, faint: await faintRings(page) }).toEqual({ name, viewport, faint: [] })
          expect({ name, viewport, cramped: await crampedLabels(page) }).toEqual({ name, viewport, cramped: [] })
          if (script) {
            // The form's fields and buttons, and the confirmation's links, too.
            await page.locator('club-booking').locator('button.slot.available').first().click()
            await page.getByRole('button', { name: 'Continue' }).click()
            expect({ name: `${name}, the form`, small: await smallTargets(page), faint: await faintRings(page) })
              .toEqual({ name: `${name}, the form`, small: [], faint: [] })
          }
          await context.close()
        }
      }
      if (dialect === 'sqlite' && onRealDay()) {
        for (const [name, url] of [['manage-booking-confirm-cancel', `${manage}?cancel=1`], ['manage-booking-late', late],
          ['manage-booking-change', `${manage}?change=1&date=${date}`]] as const) {
          // Pages without a script of their own: measured as they are.
          const { context, page } = await open(url)
          await check(page, name)
          await context.close()
        }
      }
    }, 120_000)

  it('no view has serious or critical accessibility violations', () => {
    expect(violations).toEqual([])
  })
})

/**
 * The tap targets of a page (through the widget's shadow root) smaller than 44 × 44 px (WCAG 2.5.5): its links,
 * buttons, fields and the labels of its radio buttons (a radio button is tapped by its label).
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const roots: (Document | ShadowRoot)[] = [document]
    const shadow = document.querySelector('club-booking')?.shadowRoot
    if (shadow != null) roots.push(shadow)
    const targets = roots.flatMap((root) => Array.from(root.querySelectorAll<HTMLElement>('a[href], button, select, textarea, '
      + 'input:not([type=hidden]):not([type=radio]):not([type=checkbox]), label:has(input[type=radio])')))
    return targets.filter((node) => {
      const box = node.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && getComputedStyle(node).visibility !== 'hidden' && node.closest('[hidden]') === null
        && (box.width < 44 - 0.5 || box.height < 44 - 0.5)
    }).map((node) => {
      const box = node.getBoundingClientRect()
      return `${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') ?? node.textContent).trim().slice(0, 40)}" `
        + `${box.width.toFixed(0)}×${box.height.toFixed(0)}`
    })
  })
}

/**
 * The focusable elements of a page (through the widget's shadow root) whose focus ring, with the keyboard's focus
 * on them, has less than 3:1 against the colour around it or the colour it encloses (WCAG 1.4.11).
 */
async function faintRings(page: Page): Promise<string[]> {
  await page.keyboard.press('Tab')
  return page.evaluate(() => {
    const rgb = (color: string) => {
      const parts = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(color)
      return parts === null ? null : { r: Number(parts[1]), g: Number(parts[2]), b: Number(parts[3]), a: Number(parts[4] ?? 1) }
    }
    const luminance = (color: { r: number, g: number, b: number }) => {
      const channel = (value: number) => {
        const s = value / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)
    }
    const contrast = (a: { r: number, g: number, b: number }, b: { r: number, g: number, b: number }) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
      return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05)
    }
    /** The first opaque background from the node up (across the shadow root's host). */
    const background = (start: Element | null) => {
      for (let node: Element | null = start; node !== null;
        node = node.parentElement ?? (node.getRootNode() as ShadowRoot | Document as { host?: Element }).host ?? null) {
        const color = rgb(getComputedStyle(node).backgroundColor)
        if (color !== null && color.a > 0.5) return color
      }
      return { r: 255, g: 255, b: 255, a: 1 }
    }
    const roots: (Document | ShadowRoot)[] = [document]
    const shadow = document.querySelector('club-booking')?.shadowRoot
    if (shadow != null) roots.push(shadow)
    const focusable = roots.flatMap((root) => Array.from(root.querySelectorAll<HTMLElement>('a[href], button, select, textarea, '
      + 'input:not([type=hidden])')))
      .filter((node) => node.getBoundingClientRect().width > 0 && !(node as HTMLButtonElement).disabled)
    const faint: string[] = []
    for (const node of focusable) {
      node.focus({ focusVisible: true } as FocusOptions)
      const style = getComputedStyle(node)
      const ring = rgb(style.outlineColor)
      const named = `${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') ?? node.textContent).trim().slice(0, 30)}"`
      if (style.outlineStyle === 'none' || ring === null || Number.parseFloat(style.outlineWidth) < 2) {
        faint.push(`${named}: no ring`)
        continue
      }
      // Around the ring: the background it is drawn on. Inside it: the band of its box-shadow where it has one, else what its
      // offset leaves between it and the element (that background again), else the element's own background.
      const outside = background(node.parentElement ?? (node.getRootNode() as ShadowRoot).host)
      const band = /rgba?\([^)]*\)/.exec(style.boxShadow)?.[0]
      const offset = Number.parseFloat(style.outlineOffset)
      const inside = band !== undefined ? (rgb(band) ?? outside) : offset >= 1 ? outside : background(node)
      const worst = Math.min(contrast(ring, outside), contrast(ring, inside))
      if (worst < 3) faint.push(`${named}: ${worst.toFixed(2)}:1`)
    }
    return faint
  })
}

/** The labels of radio buttons (the times to choose) whose text comes within 6 px of the box's edge, or past it. */
async function crampedLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('label:has(input[type=radio])')).filter((label) => {
    const box = label.getBoundingClientRect()
    const range = document.createRange()
    range.selectNodeContents(label)
    const text = range.getBoundingClientRect()
    return box.width > 0 && (text.right > box.right - 6 || label.scrollWidth > label.clientWidth + 1)
  }).map((label) => label.textContent.trim()))
}
