/**
 * The planner's event stream through real server processes (dist/server.js) over HTTP: an open
 * stream says `change` within seconds of a booking made elsewhere — through a second server
 * process on PostgreSQL, through another connection to the file on SQLite (as the command line
 * is) — and the planner's day then shows it with the guest's name and without the address; the
 * stream ends when its server stops, which does not wait for it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { COOKIE, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { testNow } from '../helpers/today.js'

const HOUR = 3_600_000
const SETTINGS = { BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '1000', PUBLIC_URL: `${ORIGIN}/` }

/** The text of an event stream as it arrives, and a wait for a line in it. */
function reading(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let ended = false
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    ended = true
  })().catch(() => {
    ended = true
  })
  return {
    get text() {
      return text
    },
    get ended() {
      return ended
    },
    /** Resolves when the stream holds `line` `count` times; fails after `ms`. */
    async until(line: string, count: number, ms: number): Promise<number> {
      const started = Date.now()
      while (text.split('\n').filter((entry) => entry === line).length < count) {
        if (Date.now() - started > ms) throw new Error(`no "${line}" (${String(count)}) within ${String(ms)} ms:\n${text}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      return Date.now() - started
    },
    pump,
  }
}

describeEachDatabase('the planner\'s event stream, through server processes', (dialect) => {
  let database: TestDatabase
  let h: Harness & { close(): Promise<void> }
  let servers: StartedServer[] = []
  let cookie = ''

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    h = await startHarness(dialect, { database, env: SETTINGS })
    const { clubId } = await setUpCourts(h, 'riverside')
    await h.createClub('hillside')
    h.clock.set(testNow())
    cookie = await signedIn(h, clubId, 'olivia@example.org', 'owner')
    // PostgreSQL: two processes, one booking and one watching. SQLite: one, the harness's connection booking beside it.
    servers = await Promise.all((dialect === 'postgres' ? [1, 2] : [1]).map(() => startServer({ ...database.env, ...SETTINGS })))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(servers.map(stopServer))
    await h.close()
    await database.drop()
  })

  const start = Math.ceil(testNow() / HOUR) * HOUR + 48 * HOUR
  const slot = { court_id: COURT.allDay, start_time: new Date(start).toISOString(),
    end_time: new Date(start + HOUR).toISOString() }
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(start))

  it('says "change" within 5 s of a booking made elsewhere, and the day then shows it; stopping ends the stream', async () => {
    const [watching] = servers
    if (watching === undefined) throw new Error('no server')
    const session = { cookie: `${COOKIE}=${cookie}`, origin: ORIGIN }
    const opened = await fetch(`${watching.url}/api/admin/v1/clubs/riverside/planner/events`, { headers: session })
    expect(opened.status).toBe(200)
    expect(opened.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(opened.headers.get('cache-control')).toBe('no-store')
    if (opened.body === null) throw new Error('no body')
    const stream = reading(opened.body)
    await stream.until('event: ready', 1, 5_000)
    expect(stream.text).toMatch(/^retry: 3000\n/)
    // Nothing changed yet: more than a check's interval passes without a word.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(stream.text).not.toContain('event: change')

    const payload = { ...slot, booker_name: 'Petra Planner', booker_email: 'petra@example.org' }
    const booked = dialect === 'postgres'
      ? await fetch(`${servers[1]?.url ?? ''}/api/v1/public/riverside/courts/book`, { method: 'POST',
          headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }).then(async (response) => ({
          status: response.status, body: await response.text() }))
      : await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload })
    expect(booked.status, booked.body).toBe(201)
    const bookingId = (JSON.parse(booked.body) as { booking_id: string }).booking_id
    expect(await stream.until('event: change', 1, 5_000)).toBeLessThan(5_000)

    const day = await fetch(`${watching.url}/api/admin/v1/clubs/riverside/planner?date=${date}`, { headers: session })
    expect(day.status).toBe(200)
    const body = await day.text()
    const court = (JSON.parse(body) as { courts: { id: string, bookings: { id: string, booker_name: string }[] }[] }).courts
      .find((entry) => entry.id === COURT.allDay)
    expect(court?.bookings).toEqual([expect.objectContaining({ id: bookingId, booker_name: 'Petra Planner' })])
    expect(body).not.toContain('petra@example.org')

    // Another club's stream is no stream: 404, as every other club route answers.
    const foreign = await fetch(`${watching.url}/api/admin/v1/clubs/hillside/planner/events`, { headers: session })
    expect(foreign.status).toBe(404)
    expect(foreign.headers.get('content-type')).toMatch(/^application\/problem\+json/)

    // A stream open does not hold the server's stop: it ends, and the process exits.
    await stopServer(watching)
    await stream.pump
    expect(stream.ended).toBe(true)
    servers = servers.slice(1)
  }, 30_000)
})
