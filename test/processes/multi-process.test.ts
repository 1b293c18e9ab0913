/**
 * Two real server processes on one PostgreSQL database and one Redis, with a real SMTP server on
 * loopback: one rate-limit budget per key across both, exactly one winner of 50 simultaneous
 * bookings of a slot, every confirmation mail delivered exactly once, and a clean SIGTERM.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { addDays, localToInstant } from '../../src/domain/zoned-time.js'
import { generateToken, hashToken } from '../../src/domain/secret-token.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { openContext } from '../helpers/context.js'
import { COURT } from '../helpers/courts.js'
import { idFor } from '../helpers/fixtures.js'
import { createTestDatabase, describePostgres } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { storeSetup } from '../helpers/limiters.js'
import type { StoreSetup } from '../helpers/limiters.js'
import { startServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { testToday } from '../helpers/today.js'

describePostgres('two server processes', () => {
  let database: TestDatabase
  let redis: StoreSetup
  let dataDir = ''
  let key = ''
  const smtp = new TestSmtpServer()
  const servers: StartedServer[] = []
  const tomorrow = testToday(1)
  const instant = (minutes: number) => new Date(localToInstant(tomorrow, minutes, 'Europe/Berlin')).toISOString()

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    redis = storeSetup(inject('redisUrl') === null ? 'memory' : 'redis')
    await smtp.start()
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-multi-'))
    const context = await openContext(database, { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'twin', name: 'Twin', timezone: 'Europe/Berlin' })
    await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT.a, name: 'Court A' }] })
    key = (await createApiKey(context.db, context.clock, { clubId: club.id, name: 'twin', scopes: ['read:groups'], expiresAt: null })).key
    await context.close()
    for (let i = 0; i < 2; i++) {
      const server = await startServer({ ...database.env, ...redis.env, SMTP_URL: smtp.url,
        DATA_DIR: path.join(dataDir, String(i)), BOOKING_RATE_CAPACITY: '1000', BOOKING_MAX_OPEN_PER_EMAIL: '100',
        // A refill of one a minute keeps the shared budget exact however long the burst takes.
        RATE_LIMIT_CAPACITY: '60', RATE_LIMIT_PER_MINUTE: '1' })
      servers.push(server)
    }
  }, 60_000)

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL')
    await database.drop()
    await redis.cleanUp()
    await smtp.stop()
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  const book = (i: number, start: string, end: string) => fetch(`${servers[i % 2]?.url ?? ''}/api/v1/public/twin/courts/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ court_id: COURT.a, start_time: start, end_time: end, booker_name: `Racer ${String(i)}`,
      booker_email: `racer${String(i)}@example.org` }),
  })

  it.skipIf(inject('redisUrl') === null)('shares one rate-limit budget per key: 60 of 200 requests split across both', async () => {
    const statuses = await Promise.all(Array.from({ length: 200 }, async (_, i) =>
      (await fetch(`${servers[i % 2]?.url ?? ''}/api/v1/groups`, { headers: { authorization: `Bearer ${key}` } })).status))
    expect(statuses.filter((status) => status === 200)).toHaveLength(60)
    expect(statuses.filter((status) => status === 429)).toHaveLength(140)
  })

  it('lets exactly one of 50 simultaneous requests split across both processes book the slot', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const response = await book(i, instant(10 * 60), instant(11 * 60))
      return { status: response.status, body: await response.json() as { type?: string } }
    }))
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1)
    const conflicts = responses.filter((response) => response.status === 400)
    expect(conflicts).toHaveLength(49)
    for (const conflict of conflicts) expect(conflict.body.type).toBe('/api/v1/problems/slot-conflict')
  })

  it('delivers every confirmation mail exactly once, whichever process took the booking', async () => {
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const response = await book(100 + i, instant((12 + i) * 60), instant((13 + i) * 60))
      expect(response.status).toBe(201)
      ids.push((await response.json() as { booking_id: string }).booking_id)
    }
    const delivered = () => smtp.received.filter((mail) => ids.some((id) => mail.parsed.text?.includes(id)))
    for (let i = 0; i < 100 && delivered().length < ids.length; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    // Both workers poll every second; give a duplicate time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    const all = smtp.received.map((mail) => mail.parsed.messageId)
    expect(new Set(all).size).toBe(all.length)
    for (const id of ids) expect(smtp.received.filter((mail) => mail.parsed.text?.includes(id))).toHaveLength(1)
  })

  it('ends 20 simultaneous bookings of a slot being cancelled by its guest with at most one confirmed booking', async () => {
    const [start, end] = [instant(8 * 60), instant(9 * 60)]
    const first = await book(200, start, end)
    expect(first.status).toBe(201)
    const { booking_id: bookingId } = await first.json() as { booking_id: string }
    // The guest's link: its token is known here by giving the booking one whose hash the test wrote.
    const token = generateToken('manage')
    const context = await openContext(database)
    try {
      await context.db.updateTable('bookings').set({ manage_token_hash: hashToken(token) }).where('id', '=', bookingId).execute()
      const cancel = fetch(`${servers[0]?.url ?? ''}/bookings/manage/${token}`, { method: 'POST', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
      const racers = Array.from({ length: 20 }, async (_, i) => (await book(300 + i, start, end)).status)
      const [cancelled, ...statuses] = await Promise.all([cancel, ...racers])
      expect(cancelled.status).toBe(303)
      expect(statuses.every((status) => status === 201 || status === 400)).toBe(true)
      const confirmed = await context.db.selectFrom('bookings').select('id').where('court_id', '=', COURT.a)
        .where('starts_at', '<', end).where('ends_at', '>', start).where('status', '=', 'confirmed').execute()
      expect(confirmed.length).toBeLessThanOrEqual(1)
      expect(statuses.filter((status) => status === 201)).toHaveLength(confirmed.length)
      expect(confirmed.map((row) => row.id)).not.toContain(bookingId)
    } finally {
      await context.close()
    }
  })

  it('leaves no confirmed booking under a block laid over a day while 20 bookings of it are being made', async () => {
    const day = addDays(tomorrow, 1)
    const at = (minutes: number) => new Date(localToInstant(day, minutes, 'Europe/Berlin')).toISOString()
    const context = await openContext(database)
    try {
      const club = await context.db.selectFrom('clubs').select('id').where('slug', '=', 'twin').executeTakeFirstOrThrow()
      // Court A is open 08:00–22:00: 14 slots, six of them asked for twice.
      const hour = (i: number) => (8 + (i % 14)) * 60
      const racers = Array.from({ length: 20 }, async (_, i) => (await book(400 + i, at(hour(i)), at(hour(i) + 60))).status)
      const block = importClubData(context.db, context.clock, club.id, { court_holds: [{ id: idFor('hold:race'), court_id: COURT.a,
        kind: 'block', starts_at: at(0), ends_at: at(24 * 60) }] },
      { displacedBookings: { policy: 'cancel', settings: { mailFrom: 'Twin <twin@example.org>', publicUrl: new URL('http://127.0.0.1/') } } })
      const [statuses, summary] = await Promise.all([Promise.all(racers), block])
      const under = await context.db.selectFrom('bookings').select('id').where('court_id', '=', COURT.a).where('status', '=', 'confirmed')
        .where('starts_at', '<', at(24 * 60)).where('ends_at', '>', at(0)).execute()
      expect(under).toEqual([])
      // Every booking made before the block was cancelled by it; every one after was refused.
      expect(statuses.filter((status) => status === 201)).toHaveLength(summary.bookings_cancelled)
      expect(statuses.every((status) => status === 201 || status === 400)).toBe(true)
    } finally {
      await context.close()
    }
  })

  it('stops both processes with exit code 0 on SIGTERM', async () => {
    const exits = servers.map((server) => new Promise<number | null>((resolve) => server.child.on('exit', resolve)))
    for (const server of servers) server.child.kill('SIGTERM')
    expect(await Promise.all(exits)).toEqual([0, 0])
  })
})
