/**
 * What the browser tests share: Debian's Chromium (never a downloaded browser) driven by
 * playwright-core, the two widths the screenshots are taken at, and axe-core run on a page as it is.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
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
export async function screenshots(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP
  await page.setViewportSize(DESKTOP)
  await page.screenshot({ path: `docs/screenshots/${name}-desktop.png`, fullPage: true })
  await page.setViewportSize(PHONE)
  await page.screenshot({ path: `docs/screenshots/${name}-phone.png`, fullPage: true })
  await page.setViewportSize(viewport)
}
