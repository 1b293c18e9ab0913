/**
 * The club dashboard as people use it, in Debian's Chromium against the real server process, on
 * SQLite and on PostgreSQL, with mail through a real SMTP server: the operator invites an owner from
 * the command line; the owner opens the mailed link, signs in, creates a key with two scopes, copies
 * it (the test uses it against the API), revokes it, and invites an admin, who signs in from their
 * mail and has no Team page; signing in again by e-mail link. Every page is checked with axe-core
 * and saved as screenshots (desktop and phone) in docs/screenshots/.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { isoWeekday, localToInstant } from '../../src/domain/zoned-time.js'
import { DESKTOP, PHONE, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { COURT } from '../helpers/courts.js'
import { cli } from '../helpers/cli.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { WEEKDAYS, onRealDay, testToday, upcoming, useTestClock } from '../helpers/today.js'
import type { Weekday } from '../helpers/today.js'

describeInBrowser('the club dashboard in a browser', 'the dashboard browser test', (dialect) => {
  const smtp = new TestSmtpServer()
  const suite = useBrowserSuite(dialect, {
    start: () => smtp.start(),
    env: () => ({ SMTP_URL: smtp.url }),
    seed: async (context) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: 'Europe/Berlin' })
      await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT.allDay, name: 'Court 3 (floodlit)',
        booking_horizon_days: 30, opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
          .map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
      // Twelve weeks of the club's past, for the utilisation page: evenings busier than mornings, some cancelled.
      const rows = []
      for (let day = 1; day <= 84; day++) {
        for (let hour = 7; hour < 22; hour++) {
          if ((day * 7 + hour * 3) % (hour >= 17 ? 2 : 5) !== 0) continue
          const start = localToInstant(testToday(-day), hour * 60, 'Europe/Berlin')
          const by = (day + hour) % 9 === 0 ? 'guest' as const : (day + hour) % 13 === 0 ? 'club' as const : null
          rows.push({ id: crypto.randomUUID(), club_id: club.id, court_id: COURT.allDay, starts_at: new Date(start).toISOString(),
            ends_at: new Date(start + 3_600_000).toISOString(), booker_name: 'Past Guest', booker_email: 'past@example.org',
            member_id: null, notes: null, created_at: new Date(start - 86_400_000).toISOString(),
            status: by === null ? 'confirmed' as const : 'cancelled' as const, cancelled_at: by === null
              ? null
              : new Date(start - 3_600_000).toISOString(), cancelled_by: by, cancel_reason: null, manage_token_hash: null,
            anonymised_at: null })
        }
      }
      for (let i = 0; i < rows.length; i += 200) await context.db.insertInto('bookings').values(rows.slice(i, i + 200)).execute()
    },
    stop: () => smtp.stop(),
  })
  /** Requests the pages made to anywhere but the service, and those the service answered 404. */
  const foreign: string[] = []
  const missing: string[] = []
  const violations: string[] = []

  const linkMailedTo = async (address: string, after: number): Promise<string> => {
    let link: string | undefined
    await expect.poll(() => {
      const mail = smtp.received.slice(after).find((received) => received.envelopeTo.includes(address))
      link = /(http:\/\/localhost:\d+\/dashboard\/(?:sign-in|invitation)#token=cp[il]_[A-Za-z0-9_-]{43})/.exec(mail?.parsed.text ?? '')?.[1]
      return link
    }, { timeout: 10_000, interval: 100 }).toBeDefined()
    return link ?? ''
  }

  const newPage = async (viewport = DESKTOP): Promise<{ context: BrowserContext, page: Page }> => {
    // A browser on another clock than the club's: the club's pages show the club's times all the same.
    const context = await suite.browser.newContext({ viewport, bypassCSP: false, locale: 'en-GB', timezoneId: 'America/New_York' })
    await useTestClock(context)
    // A step that cannot happen fails naming its locator, well before the test's own time runs out.
    context.setDefaultTimeout(8_000)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin })
    const page = await context.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.origin) && !request.url().startsWith('data:')) foreign.push(request.url())
    })
    page.on('response', (response) => {
      if (response.status() === 404 && !response.url().includes('/api/')) missing.push(response.url())
    })
    return { context, page }
  }

  /** axe-core on the page as it is, and screenshots at both widths (from the SQLite run). */
  const check = async (page: Page, name: string) => {
    violations.push(...await seriousViolations(page, name))
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, `dashboard-${name}`)
  }

  let owner: { context: BrowserContext, page: Page }
  let key = ''

  it('lets an owner invited from the command line sign in from the mail', async () => {
    const before = smtp.received.length
    const invited = await cli(suite.env, ['admins', 'invite', '--club', 'riverside', '--email', 'olivia@example.org', '--json'])
    expect(invited.code, invited.stderr).toBe(0)
    const link = await linkMailedTo('olivia@example.org', before)
    expect(link).toBe(invited.json<{ invitation_url: string }>().invitation_url)
    owner = await newPage()
    const { page } = owner
    await page.goto(link)
    await expect.poll(() => page.getByRole('heading', { name: 'Accept your invitation' }).count()).toBe(1)
    await page.getByText('This invitation is for olivia@example.org, to administer TC Riverside as an owner.').waitFor()
    await check(page, 'invitation')
    await page.getByRole('button', { name: 'Accept and sign in' }).click()
    await page.getByRole('heading', { name: 'Developer access' }).waitFor()
    expect(page.url()).toBe(`${suite.origin}/dashboard/clubs/riverside/developer-access`)
    // The header names the club.
    await page.getByRole('banner').getByText('Club: TC Riverside').waitFor()
    const cookies = await owner.context.cookies()
    expect(cookies.find((cookie) => cookie.name === 'cp_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
  })

  it('creates a key with two scopes, shows it once with a copy button, and the key works as granted', async () => {
    const { page } = owner
    await page.getByLabel('Name', { exact: true }).fill('club website')
    await page.getByLabel(/read:groups/).check()
    await page.getByLabel(/read:events/).check()
    // A mistake of the person's own is told at its field, in plain words, and the banner stays for faults of the service.
    await page.getByLabel('Expires on (optional)').fill(testToday(-1))
    await page.getByRole('button', { name: 'Create key' }).click()
    const expiry = page.getByLabel('Expires on (optional)')
    await expect.poll(() => expiry.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#key-expiry-error').textContent()).toBe('Choose a day after today.')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key-expiry')
    expect(await page.getByRole('alert').filter({ hasText: /expires_at|Something went wrong/ }).count()).toBe(0)
    await check(page, 'developer-access-field-error')
    await expiry.fill('')
    await page.getByRole('button', { name: 'Create key' }).click()
    const shown = page.getByTestId('new-key')
    await shown.waitFor()
    key = (await shown.textContent())?.trim() ?? ''
    expect(key).toMatch(/^cpk_[0-9A-Za-z]{38}$/)
    await page.getByRole('button', { name: 'Copy key' }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
    await check(page, 'developer-access')

    const groups = await fetch(`${suite.origin}/api/v1/groups`, { headers: { authorization: `Bearer ${key}` } })
    expect(groups.status).toBe(200)
    const news = await fetch(`${suite.origin}/api/v1/news`, { headers: { authorization: `Bearer ${key}` } })
    expect(news.status).toBe(403)
    // Times on the club's clock, and said so: the key's creation in Berlin's time, not the browser's New York.
    await page.getByText('Times are the club\'s (Europe/Berlin).').waitFor()
    const listed = await page.evaluate(async () => (await (await fetch('/api/admin/v1/clubs/riverside/api-keys')).json()) as
        { items: { name: string, created_at: string }[] })
    const createdAt = listed.items.find((item) => item.name === 'club website')?.created_at ?? ''
    const inBerlin = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' })
      .format(new Date(createdAt))
    await page.getByRole('row', { name: /club website/ }).getByText(inBerlin).first().waitFor()
    await page.getByRole('button', { name: 'I have stored the key' }).click()
    expect(await page.getByTestId('new-key').count()).toBe(0)
    expect(await page.content()).not.toContain(key)
  })

  it('revokes the key after a confirmation; the API refuses it within a second', async () => {
    const { page } = owner
    await page.getByRole('button', { name: 'Revoke: club website' }).click()
    await page.getByRole('button', { name: 'Revoke key' }).click()
    await page.getByText('revoked', { exact: true }).waitFor()
    const revokedAt = performance.now()
    await expect.poll(async () => (await fetch(`${suite.origin}/api/v1/groups`, { headers: { authorization: `Bearer ${key}` } })).status,
      { timeout: 1_000, interval: 50 }).toBe(401)
    expect(performance.now() - revokedAt).toBeLessThan(1_000)
  })

  it('invites an admin, who signs in from their mail and has no Team page', async () => {
    const { page } = owner
    await page.getByRole('link', { name: 'Team' }).click()
    await page.getByRole('heading', { name: 'Team' }).waitFor()
    const before = smtp.received.length
    await page.getByLabel('E-mail address').fill('adam@example.org')
    await page.getByLabel('Role', { exact: true }).selectOption('admin')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.getByText('Invitation sent to adam@example.org.').waitFor()
    await check(page, 'team')

    // The audit log names what was done to whom, filters by what, and downloads as CSV.
    const log = page.getByRole('region', { name: 'Audit log' })
    await log.getByRole('row', { name: /olivia@example\.org invitation\.created adam@example\.org as admin/ }).waitFor()
    await page.getByLabel('What', { exact: true }).selectOption({ label: 'API keys' })
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await log.getByRole('row', { name: /api_key\.revoked club website \(cpk_\w+…\)/ }).waitFor()
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'invitation.created' }).count()).toBe(0)
    const href = await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href')
    expect(href).toBe('/api/admin/v1/clubs/riverside/audit/export?kind=api_key')
    const csv = await page.evaluate(async (url) => {
      const answer = await fetch(url)
      return { type: answer.headers.get('content-type'), text: await answer.text() }
    }, href ?? '')
    expect(csv.type).toBe('text/csv; charset=utf-8')
    // (The browser's decoder drops the byte order mark.)
    expect(csv.text.split('\r\n')[0]).toBe('created_at,actor,action,target_name,target,fields,detail,address')
    expect(csv.text).toContain('api_key.created')
    await check(page, 'team-audit')

    const adam = await newPage()
    await adam.page.goto(await linkMailedTo('adam@example.org', before))
    await adam.page.getByRole('button', { name: 'Accept and sign in' }).click()
    await adam.page.getByRole('heading', { name: 'Developer access' }).waitFor()
    expect(await adam.page.getByRole('link', { name: 'Team' }).count()).toBe(0)
    await adam.page.goto(`${suite.origin}/dashboard/clubs/riverside/team`)
    await adam.page.getByRole('alert').filter({ hasText: 'does not allow this' }).waitFor()
    // A club the person does not administer is a page that says so, without any club page's forms.
    await adam.page.goto(`${suite.origin}/dashboard/clubs/otherclub/developer-access`)
    await adam.page.getByRole('heading', { name: 'Page not found' }).waitFor()
    await adam.page.getByText('There is no club "otherclub" among the clubs you administer.').waitFor()
    expect(await adam.page.locator('form').count()).toBe(0)
    expect(await adam.page.getByRole('link', { name: 'Developer access' }).count()).toBe(0)
    await check(adam.page, 'not-found')
    await adam.page.goto(`${suite.origin}/dashboard/nowhere`)
    await adam.page.getByText('The dashboard has no page at this address.').waitFor()
    await adam.context.close()
  })

  it('shows a guest\'s booking in the day view, cancels it with a reason the guest receives, and sets the rules', async () => {
    const { page } = owner
    const date = testToday(2)
    const start = localToInstant(date, 18 * 60, 'Europe/Berlin')
    const booked = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.allDay,
        start_time: new Date(start).toISOString(), end_time: new Date(start + 3_600_000).toISOString(),
        booker_name: 'Gina Guest', booker_email: 'gina@example.org' }) })
    expect(booked.status).toBe(201)

    await page.getByRole('link', { name: 'Bookings' }).click()
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor()
    await page.getByLabel('Day', { exact: true }).fill(date)
    await page.getByLabel('Day', { exact: true }).dispatchEvent('change')
    await page.getByText('gina@example.org').waitFor()
    expect(await page.getByRole('cell', { name: '18:00–19:00', exact: true }).count()).toBe(1)

    await page.getByLabel('Guests may cancel until this many hours before the start').fill('6')
    await page.getByLabel('Address of the club\'s privacy notice (linked in the booking mails)').fill('https://riverside.example/privacy')
    await page.getByRole('button', { name: 'Save rules' }).click()
    await page.getByText('Rules saved.').waitFor()
    await check(page, 'bookings')
    // The waiting list switched off, and on again: the public listing (the widget's) says so at once.
    const waitingList = async () => (await (await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`))
      .json() as { waiting_list: boolean }).waiting_list
    const waitingBox = page.getByLabel('Guests may wait for a taken time and are mailed when it becomes free (waiting list)')
    expect([await waitingBox.isChecked(), await waitingList()]).toEqual([true, true])
    for (const on of [false, true]) {
      await waitingBox.setChecked(on)
      await page.getByRole('button', { name: 'Save rules' }).click()
      await expect.poll(waitingList).toBe(on)
    }

    const before = smtp.received.length
    await page.getByRole('button', { name: 'Cancel: Gina Guest 18:00–19:00' }).click()
    await page.getByLabel('Reason (in the mail to the guest)').fill('The court is flooded after the storm.')
    await page.getByRole('button', { name: 'Cancel booking and mail the guest' }).click()
    await page.getByText('The booking of Gina Guest is cancelled; the guest is mailed.').waitFor()
    await page.getByText('Cancelled by the club: The court is flooded after the storm.').waitFor()
    await check(page, 'bookings-cancelled')
    await expect.poll(() => smtp.received.slice(before).filter((mail) => mail.envelopeTo.includes('gina@example.org')).length,
      { timeout: 10_000, interval: 100 }).toBe(1)
    const mail = smtp.received.slice(before).find((received) => received.envelopeTo.includes('gina@example.org'))
    expect(mail?.parsed.subject).toMatch(/^Booking cancelled: Court 3 \(floodlit\)/)
    expect(mail?.parsed.text).toContain('The court is flooded after the storm.')
    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { start_time: string, status: string }[] }).courts
    expect(slots.find((slot) => Date.parse(slot.start_time) === start)?.status).toBe('available')
  })

  it('edits a court\'s opening hours, asked first about a booking they displace, and adds a weekly reservation on the week view', async () => {
    const { page } = owner
    // A Wednesday, for a reservation on the week view; the court is about to close on a day that is neither this one nor today
    // (the Website page's preview of the widget shows today's slots).
    const date = upcoming('wed', 2)
    const closed = (['sun', 'sat'] as const).find((day) => day !== WEEKDAYS[isoWeekday(testToday()) - 1]) ?? 'sun'
    const dayName = (day: Weekday) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' })
      .format(new Date(`${upcoming(day, 0)}T12:00:00Z`))
    const openDays = WEEKDAYS.filter((day) => day !== closed)
      .map((day) => day.charAt(0).toUpperCase() + day.slice(1)).join(', ')
    const early = localToInstant(date, 7 * 60, 'Europe/Berlin')
    const booked = await fetch(`${suite.origin}/api/v1/public/riverside/courts/book`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.allDay,
        start_time: new Date(early).toISOString(), end_time: new Date(early + 3_600_000).toISOString(),
        booker_name: 'Eddie Early', booker_email: 'eddie@example.org' }) })
    expect(booked.status).toBe(201)

    await page.getByRole('link', { name: 'Courts' }).click()
    await page.getByRole('heading', { name: 'Courts', level: 1 }).waitFor()
    // Saved as it is, a court open until midnight stays so (a time field shows 24:00 as 00:00).
    await page.getByRole('button', { name: 'Edit: Court 3 (floodlit)' }).click()
    expect(await page.getByLabel('To: Sunday').inputValue()).toBe('00:00')
    await page.getByRole('button', { name: 'Save court' }).click()
    await page.getByText('Court "Court 3 (floodlit)" saved.').waitFor()
    await page.getByRole('cell', { name: 'Daily 00:00–24:00' }).waitFor()
    await page.getByRole('button', { name: 'Edit: Court 3 (floodlit)' }).click()
    await page.getByLabel('From: Monday').fill('08:00')
    await page.getByLabel('To: Monday').fill('22:00')
    await page.getByRole('button', { name: 'Use Monday\'s hours every day' }).click()
    await page.getByLabel(`Open: ${dayName(closed)}`).uncheck()
    await check(page, 'courts-edit')
    await page.getByRole('button', { name: 'Save court' }).click()
    // Nothing changes until the person decides about the booking in the way.
    await page.getByRole('heading', { name: 'An upcoming booking is in the way' }).waitFor()
    await page.getByText('Eddie Early').waitFor()
    await check(page, 'courts-displaced')
    const hoursNow = async () => {
      const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
      return (await listing.json() as { courts: { start_time: string }[] }).courts.map((slot) => Date.parse(slot.start_time))
    }
    expect(await hoursNow()).toContain(early)
    const before = smtp.received.length
    // The guests read why: a reason is asked before anything is cancelled.
    await page.getByRole('button', { name: 'Cancel the booking and save' }).click()
    expect(await page.getByLabel('Reason (in the mails to the guests)').evaluate((field) => (field as HTMLTextAreaElement)
      .validity.valueMissing)).toBe(true)
    await page.getByLabel('Reason (in the mails to the guests)').fill('The courts now open at 8 for the groundskeeper.')
    await page.getByRole('button', { name: 'Cancel the booking and save' }).click()
    await page.getByRole('cell', { name: `${openDays} 08:00–22:00` }).waitFor()
    await page.getByRole('status').getByText('Court "Court 3 (floodlit)" saved. 1 booking cancelled, the guest mailed.').waitFor()
    expect(await hoursNow()).not.toContain(early)
    await expect.poll(() => smtp.received.slice(before).filter((mail) => mail.envelopeTo.includes('eddie@example.org')).length,
      { timeout: 10_000, interval: 100 }).toBe(1)
    expect(smtp.received.slice(before).find((mail) => mail.envelopeTo.includes('eddie@example.org')
      && (mail.parsed.subject ?? '').startsWith('Booking cancelled'))?.parsed.text).toContain('The courts now open at 8 for the groundskeeper.')

    await page.getByRole('button', { name: 'Week and holds: Court 3 (floodlit)' }).click()
    await page.getByRole('heading', { name: 'Week of Court 3 (floodlit)' }).waitFor()
    await page.getByLabel('A day of the week shown').fill(date)
    await page.getByLabel('A day of the week shown').dispatchEvent('change')
    const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
    await page.getByRole('button', { name: 'Add a block or reservation' }).click()
    await page.getByLabel('Day', { exact: true }).selectOption({ label: weekday })
    await page.getByLabel('From', { exact: true }).fill('18:00')
    await page.getByLabel('To', { exact: true }).fill('20:00')
    await page.getByLabel('Reason (for the club only)').fill('Team training')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Reservation saved.').waitFor()
    await page.getByRole('cell', { name: `Every ${weekday} 18:00–20:00`, exact: true }).waitFor()
    expect(await page.getByRole('cell', { name: 'Reserved', exact: true }).count()).toBe(2)
    await check(page, 'courts-week')
    // On a phone the week scrolls sideways: its region takes the keyboard's focus, and the arrow keys scroll it.
    await page.setViewportSize(PHONE)
    violations.push(...await seriousViolations(page, 'courts-week (phone)'))
    const region = page.getByRole('region', { name: 'Week of Court 3 (floodlit), scrollable' })
    await region.focus()
    expect(await region.evaluate((node) => node === document.activeElement && node.scrollWidth > node.clientWidth)).toBe(true)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => region.evaluate((node) => node.scrollLeft)).toBeGreaterThan(0)
    await page.setViewportSize(DESKTOP)
    const listing = await fetch(`${suite.origin}/api/v1/public/riverside/courts?date=${date}`)
    const slots = (await listing.json() as { courts: { start_time: string, status: string }[] }).courts
    expect(slots.filter((slot) => slot.status === 'reserved').map((slot) => Date.parse(slot.start_time)))
      .toEqual([18, 19].map((hour) => localToInstant(date, hour * 60, 'Europe/Berlin')))
  })

  it('shows the website snippets with the club filled in, a live preview of the widget, and keeps the club\'s websites', async () => {
    const { page } = owner
    await page.getByRole('link', { name: 'Website' }).click()
    await page.getByRole('heading', { name: 'Booking on your website', level: 1 }).waitFor()
    const widgetSnippet = page.getByRole('region', { name: 'Widget snippet' }).locator('pre').first()
    await expect.poll(() => widgetSnippet.textContent()).toContain(`<script type="module" src="${suite.origin}/widget/v1/club-booking.js">`)
    // No language fixed by default: each guest's browser decides; the element's content links the hosted page for browsers
    // without JavaScript.
    expect(await widgetSnippet.textContent()).toContain('<club-booking club="riverside" style="')
    expect(await widgetSnippet.textContent()).toContain(`  <a href="${suite.origin}/book/riverside">Book a court</a>\n</club-booking>`)
    const frameSnippet = page.getByRole('region', { name: 'Hosted booking page in an iframe' }).locator('pre').first()
    expect(await frameSnippet.textContent()).toContain(`<iframe id="club-booking" src="${suite.origin}/book/riverside" `)
    expect(await frameSnippet.textContent()).toContain('club-booking:show')
    // All six languages can be fixed for a page in one of them.
    const language = page.locator('#theme-language')
    expect(await language.locator('option').allTextContents()).toEqual(['The guest\'s own (recommended)', 'English', 'Deutsch',
      'Français', 'Español', 'Italiano', 'Nederlands'])
    await language.selectOption('fr')
    await expect.poll(() => widgetSnippet.textContent()).toContain('<club-booking club="riverside" lang="fr" style="')
    expect(await widgetSnippet.textContent()).toContain(`<a href="${suite.origin}/book/riverside?lang=fr">`)
    expect(await frameSnippet.textContent()).toContain(`src="${suite.origin}/book/riverside?lang=fr"`)
    // The preview is the real widget, with the club's court.
    await page.getByRole('button', { name: /^Court 3 \(floodlit\), \d\d:\d\d–\d\d:\d\d: / }).first().waitFor()
    await page.getByLabel('Accent colour').fill('#aa3300')
    expect(await widgetSnippet.textContent()).toContain('--club-booking-accent: #aa3300')
    await page.getByLabel('The club\'s websites (one address per line)').fill('ftp://files.example')
    await page.getByRole('button', { name: 'Save websites' }).click()
    // What the person typed is refused at the field, in the service's plain words.
    await page.locator('#websites-error').getByText('"ftp://files.example" is not an http or https address.').waitFor()
    // The field is marked wrong (and takes the focus) once the page has drawn the message.
    await expect.poll(() => page.getByLabel('The club\'s websites (one address per line)').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('The club\'s websites (one address per line)').fill('https://*.example')
    await page.getByRole('button', { name: 'Save websites' }).click()
    await page.locator('#websites-error').getByText('wildcards').waitFor()
    await page.getByLabel('The club\'s websites (one address per line)').fill('https://WWW.tc-riverside.example/\nhttp://localhost:8080')
    await page.getByRole('button', { name: 'Save websites' }).click()
    await page.getByText('Websites saved.').waitFor()
    expect(await page.getByLabel('The club\'s websites (one address per line)').inputValue())
      .toBe('https://www.tc-riverside.example\nhttp://localhost:8080')
    const hosted = await fetch(`${suite.origin}/book/riverside`)
    expect(hosted.headers.get('content-security-policy')).toContain('frame-ancestors \'self\' https://www.tc-riverside.example http://localhost:8080')
    await check(page, 'website')
  })

  it('makes a private calendar feed of the bookings, shows its address once, and revokes it; the events feed is there to copy',
    async () => {
      const { page } = owner
      const feeds = page.getByRole('region', { name: 'Calendar feeds' })
      await feeds.waitFor()
      const events = feeds.locator('pre').first()
      await expect.poll(() => events.textContent()).toMatch(/^webcal:\/\/.*\/calendar\/riverside\/events\.ics$/)
      const eventsFeed = await fetch((await events.textContent() ?? '').replace(/^webcal:/, new URL(suite.origin).protocol))
      expect([eventsFeed.status, eventsFeed.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8'])
      await page.locator('#feed-name').fill('Office calendar')
      await page.getByLabel('Show the booker\'s name in each event').check()
      await page.getByRole('button', { name: 'Make a feed' }).click()
      const address = page.getByTestId('new-feed')
      await address.waitFor()
      const url = (await address.textContent() ?? '').replace(/^webcal:/, new URL(suite.origin).protocol)
      expect(url).toMatch(/\/calendar\/cpf_[A-Za-z0-9_-]{43}\.ics$/)
      const feed = await fetch(url)
      expect([feed.status, (await feed.text()).startsWith('BEGIN:VCALENDAR')]).toEqual([200, true])
      await page.getByRole('row', { name: /Office calendar shown .* active/ }).waitFor()
      await check(page, 'calendar-feeds')
      await page.getByRole('button', { name: 'I have added it' }).click()
      expect(await address.count()).toBe(0)
      await page.getByRole('button', { name: 'Revoke: Office calendar' }).click()
      await page.getByRole('button', { name: 'Revoke feed' }).click()
      await page.getByRole('row', { name: /Office calendar shown .* revoked/ }).waitFor()
      expect((await fetch(url)).status).toBe(404)
    })

  it('shows the courts\' utilisation: a heat map and bookings per week, each with its data table and CSV', async () => {
    const { page } = owner
    const charts: string[] = []
    const errors: string[] = []
    page.on('pageerror', (error) => {
      errors.push(error.message)
    })
    page.on('request', (request) => {
      if (/\/dashboard\/assets\/charts-[^/]+\.js$/.test(request.url())) charts.push(request.url())
    })
    await page.getByRole('link', { name: 'Utilisation' }).click()
    await page.getByRole('heading', { name: 'Utilisation', level: 1 }).waitFor()
    // The chart code comes with the page, from the service.
    await expect.poll(() => charts.length).toBe(1)
    const heat = page.getByRole('img', { name: /^Heat map of the booked share by weekday and hour/ })
    await heat.waitFor()
    await page.getByRole('img', { name: /^Bar chart of the bookings per week: \d+ bookings in 1[23] weeks/ }).waitFor()
    // Drawn: the canvases hold pixels.
    await expect.poll(() => page.locator('canvas').evaluateAll((canvases) => canvases.map((canvas) => {
      const element = canvas as HTMLCanvasElement
      const blank = document.createElement('canvas')
      blank.width = element.width
      blank.height = element.height
      return element.width > 0 && element.toDataURL() !== blank.toDataURL()
    }))).toEqual([true, true])
    await page.getByRole('heading', { name: 'Busiest and emptiest hours' }).waitFor()
    for (const summary of await page.getByText('Data table').all()) await summary.click()
    await page.getByRole('table', { name: 'Booked share by weekday and hour' }).getByRole('cell', { name: /%$/ }).first().waitFor()
    const weeks = page.getByRole('table', { name: 'Bookings per week' })
    expect(await weeks.getByRole('row').count()).toBeGreaterThan(12)
    const csv = await page.getByRole('link', { name: 'Download CSV' }).last().getAttribute('href') ?? ''
    expect(decodeURIComponent(csv.replace(/^data:text\/csv;charset=utf-8,/, ''))).toMatch(/^week_start,bookings,cancelled_by_guest,/)
    await check(page, 'utilisation')
    expect(errors).toEqual([])
    // One court alone (the club's only court here): the same figures, drawn again.
    await page.getByLabel('Court', { exact: true }).selectOption({ index: 1 })
    await page.getByRole('button', { name: 'Show' }).click()
    await heat.waitFor()
    expect(errors).toEqual([])
  })

  it('adds a passkey on the account page, signs out, and signs in with the passkey', async () => {
    const { page } = owner
    // Chromium's virtual authenticator stands in for the person's fingerprint reader.
    const cdp = await owner.context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true,
      hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } })
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor()
    await page.getByLabel('Name of the new passkey').fill('laptop')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Passkey added.').waitFor()
    await page.getByRole('button', { name: 'Remove: laptop' }).waitFor()
    await check(page, 'account')
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect((await fetch(`${suite.origin}/api/admin/v1/me`, { headers: { cookie: (await owner.context.cookies())
      .map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') } })).status).toBe(401)
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.getByRole('heading', { name: 'Developer access' }).waitFor()
    const sessions = await page.evaluate(async () => (await fetch('/api/admin/v1/me/sessions')).json() as Promise<unknown>)
    expect((sessions as { items: { method: string, current: boolean }[] }).items.find((session) => session.current)?.method)
      .toBe('passkey')
  })

  it('signs in again with an e-mail link, in German when the person chooses it', async () => {
    const { page } = await newPage()
    await page.goto(`${suite.origin}/dashboard/`)
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await check(page, 'sign-in')
    await page.getByRole('button', { name: 'Deutsch' }).click()
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('de')
    const before = smtp.received.length
    await page.getByLabel('E-Mail-Adresse').fill('olivia@example.org')
    await page.getByRole('button', { name: 'Anmeldelink senden' }).click()
    await page.getByText('ist ein Anmeldelink unterwegs').waitFor()
    await page.goto(await linkMailedTo('olivia@example.org', before))
    // The link's page says whom it signs in, and where, before it is used.
    await page.getByText('Dieser Link meldet olivia@example.org an.').waitFor()
    await page.getByText('Sie verwalten: TC Riverside.').waitFor()
    await check(page, 'sign-in-link-de')
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await page.getByRole('heading', { name: 'Entwicklerzugang' }).waitFor()
    await check(page, 'developer-access-de')
    await page.context().close()
    await owner.context.close()
  })

  it('loaded nothing from elsewhere, asked for nothing the service lacks, and no page has serious or critical accessibility '
    + 'violations', async () => {
    expect(foreign).toEqual([])
    expect(missing).toEqual([])
    const icon = await fetch(`${suite.origin}/favicon.ico`)
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/x-icon'])
    expect(violations).toEqual([])
  })
})
