/**
 * Webhook delivery by the real server (dist/server.js) on the run's clock (test/helpers/today.ts), with a receiver on
 * loopback that verifies every request with the `standardwebhooks` package:
 *
 * - a server killed (SIGKILL) while a delivery is in flight, and started again, delivers it: the
 *   lease of the dead process runs out and the same message goes again under its webhook-id;
 * - two server processes on one PostgreSQL database deliver each of many events exactly once
 *   (deliveries are claimed with SKIP LOCKED).
 */
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { createTestDatabase, describeEachDatabase, describePostgres } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { storeSetup } from '../helpers/limiters.js'
import type { StoreSetup } from '../helpers/limiters.js'
import { exitOf, startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { WebhookReceiver } from '../helpers/webhook-receiver.js'
import { testNow } from '../helpers/today.js'

const HOUR = 3_600_000
const SETTINGS = { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '1000',
  BOOKING_RATE_CAPACITY: '1000', PUBLIC_URL: `${ORIGIN}/` }

/** A club with courts and an endpoint for booking.created (through the harness on the same database); returns its secret. */
async function clubWithEndpoint(h: Harness, receiver: WebhookReceiver): Promise<string> {
  const { clubId } = await setUpCourts(h, 'riverside')
  const owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
  const created = await owner('POST', '/api/admin/v1/clubs/riverside/webhook-endpoints', { url: receiver.url,
    event_types: ['booking.created'] })
  expect(created.status, created.body).toBe(201)
  return created.json<{ secret: string }>().secret
}

/** Books hour `n` of the floodlit court, some days from now (the server runs on the run's clock). */
async function book(server: StartedServer, n: number): Promise<string> {
  const start = Math.ceil(testNow() / HOUR) * HOUR + 48 * HOUR + n * HOUR
  const response = await fetch(`${server.url}/api/v1/public/riverside/courts/book`, { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: COURT.allDay,
      start_time: new Date(start).toISOString(), end_time: new Date(start + HOUR).toISOString(), booker_name: 'Gina Guest',
      booker_email: 'gina@example.org' }) })
  const body = await response.text()
  expect(response.status, body).toBe(201)
  return (JSON.parse(body) as { booking_id: string }).booking_id
}

describeEachDatabase('webhooks across a server restart', (dialect) => {
  const receiver = new WebhookReceiver()
  let database: TestDatabase
  let h: Harness & { close(): Promise<void> }
  let secret = ''
  const servers: StartedServer[] = []

  beforeAll(async () => {
    await receiver.start()
    database = await createTestDatabase(dialect)
    h = await startHarness(dialect, { database, env: { PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
    secret = await clubWithEndpoint(h, receiver)
  })
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) await stopServer(server)
    }
  })
  afterAll(async () => {
    await h.close()
    await receiver.stop()
    await database.drop()
  })

  it('delivers, after a restart, the event a killed server was delivering', async () => {
    const env = { ...database.env, ...SETTINGS, WEBHOOK_TIMEOUT_SECONDS: '2' }
    const first = await startServer(env)
    servers.push(first)
    receiver.answer = 'hang'
    const bookingId = await book(first, 0)
    // The attempt reached the receiver, which does not answer; the process dies before it knows.
    await expect.poll(() => receiver.received.length, { timeout: 5_000 }).toBe(1)
    const died = exitOf(first.child)
    first.child.kill('SIGKILL')
    await died
    receiver.answer = { status: 204 }
    servers.push(await startServer(env))
    // The dead process's lease (the 2 s timeout and 5 s) runs out; then the new process sends it again.
    await expect.poll(() => receiver.received.length, { timeout: 15_000, interval: 100 }).toBe(2)
    const [lost, again] = receiver.received
    if (lost === undefined || again === undefined) throw new Error('not received twice')
    expect(again.headers['webhook-id']).toBe(lost.headers['webhook-id'])
    expect(WebhookReceiver.verify(again, secret)).toMatchObject({ type: 'booking.created', data: { id: bookingId } })
  }, 40_000)
})

describePostgres('webhooks from two server processes', () => {
  const receiver = new WebhookReceiver()
  let database: TestDatabase
  let redis: StoreSetup
  let h: Harness & { close(): Promise<void> }
  let secret = ''
  let servers: StartedServer[] = []

  beforeAll(async () => {
    await receiver.start()
    database = await createTestDatabase('postgres')
    redis = storeSetup(inject('redisUrl') === null ? 'memory' : 'redis')
    h = await startHarness('postgres', { database, env: { PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
    secret = await clubWithEndpoint(h, receiver)
    servers = await Promise.all([1, 2].map(() => startServer({ ...database.env, ...redis.env, ...SETTINGS })))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(servers.map(stopServer))
    await h.close()
    await receiver.stop()
    await database.drop()
    await redis.cleanUp()
  })

  it('delivers each event exactly once', async () => {
    const booked: string[] = []
    // Bookings through both processes, several at a time: both workers find deliveries due at once.
    for (let batch = 0; batch < 6; batch++) {
      booked.push(...await Promise.all(Array.from({ length: 8 }, (_, i) => book(servers[i % 2]!, batch * 8 + i))))
    }
    await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(booked.length)
    // Time for a duplicate to arrive, were there one: both processes poll every second.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    const ids = receiver.received.map((request) => String(request.headers['webhook-id']))
    expect(ids).toHaveLength(booked.length)
    expect(new Set(ids).size).toBe(booked.length)
    const delivered = receiver.received.map((request) => WebhookReceiver.verify(request, secret).data.id)
    expect(new Set(delivered)).toEqual(new Set(booked))
  }, 60_000)
})
