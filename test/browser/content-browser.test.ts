/**
 * The club's content as an editor keeps it, in Debian's Chromium against the real server process,
 * on SQLite and on PostgreSQL: an editor invited from the command line writes a news item and
 * schedules another, releases an event for public booking, deactivates a training group, uploads a
 * results file (refused for its bad rows, then corrected); the read API shows each change. A
 * `<script>` typed into every text field is shown as text everywhere. The editor cannot open the
 * Developer access or Team pages; an owner downloads the club's data. Every page is checked with
 * axe-core and saved as screenshots (desktop and phone) in docs/screenshots/.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { DESKTOP, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { cli } from '../helpers/cli.js'
import { idFor } from '../helpers/fixtures.js'
import { LIST_SCOPES } from '../helpers/list-endpoints.js'
import { onRealDay, testToday, useTestClock } from '../helpers/today.js'

/** What a person might paste anywhere; the dashboard must show it as text and never run it. */
const SCRIPT = '<script>window.__injected = 1</script><img src=x onerror="window.__injected = 2">'
const GROUP = idFor('content-browser:group')
const EVENT = idFor('content-browser:event')

describeInBrowser('the club\'s content in a browser', 'the content browser test', (dialect) => {
  let key = ''
  let editor: { context: BrowserContext, page: Page }
  const violations: string[] = []
  const foreign: string[] = []
  const suite = useBrowserSuite(dialect, {
    seed: async (context) => {
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: 'Europe/Berlin' })
      await importClubData(context.db, context.clock, club.id, {
        members: [{ id: idFor('content-browser:anna'), name: 'Anna Alt', email: 'anna@example.org' },
          { id: idFor('content-browser:ben'), name: 'Ben Berg', email: 'ben@example.org' }],
        groups: [{ id: GROUP, name: 'Juniors', sport: 'tennis', age_min: 10, age_max: 14 }],
        events: [{ id: EVENT, title: 'Summer tournament', starts_at: '2027-07-03T09:00:00+02:00', location: 'Courts 1–4' }],
      })
      key = (await createApiKey(context.db, context.clock, { clubId: club.id, name: 'website', scopes: LIST_SCOPES,
        expiresAt: null })).key
    },
  })

  /** The read API as the club's website sees it. */
  const read = async (path: string) => {
    const response = await fetch(`${suite.origin}/api/v1/${path}`, { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: Record<string, unknown>[] }).data
  }

  /** Signs in from an invitation made on the command line, as the mailed link would. */
  const invited = async (email: string, role: string) => {
    const made = await cli(suite.env, ['admins', 'invite', '--club', 'riverside', '--email', email, '--role', role, '--json'])
    expect(made.code, made.stderr).toBe(0)
    const context = await suite.browser.newContext({ viewport: DESKTOP, locale: 'en-GB' })
    await useTestClock(context)
    // A step that waits longer than this has failed: its locator is named, instead of the test's time running out.
    context.setDefaultTimeout(8_000)
    const page = await context.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.origin) && !request.url().startsWith('data:')) foreign.push(request.url())
    })
    await page.goto(made.json<{ invitation_url: string }>().invitation_url)
    await page.getByRole('button', { name: 'Accept and sign in' }).click()
    await page.waitForURL(/\/dashboard\/clubs\/riverside\//)
    return { context, page }
  }

  /** axe-core, nothing injected ran, and screenshots at both widths (from the SQLite run). */
  const check = async (page: Page, name: string) => {
    violations.push(...await seriousViolations(page, name))
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined()
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, `dashboard-content-${name}`)
  }

  it('opens an editor\'s dashboard on the content, without the Developer access or Team pages', async () => {
    editor = await invited('eddie@example.org', 'editor')
    const { page } = editor
    await page.getByRole('heading', { name: 'Content', exact: true }).waitFor()
    expect(page.url()).toBe(`${suite.origin}/dashboard/clubs/riverside/content/news`)
    for (const name of ['Developer access', 'Team', 'Bookings', 'Courts', 'Website', 'Import and export']) {
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0)
    }
    for (const path of ['developer-access', 'team']) {
      await page.goto(`${suite.origin}/dashboard/clubs/riverside/${path}`)
      await page.getByRole('heading', { name: 'Not part of your role' }).waitFor()
      expect(await page.getByRole('button', { name: /Create key|Send invitation/ }).count()).toBe(0)
    }
    await check(page, 'beyond-role')
    const keys = await page.evaluate(async () => (await fetch('/api/admin/v1/clubs/riverside/api-keys')).status)
    expect(keys).toBe(403)
  })

  it('writes and publishes a news item, schedules another, and shows what was typed as text', async () => {
    const { page } = editor
    await page.getByRole('banner').getByRole('link', { name: 'Content', exact: true }).click()
    await page.getByLabel('Title').fill(`Club night ${SCRIPT}`)
    await page.getByLabel('Text').fill(`Friday at 7.\nBring friends. ${SCRIPT}`)
    await page.getByLabel('Author (a member, shown by the API as an id)').selectOption({ label: 'Anna Alt' })
    await page.getByRole('article', { name: 'Preview' }).getByText(`Bring friends. ${SCRIPT}`).waitFor()
    await page.getByLabel('Publish now').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`"Club night ${SCRIPT}" is published.`).waitFor()
    const news = await read('news')
    expect(news).toMatchObject([{ title: `Club night ${SCRIPT}`, content: `Friday at 7.\nBring friends. ${SCRIPT}`,
      created_by: idFor('content-browser:anna') }])

    const day = testToday(3)
    await page.getByLabel('Title').fill('Courts reopen')
    await page.getByLabel('Text').fill('The clay courts open on Saturday.')
    await page.getByLabel('Publish at a time').check()
    await page.getByLabel('Publish at (club time, Europe/Berlin)').fill(`${day}T09:00`)
    await page.getByRole('article', { name: 'Preview' }).getByText('The clay courts open on Saturday.').waitFor()
    await check(page, 'news')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('"Courts reopen" will be published on').waitFor()
    await page.getByText(/scheduled for/).waitFor()
    expect((await read('news')).map((item) => item.title)).toEqual([`Club night ${SCRIPT}`])
    // A scheduled item is stored at the instant the club's time names.
    const stored = await page.evaluate(async () => (await (await fetch('/api/admin/v1/clubs/riverside/news')).json()) as
        { items: { title: string, published_at: string | null }[] })
    expect(stored.items.find((item) => item.title === 'Courts reopen')?.published_at)
      .toBe(new Date(localToInstant(day, 9 * 60, 'Europe/Berlin')).toISOString())
  })

  it('releases an event for public booking; the API lists it, and says why the other is not listed', async () => {
    const { page } = editor
    await page.getByRole('link', { name: 'Events' }).click()
    await page.getByText('not listed: not released').waitFor()
    expect(await read('events')).toEqual([])
    await page.getByRole('button', { name: 'Edit: Summer tournament' }).click()
    await page.getByLabel('Location').fill(`Courts 1–4 ${SCRIPT}`)
    await page.getByLabel('Released for public booking').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('"Summer tournament" saved.').waitFor()
    expect(await read('events')).toEqual([{ id: EVENT, title: 'Summer tournament', starts_at: '2027-07-03T07:00:00.000Z',
      ends_at: null, location: `Courts 1–4 ${SCRIPT}` }])
    await page.getByLabel('Title').fill(`Juniors training camp ${SCRIPT}`)
    await page.getByLabel('Starts (club time, Europe/Berlin)').fill('2027-08-02T10:00')
    await page.getByLabel('Group').selectOption({ label: 'Juniors' })
    await page.getByLabel('Released for public booking').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('not listed: event of Juniors').waitFor()
    expect((await read('events')).map((event) => event.id)).toEqual([EVENT])
    await check(page, 'events')
  })

  it('deactivates a training group; the API stops listing it', async () => {
    const { page } = editor
    await page.getByRole('link', { name: 'Training groups' }).click()
    expect((await read('groups')).map((group) => group.id)).toEqual([GROUP])
    await page.getByRole('button', { name: 'Deactivate: Juniors' }).click()
    await page.getByText('"Juniors" is inactive and no longer listed.').waitFor()
    expect(await read('groups')).toEqual([])
    await page.getByLabel('Name', { exact: true }).fill(`Seniors ${SCRIPT}`)
    await page.getByLabel('Sport').fill('tennis')
    await page.getByLabel('Description').fill(`Tuesdays. ${SCRIPT}`)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`"Seniors ${SCRIPT}" saved.`).waitFor()
    expect(await read('groups')).toMatchObject([{ name: `Seniors ${SCRIPT}`, description: `Tuesdays. ${SCRIPT}` }])
    await check(page, 'groups')
  })

  it('adds a member, and uploads a results file that is refused for its bad rows, then imported corrected', async () => {
    const { page } = editor
    await page.getByRole('link', { name: 'Members' }).click()
    await page.getByLabel('Name', { exact: true }).fill(`Carla ${SCRIPT}`)
    await page.getByLabel('E-mail address').fill('carla@example.org')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`"Carla ${SCRIPT}" saved.`).waitFor()
    await check(page, 'members')
    // An address the club has already is refused at its field, in plain words, and nothing is saved.
    await page.getByLabel('Name', { exact: true }).fill('Carla again')
    await page.getByLabel('E-mail address').fill('Carla@Example.org')
    await page.getByRole('button', { name: 'Save' }).click()
    const field = page.getByLabel('E-mail address')
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#member-email-error').textContent()).toMatch(/^⚠? ?[A-Z]/)
    expect(await page.locator('#member-email-error').textContent()).toBe('Already the e-mail of another member of the club.')
    expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(0)
    await check(page, 'members-refused')
    await page.getByLabel('Name', { exact: true }).fill('')
    await page.getByLabel('E-mail address').fill('')

    await page.getByRole('link', { name: 'Results' }).click()
    const header = 'member;group;competition_name;discipline;placement;points;competition_date'
    const rows = ['anna@example.org;Juniors;Spring cup;singles;1;12,5;03.05.2027', 'ben@example.org;Juniors;Spring cup;singles;2;9;03.05.2027',
      'carla@example.org;Juniors;Spring cup;singles;3;7;03.05.2027']
    const bad = [header, rows[0], 'nobody@example.org;Juniors;Spring cup;singles;2;9;03.05.2027', rows[2]?.replace(';7;', ';seven;')]
    await page.getByLabel('Choose a CSV file').setInputFiles({ name: 'spring-cup.csv', mimeType: 'text/csv',
      buffer: Buffer.from(bad.join('\n')) })
    await page.getByRole('button', { name: 'Check the file' }).click()
    await page.getByText('These rows need a correction; nothing was saved:').waitFor()
    const problems = page.getByRole('table', { name: 'These rows need a correction; nothing was saved:' })
    await problems.getByRole('row', { name: /^3 member No member of the club has the e-mail address \(or id\) "nobody@example\.org"/ })
      .waitFor()
    await problems.getByRole('row', { name: /^4 points "seven" is not a number/ }).waitFor()
    // The file's problems are shown with the file, not as a fault of the service.
    expect(await page.getByRole('alert').count()).toBe(0)
    await check(page, 'results-refused')
    expect(await read('competition-results')).toEqual([])

    await page.getByLabel('or paste its text').fill([header, ...rows].join('\n'))
    await page.getByRole('button', { name: 'Check the file' }).click()
    await page.getByText('3 rows are ready to import').waitFor()
    await page.getByRole('button', { name: 'Import 3 results' }).click()
    await page.getByText('3 results imported.').waitFor()
    const results = await read('competition-results')
    // One date and one instant of recording: the API orders them by id, so compare by placement.
    expect(results.map((result) => [result.placement, result.points, result.competition_date])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([['1', 12.5, '2027-05-03'], ['2', 9, '2027-05-03'],
      ['3', 7, '2027-05-03']])
    await page.getByRole('button', { name: /^Edit: Spring cup, Carla/ }).click()
    await page.getByLabel('Competition').fill(`Spring cup ${SCRIPT}`)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`"Spring cup ${SCRIPT}" saved.`).waitFor()
    await check(page, 'results')
  })

  it('shows everything typed as text on every page, in German too', async () => {
    const { page } = editor
    for (const section of ['news', 'events', 'groups', 'results', 'members']) {
      await page.goto(`${suite.origin}/dashboard/clubs/riverside/content/${section}`)
      await page.getByRole('cell').filter({ hasText: SCRIPT }).first().waitFor()
      expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected), section).toBeUndefined()
      expect(await page.locator('main script, main img[src="x"]').count(), section).toBe(0)
    }
    await page.getByRole('button', { name: 'Deutsch' }).click()
    await page.goto(`${suite.origin}/dashboard/clubs/riverside/content/news`)
    await page.getByRole('heading', { name: 'Inhalte', exact: true }).waitFor()
    await check(page, 'news-de')
    await page.getByRole('button', { name: 'English' }).click()
    await editor.context.close()
  })

  it('lets an owner download the club\'s data as an import file', async () => {
    const owner = await invited('olivia@example.org', 'owner')
    const { page } = owner
    await page.goto(`${suite.origin}/dashboard/clubs/riverside/content/data`)
    await page.getByRole('heading', { name: 'Download the club\'s data' }).waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download (JSON)' }).click()])
    expect(download.suggestedFilename()).toMatch(/^riverside-\d{4}-\d{2}-\d{2}\.json$/)
    await page.getByLabel('Choose the file').setInputFiles({ name: 'broken.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ groups: [{ id: GROUP, name: '', sport: 'tennis' }] })) })
    await page.getByText(/groups\[0\]\.name/).waitFor()
    await check(page, 'data')
    await owner.context.close()
  })

  it('found no serious accessibility violations and loaded nothing from elsewhere', () => {
    expect(violations).toEqual([])
    expect(foreign).toEqual([])
  })
})
