/**
 * Webhooks as a club administrator sets them up, in Debian's Chromium against the real server
 * process, on SQLite and on PostgreSQL: on Developer access an admin adds an endpoint (a receiver
 * on loopback, allowed by the operator setting), stores the secret shown once, sends a test event,
 * sees it delivered in the endpoint's log, and replays it; the receiver verifies both deliveries
 * with the `standardwebhooks` package and gets the same webhook-id twice. axe-core on each state;
 * screenshots (desktop and phone) in docs/screenshots/.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { createClub } from '../../src/services/clubs.js'
import { DESKTOP, describeInBrowser, screenshots, seriousViolations, useBrowserSuite } from '../helpers/browser.js'
import { cli } from '../helpers/cli.js'
import { WebhookReceiver } from '../helpers/webhook-receiver.js'
import { onRealDay, useTestClock } from '../helpers/today.js'

describeInBrowser('webhooks in a browser', 'the webhooks browser test', (dialect) => {
  const receiver = new WebhookReceiver()
  let page: Page
  const violations: string[] = []
  const suite = useBrowserSuite(dialect, {
    start: () => receiver.start(),
    env: () => ({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' }),
    seed: async (context) => {
      await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: 'Europe/Berlin' })
    },
    stop: () => receiver.stop(),
  })

  const check = async (name: string) => {
    violations.push(...await seriousViolations(page, name))
    if (dialect === 'sqlite' && onRealDay()) await screenshots(page, `dashboard-webhooks-${name}`)
  }

  it('adds an endpoint, sends a test event, sees it in the delivery log and replays it', async () => {
    const made = await cli(suite.env, ['admins', 'invite', '--club', 'riverside', '--email', 'adam@example.org', '--role', 'admin', '--json'])
    expect(made.code, made.stderr).toBe(0)
    const context = await suite.browser.newContext({ viewport: DESKTOP, locale: 'en-GB' })
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
