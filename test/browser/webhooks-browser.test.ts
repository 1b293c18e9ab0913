/**
 * Webhooks as a club administrator sets them up, in Debian's Chromium against the real server
 * process, on SQLite and on PostgreSQL: on Developer access an admin adds an endpoint (a receiver
 * on loopback, allowed by the operator setting), stores the secret shown once, sends a test event,
 * sees it delivered in the endpoint's log, and replays it; the receiver verifies both deliveries
 * with the `standardwebhooks` package and gets the same webhook-id twice. axe-core on each state;
 * screenshots (desktop and phone) in docs/screenshots/.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createClub } from '../../src/services/clubs.js'
import { freePort } from '../../src/tools/free-port.js'
import { DESKTOP, chromiumAvailable, launchChromium, screenshots, seriousViolations } from '../helpers/browser.js'
import { cli } from '../helpers/cli.js'
import { openContext } from '../helpers/context.js'
import { DIALECTS, createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { exitOf, startServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { WebhookReceiver } from '../helpers/webhook-receiver.js'
import { onRealDay, useTestClock } from '../helpers/today.js'

const available = chromiumAvailable('the webhooks browser test')

for (const dialect of DIALECTS) {
  const databaseAvailable = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
  describe.skipIf(!available || !databaseAvailable)(`webhooks in a browser [${dialect}]`, () => {
    const receiver = new WebhookReceiver()
    let database: TestDatabase
    let server: StartedServer
    let browser: Browser
    let page: Page
    let env: Record<string, string> = {}
    const violations: string[] = []

    beforeAll(async () => {
      await receiver.start()
      database = await createTestDatabase(dialect)
      const port = await freePort()
      const origin = `http://localhost:${String(port)}`
      env = { ...database.env, ...(dialect === 'sqlite' ? { DATABASE_URL: '' } : {}), PUBLIC_URL: origin,
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' }
      const context = await openContext(database, { migrate: true })
      await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: 'Europe/Berlin' })
      await context.close()
      server = await startServer({ ...env, PORT: String(port) })
      browser = await launchChromium()
    })
    afterAll(async () => {
      await browser.close()
      const stopped = exitOf(server.child)
      server.child.kill('SIGTERM')
      await stopped
      await database.drop()
      await receiver.stop()
    })

    const check = async (name: string) => {
      violations.push(...await seriousViolations(page, name))
      if (dialect === 'sqlite' && onRealDay()) await screenshots(page, `dashboard-webhooks-${name}`)
    }

    it('adds an endpoint, sends a test event, sees it in the delivery log and replays it', async () => {
      const made = await cli(env, ['admins', 'invite', '--club', 'riverside', '--email', 'adam@example.org', '--role', 'admin', '--json'])
      expect(made.code, made.stderr).toBe(0)
      const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-GB' })
      await useTestClock(context)
      context.setDefaultTimeout(8_000)
      page = await context.newPage()
      await page.goto(made.json<{ invitation_url: string }>().invitation_url)
      await page.getByRole('button', { name: 'Accept and sign in' }).click()
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor()
      await page.getByText('No endpoints yet.').waitFor()

      await page.getByLabel('Endpoint URL').fill(receiver.url)
      await page.getByLabel('Description (optional)').fill('Club website')
      await page.getByRole('checkbox', { name: /news\.published/ }).check()
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      const secret = (await page.getByTestId('webhook-secret').textContent()) ?? ''
      expect(secret).toMatch(/^whsec_/)
      await check('secret')
      await page.getByRole('button', { name: 'I have stored the secret' }).click()
      const endpoint = page.getByRole('article', { name: receiver.url })
      await expect.poll(() => endpoint.textContent()).toContain('booking.created, booking.cancelled, news.published')

      await endpoint.getByRole('button', { name: 'Send test event' }).click()
      await page.getByRole('status').filter({ hasText: 'A test event is on its way' }).waitFor()
      const log = page.getByRole('region', { name: `Delivery log of ${receiver.url}` })
      await log.getByText('delivered', { exact: true }).waitFor()
      expect(receiver.received).toHaveLength(1)
      const [test] = receiver.received
      if (test === undefined) throw new Error('nothing received')
      expect(WebhookReceiver.verify(test, secret)).toMatchObject({ type: 'webhook.test' })
      await expect.poll(() => log.getByRole('row').count()).toBe(2)
      expect(await log.getByRole('row').nth(1).textContent()).toMatch(/webhook\.test.*\(test\).*delivered.*1.*204/)
      await check('log')

      await log.getByRole('button', { name: /^Replay: webhook\.test/ }).click()
      await expect.poll(() => log.getByRole('row').count()).toBe(3)
      await expect.poll(() => log.getByText('delivered', { exact: true }).count()).toBe(2)
      expect(await log.getByRole('row').nth(1).textContent()).toMatch(/webhook\.test.*\(replay\).*delivered/)
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[1]?.headers['webhook-id']).toBe(test.headers['webhook-id'])
      expect(WebhookReceiver.verify(receiver.received[1]!, secret)).toMatchObject({ type: 'webhook.test' })
      await check('replayed')
      expect(violations).toEqual([])
    })
  })
}
