/**
 * kill -9 of a server process while it delivers confirmation mails, then a restart: every booking
 * that was answered 201 gets its mail within 30 s of the restart, and none gets it twice — on
 * SQLite and on PostgreSQL, with a real server process and a real SMTP server.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { readConfig } from '../src/config.js'
import { createContext } from '../src/context.js'
import { createClub } from '../src/services/clubs.js'
import { importClubData } from '../src/services/import.js'
import { DIALECTS, createTestDatabase } from './helpers/databases.js'
import { exitOf, startServer } from './helpers/server-process.js'
import { TestSmtpServer } from './helpers/smtp.js'

const BOOKINGS = 100
const COURTS = 5
const DAY = 86_400_000

for (const dialect of DIALECTS) {
  const available = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
  describe.skipIf(!available)(`kill -9 while mails are delivered [${dialect}]`, () => {
    it('delivers every acknowledged booking\'s mail within 30 s of the restart, none twice', async () => {
      const database = await createTestDatabase(dialect)
      const smtp = new TestSmtpServer()
      await smtp.start()
      try {
        const context = await createContext(readConfig({ ...database.env, LOG_LEVEL: 'silent' }), { migrate: true })
        const club = await createClub(context.db, context.clock, { slug: 'crash', name: 'Crash', timezone: 'UTC' })
        const courts = Array.from({ length: COURTS }, (_, i) => ({ id: randomUUID(), name: `Court ${String(i + 1)}`,
          opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) }))
        await importClubData(context.db, context.clock, club.id, { courts })
        await context.close()

        const env = { ...database.env, ...(dialect === 'sqlite' ? { DATABASE_URL: '' } : {}), SMTP_URL: smtp.url,
          BOOKING_RATE_CAPACITY: '100000', BOOKING_RATE_PER_MINUTE: '6000000', PUBLIC_RATE_CAPACITY: '100000' }
        // A slow relay: the worker has a batch in hand when the process dies.
        smtp.rcptDelayMs = 100
        const first = await startServer(env)
        const tomorrow = Date.parse(`${new Date(Date.now() + DAY).toISOString().slice(0, 10)}T00:00:00Z`)
        const answers = await Promise.all(Array.from({ length: BOOKINGS }, async (_, i) => {
          const start = tomorrow + Math.floor(i / COURTS) * 3_600_000
          const response = await fetch(`${first.url}/api/v1/public/crash/courts/book`, {
            method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ court_id: courts[i % COURTS]?.id, start_time: new Date(start).toISOString(),
              end_time: new Date(start + 3_600_000).toISOString(), booker_name: 'Kim Crash', booker_email: `guest${String(i)}@example.org` }),
          })
          return { status: response.status, body: await response.json() as { booking_id?: string } }
        }))
        expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: BOOKINGS }, () => 201))
        const acknowledged = new Set(answers.map((answer) => answer.body.booking_id ?? ''))

        await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
        const exited = exitOf(first.child)
        first.child.kill('SIGKILL')
        await exited
        const beforeRestart = smtp.received.length
        expect(beforeRestart).toBeLessThan(BOOKINGS)

        smtp.rcptDelayMs = 0
        const second = await startServer(env)
        const restartedAt = performance.now()
        const delivered = () => smtp.received.map((mail) => /Booking id: ([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')?.[1] ?? '')
        try {
          const deliveredOnce = () => new Set(delivered().filter((id) => acknowledged.has(id))).size
          await expect.poll(deliveredOnce, { timeout: 30_000, interval: 200 }).toBe(BOOKINGS)
          expect(performance.now() - restartedAt).toBeLessThan(30_000)
          const counts = new Map<string, number>()
          for (const id of delivered()) counts.set(id, (counts.get(id) ?? 0) + 1)
          expect([...counts].filter(([, n]) => n > 1)).toEqual([])
          console.info(`kill -9 [${dialect}]: ${String(beforeRestart)} mails before the kill, the other `
            + `${String(BOOKINGS - beforeRestart)} within ${String(Math.round(performance.now() - restartedAt))} ms of the restart`)
        } finally {
          const stopped = exitOf(second.child)
          second.child.kill('SIGTERM')
          await stopped
        }
      } finally {
        await smtp.stop()
        await database.drop()
      }
    }, 90_000)
  })
}
