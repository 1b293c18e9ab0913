/**
 * More bookings at once than the database pool can serve, over real HTTP to a server process: each
 * is taken (201), refused as a taken slot (400 slot-conflict), or refused for now (503 with
 * Retry-After, an RFC 9457 problem) — never a 500; the database holds exactly the bookings answered
 * 201, and the refused ones, retried with their Idempotency-Key, are made once.
 */
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { importClubData } from '../../src/services/import.js'
import { createClub } from '../../src/services/clubs.js'
import { openContext } from '../helpers/context.js'
import { createTestDatabase, describePostgres } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import { testToday } from '../helpers/today.js'

const COURT = idFor('pool:court')
const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))

describePostgres('a pool of two connections under 64 simultaneous bookings', () => {
  it('answers 201, 400 slot-conflict or 503 with Retry-After, and holds exactly the bookings answered 201', async () => {
    const database = await createTestDatabase('postgres')
    const context = await openContext(database, { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'busy', name: 'Busy', timezone: 'UTC' })
    await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT, name: 'Court 1', opening_hours: ALL_DAY,
      booking_horizon_days: 30 }] })
    const server = await startServer({ ...database.env, DATABASE_POOL_SIZE: '2', DATABASE_POOL_QUEUE: '8', DATABASE_POOL_WAIT_MS: '300',
      BOOKING_RATE_CAPACITY: '100000', PUBLIC_RATE_CAPACITY: '100000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '100000' })
    try {
      const date = testToday(2, 'UTC')
      // 64 requests for 16 hours of one court: four for each hour.
      const requests = Array.from({ length: 64 }, (_, i) => ({ key: randomUUID(), body: JSON.stringify({ court_id: COURT,
        start_time: `${date}T${String(i % 16 + 4).padStart(2, '0')}:00:00Z`, end_time: `${date}T${String(i % 16 + 5).padStart(2, '0')}:00:00Z`,
        booker_name: `Guest ${String(i)}`, booker_email: `guest${String(i)}@example.org` }) }))
      const book = async (request: { key: string, body: string }) => {
        const response = await fetch(`${server.url}/api/v1/public/busy/courts/book`, { method: 'POST', body: request.body,
          headers: { 'content-type': 'application/json', 'idempotency-key': request.key } })
        return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type'),
          body: await response.json() as { type?: string, booking_id?: string } }
      }
      const answers = await Promise.all(requests.map(book))
      const statuses = answers.map((answer) => answer.status)
      expect(new Set(statuses).size > 0 && statuses.every((status) => [201, 400, 503].includes(status)), statuses.join(' ')).toBe(true)
      for (const answer of answers.filter((each) => each.status === 400)) expect(answer.body.type).toMatch(/slot-conflict$/)
      const refused = answers.filter((answer) => answer.status === 503)
      // Two connections cannot serve 64 at once: some wait, and those beyond the queue's bound are refused.
      expect(refused.length).toBeGreaterThan(0)
      for (const answer of refused) {
        expect(answer.retryAfter).toMatch(/^\d+$/)
        expect(answer.type).toContain('application/problem+json')
        expect(answer.body.type).toMatch(/service-unavailable$/)
      }
      const confirmed = async () => (await context.db.selectFrom('bookings').select('id').where('club_id', '=', club.id)
        .where('status', '=', 'confirmed').execute()).map((row) => row.id).sort()
      const made = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.booking_id ?? '')
      expect(await confirmed()).toEqual([...made].sort())

      // The refused ones again, one at a time with their keys: each is taken or a taken slot; a taken one replays as it was.
      for (const [i, answer] of answers.entries()) {
        const request = requests[i]
        if (answer.status !== 503 || request === undefined) continue
        const again = await book(request)
        expect([201, 400]).toContain(again.status)
        if (again.status === 201) made.push(again.body.booking_id ?? '')
      }
      expect(await confirmed()).toEqual([...made].sort())
      expect(made).toHaveLength(16)
    } finally {
      await stopServer(server)
      await context.close()
      await database.drop()
    }
  }, 120_000)
})
