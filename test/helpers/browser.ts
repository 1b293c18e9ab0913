/**
 * What the browser tests share: Debian's Chromium (never a downloaded browser) driven by
 * playwright-core, the real server process on each database with the browser that drives it
 * (`describeInBrowser`, `useBrowserSuite`), the two widths the screenshots are taken at, and axe-core
 * run on a page as it is.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, inject } from 'vitest'
import type { AppContext } from '../../src/context.js'
import type { DialectName } from '../../src/db/dialect.js'
import { freePort } from '../../src/tools/free-port.js'
import { openContext } from './context.js'
import { DIALECTS, createTestDatabase } from './databases.js'
import type { TestDatabase } from './databases.js'
import { startServer, stopServer } from './server-process.js'
import type { StartedServer } from './server-process.js'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const DESKTOP = { width: 1280, height: 860 }
export const PHONE = { width: 390, height: 844 }
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeResult { violations: { id: string, impact: string | null, help: string, nodes: { target: string[] }[] }[] }

/**
 * Whether Chromium is there. Without it a browser suite skips with a loud warning, or fails at once
 * when CLUB_PLATFORM_REQUIRE_SERVICES=1 (CI).
 */
export function chromiumAvailable(suite: string): boolean {
  if (fs.existsSync(CHROMIUM)) return true
  if (process.env.CLUB_PLATFORM_REQUIRE_SERVICES === '1') throw new Error(`Chromium is required but not found at ${CHROMIUM}`)
  console.warn(`\n!!! Chromium not found at ${CHROMIUM}: ${suite} is SKIPPED (apt-get install chromium).\n`)
  return false
}

/** Chromium without its sandbox (a container has none to give), with `args` after that. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...args] })
}

/**
 * Declares a browser suite once per database, as `<title> [<dialect>]`; skipped where Chromium is missing (see
 * `chromiumAvailable`, which names the suite as `suite`) or PostgreSQL is unreachable.
 */
export function describeInBrowser(title: string, suite: string, body: (dialect: DialectName) => void): void {
  const available = chromiumAvailable(suite)
  for (const dialect of DIALECTS) {
    const databaseAvailable = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
    describe.skipIf(!available || !databaseAvailable)(`${title} [${dialect}]`, () => {
      body(dialect)
    })
  }
}

/** The real server (dist/server.js) on a database of its own, and the browser the suite drives it with. */
export interface BrowserSuite {
  readonly database: TestDatabase
  /** Where the server answers: `http://localhost:<port>`, a name, not an address (WebAuthn's relying party id must be a domain). */
  readonly origin: string
  /** The server's settings but its port: the command line's (test/helpers/cli.ts) against the same database. */
  readonly env: Record<string, string>
  readonly server: StartedServer
  readonly browser: Browser
}

export interface BrowserSuiteOptions {
  /** Starts what the server talks to (an SMTP server, a webhook receiver), before anything else. */
  readonly start?: () => Promise<void>
  /** Settings beyond the database's and PUBLIC_URL, asked once `start` has run. */
  readonly env?: () => Record<string, string>
  /** Fills the migrated database on a context of its own (closed afterwards), before the server starts. */
  readonly seed?: (context: AppContext, origin: string) => Promise<void>
  /** Stops what `start` and `seed` started, after the browser and the server, before the database is dropped. */
  readonly stop?: () => Promise<void>
}

/**
 * Before the suite: `start`, a fresh database, the server's port and origin, the migrated database seeded, the
 * server on its port and Chromium. After it: the browser closed, the server stopped (SIGTERM), `stop`, the
 * database dropped. The fields are there from the suite's first test on.
 */
export function useBrowserSuite(dialect: DialectName, options: BrowserSuiteOptions = {}): BrowserSuite {
  const suite = {} as { -readonly [K in keyof BrowserSuite]: BrowserSuite[K] }
  beforeAll(async () => {
    await options.start?.()
    suite.database = await createTestDatabase(dialect)
    const port = await freePort()
    suite.origin = `http://localhost:${String(port)}`
    suite.env = { ...suite.database.env, ...(dialect === 'sqlite' ? { DATABASE_URL: '' } : {}), ...options.env?.(),
      PUBLIC_URL: suite.origin }
    const context = await openContext(suite.database, { migrate: true })
    await options.seed?.(context, suite.origin)
    await context.close()
    suite.server = await startServer({ ...suite.env, PORT: String(port) })
    suite.browser = await launchChromium()
  })
  afterAll(async () => {
    await suite.browser.close()
    await stopServer(suite.server)
    await options.stop?.()
    await suite.database.drop()
  })
  return suite
}

/**
 * axe-core's serious and critical violations on the page as it is, each as one line naming the
 * page. The instrument is evaluated by the browser's driver, so a page's policy need not admit it.
 */
export async function seriousViolations(page: Page, name: string): Promise<string[]> {
  await page.evaluate(AXE)
  const result = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run())
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${name} ${violation.impact ?? ''} ${violation.id}: ${violation.help} (${violation.nodes.slice(0, 3)
      .map((node) => node.target.join(' ')).join(' | ')})`)
}

/** docs/screenshots/<name>-desktop.png and -phone.png, whole page; the page keeps its width. */
/** `screen`: what the screen shows (a dialog, a button fixed at its corner) rather than the whole page. */
export async function screenshots(page: Page, name: string, options: { readonly screen?: boolean } = {}): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP
  const fullPage = options.screen !== true
  await page.setViewportSize(DESKTOP)
  await page.screenshot({ path: `docs/screenshots/${name}-desktop.png`, fullPage })
  await page.setViewportSize(PHONE)
  await page.screenshot({ path: `docs/screenshots/${name}-phone.png`, fullPage })
  await page.setViewportSize(viewport)
}

/** A club's own website: pages on an origin of their own, served as given. */
export async function startSite(pages: Record<string, string>): Promise<{ origin: string, close(): Promise<void> }> {
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

/**
 * A club website's page that frames the hosted booking page (`path` of `service`) as docs/integration.md says: the
 * frame takes the height the page tells it, and the page scrolls to what the framed page says its guest must see.
 */
export function framePage(service: string, path: string, id: string, before = ''): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Book</title></head><body>'
    + `${before}<iframe id="${id}" src="${service}${path}" title="Book a court" style="width:100%;border:0;height:150px"></iframe>`
    + '<script>addEventListener("message", (event) => { if (event.origin !== ' + JSON.stringify(service) + ') return; '
    + `const frame = document.getElementById(${JSON.stringify(id)}); `
    + 'if (event.data && event.data.type === "club-booking:height") frame.style.height = event.data.height + "px"; '
    + 'if (event.data && event.data.type === "club-booking:show") { const top = frame.getBoundingClientRect().top; '
    + 'const below = top + event.data.bottom - innerHeight + 16, above = top + event.data.top - 16; '
    + 'if (below > 0) scrollBy({ top: Math.min(below, above) }); else if (above < 0) scrollBy({ top: above }) } })'
    + '</script></body></html>'
}
