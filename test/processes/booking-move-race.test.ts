/**
 * Moves and public bookings racing for the same slots, through two server processes (dist/server.js)
 * on one PostgreSQL database: every target slot ends with at most one active booking, a move that
 * lost leaves its booking where it was, and each answer is the move's or the booking's own (200 or
 * 201 for the winner, `slot-conflict` for the others).
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { createTestDatabase, describePostgres } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { COOKIE, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { storeSetup } from '../helpers/limiters.js'
import type { StoreSetup } from '../helpers/limiters.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { testNow } from '../helpers/today.js'

const HOUR = 3_600_000
const SETTINGS = { BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '1000', BOOKING_RATE_CAPACITY: '1000',
  PUBLIC_URL: `${ORIGIN}/` }
const TARGETS = 10

describePostgres('moves and bookings racing for the same slots, two server processes', () => {
  let database: TestDatabase
  let redis: StoreSetup
  let h: Harness & { close(): Promise<void> }
  let servers: StartedServer[] = []
  let cookie = ''

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    redis = storeSetup(inject('redisUrl') === null ? 'memory' : 'redis')
    h = await startHarness('postgres', { database, env: { PUBLIC_URL: `${ORIGIN}/` } })
    const { clubId } = await setUpCourts(h, 'riverside')
    // The session is signed in on the servers' clock (the run's), so that they find it fresh.
    h.clock.set(testNow())
    cookie = await signedIn(h, clubId, 'olivia@example.org', 'owner')
    servers = await Promise.all([1, 2].map(() => startServer({ ...database.env, ...redis.env, ...SETTINGS })))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(servers.map(stopServer))
    await h.close()
    await database.drop()
    await redis.cleanUp()
  })

  /** Hour `n` of the floodlit court, two days from now on the run's clock. */
  const slot = (n: number) => {
    const start = Math.ceil(testNow() / HOUR) * HOUR + 48 * HOUR + n * HOUR
    return { court_id: COURT.allDay, start_time: new Date(start).toISOString(), end_time: new Date(start + HOUR).toISOString() }
  }
  const send = async (server: StartedServer, path: string, body: object, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body) })
    return { status: response.status, body: await response.text() }
  }
  const book = (server: StartedServer, n: number, email: string) => send(server, '/api/v1/public/riverside/courts/book',
    { ...slot(n), booker_name: 'Gina Guest', booker_email: email })
  const move = (server: StartedServer, bookingId: string, n: number) => send(server,
    `/api/admin/v1/clubs/riverside/bookings/${bookingId}/move`, slot(n), { origin: ORIGIN, cookie: `${COOKIE}=${cookie}` })

  it('leaves at most one active booking on each slot, and a losing move where it was', async () => {
    const [one, two] = servers as [StartedServer, StartedServer]
    // Two bookings to move to each target slot (the targets are hours 0–9, the bookings hours 20–39).
    const moving: string[] = []
    for (let i = 0; i < 2 * TARGETS; i++) {
      const made = await book(i % 2 === 0 ? one : two, 20 + i, `mover${String(i)}@example.org`)
      expect(made.status, made.body).toBe(201)
      moving.push((JSON.parse(made.body) as { booking_id: string }).booking_id)
    }
    // For each target: both moves and a public booking at once, spread over the two processes.
    const answers = await Promise.all(Array.from({ length: TARGETS }, (_, n) => [
      move(one, moving[2 * n] ?? '', n).then((answer) => ({ ...answer, what: 'move', n })),
      move(two, moving[2 * n + 1] ?? '', n).then((answer) => ({ ...answer, what: 'move', n })),
      book(n % 2 === 0 ? two : one, n, `guest${String(n)}@example.org`).then((answer) => ({ ...answer, what: 'book', n })),
    ]).flat())
    for (const answer of answers) {
      if (answer.status === 200 || answer.status === 201) continue
      expect(answer.status, answer.body).toBe(400)
      expect(JSON.parse(answer.body), answer.body).toMatchObject({ type: '/api/v1/problems/slot-conflict' })
    }
    const rows = await h.context.db.selectFrom('bookings').select(['id', 'starts_at']).where('status', '=', 'confirmed').execute()
    const on = (n: number) => rows.filter((row) => new Date(row.starts_at).toISOString() === slot(n).start_time)
    for (let n = 0; n < TARGETS; n++) {
      const won = answers.filter((answer) => answer.n === n && (answer.status === 200 || answer.status === 201))
      expect(won, `slot ${String(n)}: ${JSON.stringify(answers.filter((answer) => answer.n === n))}`).toHaveLength(1)
      expect(on(n)).toHaveLength(1)
    }
    // Every booking that was to move is confirmed: on its target if its move won, where it was if not.
    for (const [i, id] of moving.entries()) {
      const row = rows.find((candidate) => candidate.id === id)
      const wonMove = answers.some((answer) => answer.what === 'move' && answer.status === 200 && answer.n === Math.floor(i / 2)
        && (JSON.parse(answer.body) as { id: string }).id === id)
      expect(row === undefined ? undefined : new Date(row.starts_at).toISOString(), id)
        .toBe(wonMove ? slot(Math.floor(i / 2)).start_time : slot(20 + i).start_time)
    }
  }, 60_000)
})
