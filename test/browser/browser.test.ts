/**
 * A club website in a real browser: a page on another origin lists the courts and books a slot
 * through CORS (the booking request needs a preflight), and cannot read /api/v1/groups.
 * Debian's Chromium, driven by playwright-core; skipped loudly where it is not installed, and a
 * failure under CLUB_PLATFORM_REQUIRE_SERVICES=1.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium } from '../helpers/browser.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const available = chromiumAvailable('the browser test')

const PAGE = `<!doctype html><html><body><h1>Book a court</h1><ul id="slots"></ul><p id="result"></p>
<script>
window.run = async (api, key, courtA, day) => {
  const out = {}
  const list = await (await fetch(api + '/api/v1/public/riverside/courts?date=' + day)).json()
  const ul = document.getElementById('slots')
  for (const slot of list.courts) {
    const li = document.createElement('li')
    li.textContent = slot.court_name + ' ' + slot.start_time.slice(11, 16) + ' ' + slot.status
    ul.appendChild(li)
  }
  const free = list.courts.find((s) => s.court_id === courtA && s.status === 'available')
  const res = await fetch(api + '/api/v1/public/riverside/courts/book', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'browser-' + free.start_time },
    body: JSON.stringify({ court_id: courtA, start_time: free.start_time, end_time: free.end_time,
      booker_name: 'Browser Guest', booker_email: 'browser@example.org' }),
  })
  out.bookStatus = res.status
  out.booking = await res.json()
  out.requestId = res.headers.get('X-Request-Id')
  out.booked = free.start_time
  document.getElementById('result').textContent = 'Booked: ' + out.booking.booking_id
  try {
    const groups = await fetch(api + '/api/v1/groups', { headers: { Authorization: 'Bearer ' + key } })
    out.groups = 'readable ' + groups.status
  } catch (error) {
    out.groups = 'blocked'
  }
  try {
    await fetch(api + '/api/v1/groups')
    out.simpleGroups = 'readable'
  } catch (error) {
    out.simpleGroups = 'blocked'
  }
  return out
}
</script></body></html>`

describe.skipIf(!available)('a club website in a real browser', () => {
  let h: Harness & { close(): Promise<void> }
  let page: http.Server
  let browser: Browser
  let api = ''
  let site = ''
  let key = ''
  const seen: string[] = []

  beforeAll(async () => {
    h = await startHarness('sqlite')
    const { clubId } = await setUpCourts(h, 'riverside')
    key = (await h.createKey(clubId)).key
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    h.app.server.on('request', (request: http.IncomingMessage) => seen.push(`${request.method ?? ''} ${request.url ?? ''}`))
    api = `http://127.0.0.1:${String((h.app.server.address() as AddressInfo).port)}`
    page = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
    })
    await new Promise<void>((resolve) => page.listen(0, 'localhost', resolve))
    site = `http://localhost:${String((page.address() as AddressInfo).port)}`
    browser = await launchChromium(['--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-gpu'])
  }, 60_000)

  afterAll(async () => {
    await browser.close()
    await new Promise((resolve) => page.close(resolve))
    await h.close()
  })

  it('lists the courts and books a slot through CORS, and cannot read the authenticated API', async () => {
    const tab = await browser.newPage()
    await tab.goto(site)
    type Run = (...args: string[]) => Promise<Record<string, unknown>>
    const out = await tab.evaluate(async ([apiBase, apiKey, court, day]) =>
      (globalThis as unknown as { run: Run }).run(apiBase, apiKey, court, day), [api, key, COURT.a, TUESDAY] as const)
    expect(await tab.locator('#slots li').count()).toBeGreaterThan(20)
    expect(await tab.locator('#slots li').first().textContent()).toMatch(/^Court A 08:00 available$/)
    expect(out.bookStatus).toBe(201)
    expect(out.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await tab.locator('#result').textContent()).toContain((out.booking as { booking_id: string }).booking_id)
    // The booking request carries a JSON body and Idempotency-Key: the browser asked first.
    expect(seen).toContain('OPTIONS /api/v1/public/riverside/courts/book')
    expect(seen).toContain('POST /api/v1/public/riverside/courts/book')
    expect(out.groups).toBe('blocked')
    expect(out.simpleGroups).toBe('blocked')
    const stored = await h.context.db.selectFrom('bookings').select('booker_email').where('booker_email', '=', 'browser@example.org')
      .execute()
    expect(stored).toHaveLength(1)
  })
})
