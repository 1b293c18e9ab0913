/**
 * The dashboard as the build leaves it: its typed client matches the server's dashboard API, its
 * JavaScript fits the first-load budget, and the server serves it with the headers it needs.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { DASHBOARD_DIR } from '../../src/http/dashboard-app.js'
import { startHarness } from '../helpers/harness.js'

const run = promisify(execFile)
/** The first load's compressed JavaScript and CSS may not exceed this (docs/dashboard.md, "The web app"). */
const BUDGET_BYTES = 150 * 1024

describe('the dashboard build', () => {
  it('has typed client types that match the server\'s dashboard API description', async () => {
    const checked = await run(process.execPath, ['scripts/generate-clients.js', '--check']).catch((error: unknown) => error)
    expect(checked, JSON.stringify(checked)).toMatchObject({ stderr: '' })
  }, 60_000)

  it('loads at most 150 kB of gzip-compressed JavaScript and CSS on first load', async () => {
    const html = await fs.readFile(path.join(DASHBOARD_DIR, 'index.html'), 'utf8')
    const scripts = [...html.matchAll(/<script[^>]+src="\/dashboard\/assets\/([^"]+)"/g)].map((match) => match[1] ?? '')
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]+href="\/dashboard\/assets\/([^"]+)"/g)].map((match) => match[1] ?? '')
    const styles = [...html.matchAll(/<link rel="stylesheet"[^>]+href="\/dashboard\/assets\/([^"]+)"/g)].map((match) => match[1] ?? '')
    expect(scripts.length).toBeGreaterThan(0)
    expect(styles.length).toBeGreaterThan(0)
    let total = 0
    for (const file of [...scripts, ...preloads, ...styles]) {
      total += zlib.gzipSync(await fs.readFile(path.join(DASHBOARD_DIR, 'assets', file))).length
    }
    console.info(`dashboard first load: ${(total / 1024).toFixed(1)} kB of gzip'd JavaScript and CSS (budget 150 kB)`)
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it('is served under /dashboard: the page for every app path, long-cached assets, no foreign code, never framed', async () => {
    const h = await startHarness('sqlite')
    try {
      for (const url of ['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/clubs/x/developer-access']) {
        const page = await h.app.inject({ url })
        expect(page.statusCode, url).toBe(200)
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
        expect(page.headers['content-security-policy']).toContain('script-src \'self\'')
        expect(page.headers['content-security-policy']).toContain('frame-ancestors \'none\'')
        expect(page.headers['referrer-policy']).toBe('no-referrer')
        expect(page.headers['x-content-type-options']).toBe('nosniff')
      }
      const html = (await h.app.inject({ url: '/dashboard/' })).body
      expect(html).not.toMatch(/<script>(?!<\/script>)|https?:\/\//)
      const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? ''
      const script = await h.app.inject({ url: asset, headers: { 'accept-encoding': 'gzip, br' } })
      expect(script.statusCode).toBe(200)
      expect(script.headers['content-encoding']).toBe('br')
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
      const missing = await h.app.inject({ url: '/dashboard/assets/nothing.js' })
      expect(missing.statusCode).toBe(404)
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/)
    } finally {
      await h.close()
    }
  })
})
