/// <reference lib="dom" />
/**
 * The API reference in a real browser, as a club's web developer opens it: over plain HTTP, from
 * another machine's point of view (a non-loopback address of this one) and under a made-up host
 * name, where `upgrade-insecure-requests` would have the browser fetch its scripts over https.
 * Debian's Chromium, driven by playwright-core; skipped loudly where it is not installed, and a
 * failure under CLUB_PLATFORM_REQUIRE_SERVICES=1.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFERENCE_PAGE_TITLE } from '../../src/http/api-reference.js'
import { chromiumAvailable, launchChromium } from '../helpers/browser.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const available = chromiumAvailable('the API reference browser test')

const MAPPED_HOST = 'docs.club-platform.test'
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

/** A non-internal IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces()).flat()
    .find((info) => info !== undefined && info.family === 'IPv4' && !info.internal)?.address
}

const ADDRESS = externalAddress()
if (available && ADDRESS === undefined) {
  console.warn('\n!!! This machine has no non-loopback IPv4 address: the API reference is tested under a mapped host name only.\n')
}
/** Where the browser opens the page from: hosts that are not localhost, over plain HTTP. */
const HOSTS: (readonly [string, string])[] = [
  ...(ADDRESS === undefined ? [] : [['a non-loopback address of this machine', ADDRESS] as const]),
  ['a made-up host name mapped to 127.0.0.1', MAPPED_HOST] as const,
]

interface Visit {
  readonly page: Page
  /** Requests for anything but the page's own origin, blob: and data: URLs. */
  readonly foreign: string[]
  readonly failed: string[]
  readonly errors: string[]
  readonly violations: string[]
}

interface AxeResult { violations: { id: string, impact: string | null, help: string, nodes: { target: string[] }[] }[] }

describe.skipIf(!available)('the API reference in a browser', () => {
  let h: Harness & { close(): Promise<void> }
  let browser: Browser
  let port = 0
  let operationIds: string[] = []
  const originOf = (host: string) => `http://${host}:${String(port)}`

  beforeAll(async () => {
    h = await startHarness('sqlite')
    // All interfaces, as a server that others reach; the harness checks nothing here, the browser does.
    await h.app.listen({ port: 0, host: '0.0.0.0' })
    port = (h.app.server.address() as AddressInfo).port
    const document = (await h.request({ url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, { operationId: string }>> }>()
    operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId))
    browser = await launchChromium(['--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', `--host-resolver-rules=MAP ${MAPPED_HOST} 127.0.0.1`])
  }, 60_000)

  afterAll(async () => {
    await browser.close()
    await h.close()
  })

  async function open(origin: string, options: BrowserContextOptions = {}): Promise<Visit> {
    const context = await browser.newContext({ viewport: DESKTOP, ...options })
    const page = await context.newPage()
    const visit: Visit = { page, foreign: [], failed: [], errors: [], violations: [] }
    await page.addInitScript(() => {
      const seen: string[] = []
      Object.assign(globalThis, { cspViolations: seen })
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`)
      })
    })
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== origin) visit.foreign.push(url)
    })
    page.on('requestfailed', (request) => visit.failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`))
    page.on('response', (response) => {
      if (response.status() >= 400) visit.failed.push(`${response.url()} ${String(response.status())}`)
    })
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') visit.errors.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => visit.errors.push(`pageerror: ${error.message}`))
    const response = await page.goto(`${origin}/api/v1/docs`, { waitUntil: 'load' })
    expect(response?.status()).toBe(200)
    return visit
  }

  /** The operations Redoc rendered: it gives each an element with the id `operation/<operationId>`. */
  async function renderedOperations(page: Page): Promise<string[]> {
    return page.evaluate((ids) => ids.filter((id) => document.getElementById(`operation/${id}`) !== null), operationIds)
  }

  async function settle(visit: Visit): Promise<void> {
    await visit.page.waitForLoadState('networkidle')
    visit.violations.push(...await visit.page.evaluate(() =>
      (globalThis as unknown as { cspViolations: string[] }).cspViolations))
  }

  it.each(HOSTS)('renders every operation over plain HTTP from %s, loading nothing from elsewhere', async (what, host) => {
    const visit = await open(originOf(host))
    await settle(visit)
    expect(await visit.page.title(), what).toBe(REFERENCE_PAGE_TITLE)
    expect(operationIds.length).toBeGreaterThanOrEqual(9)
    expect(await renderedOperations(visit.page)).toEqual(operationIds)
    expect(visit.foreign, what).toEqual([])
    expect(visit.failed, what).toEqual([])
    expect(visit.errors, what).toEqual([])
    expect(visit.violations, what).toEqual([])
    // The scripts ran: search (in Redoc's worker) finds the booking operation.
    await visit.page.getByPlaceholder('Search...').fill('Book a court')
    await expect.poll(() => visit.page.locator('[data-role="search:results"] [role="menuitem"]').evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-item-id')))).toContain('tag/Courts-(public)/operation/bookCourt')
    expect(await visit.page.locator('a[href="/api/v1/openapi.json"]').count()).toBeGreaterThan(0)
    await visit.page.context().close()
  })

  it('shows every operation without JavaScript: the page is complete as it loads', async () => {
    const visit = await open(originOf(MAPPED_HOST), { javaScriptEnabled: false })
    expect(await visit.page.title()).toBe(REFERENCE_PAGE_TITLE)
    expect(await renderedOperations(visit.page)).toEqual(operationIds)
    expect(await visit.page.locator('text=Book a court').count()).toBeGreaterThan(0)
    expect(visit.foreign).toEqual([])
    expect(visit.failed).toEqual([])
    await visit.page.context().close()
  })

  it('has no serious or critical accessibility violations of its own (axe-core), and is saved as screenshots', async () => {
    const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
    const found: string[] = []
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      // The page's policy admits only its own scripts: the test's instrument gets in with the policy bypassed.
      const visit = await open(originOf(MAPPED_HOST), { viewport, bypassCSP: true })
      await settle(visit)
      await visit.page.screenshot({ path: `docs/screenshots/api-reference-${name}.png` })
      await visit.page.addScriptTag({ content: axeSource })
      const result = await visit.page.evaluate(async () =>
        (globalThis as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run())
      for (const violation of result.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue
        found.push(`${name} ${violation.impact} ${violation.id}: ${violation.help} (${String(violation.nodes.length)}×, e.g. `
          + `${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')})`)
      }
      await visit.page.context().close()
    }
    console.log(found.join('\n'))
    expect(found).toEqual([])
    // axe-core runs over the whole reference twice (desktop, phone): 50 s on a loaded two-core machine.
  }, 90_000)
})
