/**
 * kill -9 of a server process at a chosen point of its SMTP exchange while it delivers confirmation
 * mails, then a restart: every booking that was answered 201 gets its mail within 30 s of the
 * restart, and only the mail the relay had queued unanswered arrives twice, under one Message-ID —
 * on SQLite and on PostgreSQL, with a real server process and a real SMTP server.
 */
import { DEFAULT_MAIL_CONNECTIONS } from '../../src/config.js'
import { randomUUID } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { openContext } from '../helpers/context.js'
import { DIALECTS, createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { exitOf, startServer } from '../helpers/server-process.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { testNow } from '../helpers/today.js'

const BOOKINGS = 100
const COURTS = 5
const DAY = 86_400_000

type Court = { readonly id: string, readonly name: string }

async function seedCrashClub(database: TestDatabase, smtp: TestSmtpServer) {
  const context = await openContext(database, { migrate: true })
  const club = await createClub(context.db, context.clock, { slug: 'crash', name: 'Crash', timezone: 'UTC' })
  const courts: Court[] = Array.from({ length: COURTS }, (_, i) => ({ id: randomUUID(), name: `Court ${String(i + 1)}`,
    opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) }))
  await importClubData(context.db, context.clock, club.id, { courts })
  await context.close()
  const env = { ...database.env, ...(database.dialect === 'sqlite' ? { DATABASE_URL: '' } : {}), SMTP_URL: smtp.url,
    BOOKING_RATE_CAPACITY: '100000', BOOKING_RATE_PER_MINUTE: '6000000', PUBLIC_RATE_CAPACITY: '100000' }
  return { courts, env }
}

/** BOOKINGS bookings at once, each of a free hour tomorrow. */
async function bookConcurrently(url: string, courts: readonly Court[]) {
  const tomorrow = Date.parse(`${new Date(testNow() + DAY).toISOString().slice(0, 10)}T00:00:00Z`)
  return Promise.all(Array.from({ length: BOOKINGS }, async (_, i) => {
    const start = tomorrow + Math.floor(i / COURTS) * 3_600_000
    const body = JSON.stringify({ court_id: courts[i % COURTS]?.id, start_time: new Date(start).toISOString(),
      end_time: new Date(start + 3_600_000).toISOString(), booker_name: 'Kim Crash', booker_email: `guest${String(i)}@example.org` })
    // A busy machine's database pool may answer 503 with Retry-After (docs/operations.md, "Connections"): the client
    // tries again after it, with the same Idempotency-Key, as a booking page does; a booking is made once.
    const headers = { 'content-type': 'application/json', 'idempotency-key': `crash-${String(i)}-${String(start)}` }
    for (let attempt = 1; ; attempt += 1) {
      const response = await fetch(`${url}/api/v1/public/crash/courts/book`, { method: 'POST', headers, body })
      if (response.status !== 503 || attempt === 5) {
        return { status: response.status, body: await response.json() as { booking_id?: string } }
      }
      await response.body?.cancel()
      await new Promise((resolve) => setTimeout(resolve, Math.min(2, Number(response.headers.get('retry-after') ?? '1')) * 1000))
    }
  }))
}

const bookingIdOf = (text: string | undefined) => /Booking id: ([0-9a-f-]{36})/.exec(text ?? '')?.[1] ?? ''

/**
 * Where in the SMTP exchange the process dies. Before the relay's answer to RCPT TO, nothing was
 * handed over: every mail arrives once. After the relay queued a message and before its answer
 * reached the sender, the sender cannot know: that one message is sent again after the restart,
 * with the same Message-ID, and no other.
 */
const KILLS = [
  { stage: 'rcpt', title: 'dies before the relay answers RCPT TO: every acknowledged booking\'s mail within 30 s of the restart, none twice' },
  { stage: 'data', title: 'dies after the relay queued a mail, before its answer: that mail once more with the same Message-ID, no other twice' },
] as const

for (const dialect of DIALECTS) {
  const available = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
  describe.skipIf(!available)(`kill -9 while mails are delivered [${dialect}]`, () => {
    it.each(KILLS)('$title', async ({ stage }) => {
      const database = await createTestDatabase(dialect)
      const smtp = new TestSmtpServer()
      await smtp.start()
      try {
        const { courts, env } = await seedCrashClub(database, smtp)
        // A slow relay: the worker has a batch in hand when the process dies.
        smtp.rcptDelayMs = 100
        // One connection to the relay: one mail in flight at the kill (with MAIL_CONNECTIONS=n, up to n).
        const first = await startServer({ ...env, MAIL_CONNECTIONS: '1' })
        const answers = await bookConcurrently(first.url, courts)
        expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: BOOKINGS }, () => 201))
        const acknowledged = new Set(answers.map((answer) => answer.body.booking_id ?? ''))

        await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
        const exited = exitOf(first.child)
        let killed = false
        smtp.beforeAnswer = async (reached) => {
          if (reached !== stage || killed) return
          killed = true
          first.child.kill('SIGKILL')
          await exited
        }
        await exited
        smtp.beforeAnswer = undefined
        const beforeRestart = smtp.received.length
        expect(beforeRestart).toBeLessThan(BOOKINGS)
        const inFlight = stage === 'data' ? smtp.received.at(-1) : undefined

        smtp.rcptDelayMs = 0
        const second = await startServer(env)
        const restartedAt = performance.now()
        const delivered = () => smtp.received.map((mail) => bookingIdOf(mail.parsed.text))
        try {
          const deliveredOnce = () => new Set(delivered().filter((id) => acknowledged.has(id))).size
          await expect.poll(deliveredOnce, { timeout: 30_000, interval: 200 }).toBe(BOOKINGS)
          expect(performance.now() - restartedAt).toBeLessThan(30_000)
          if (inFlight !== undefined) {
            // The mail in flight at the kill is in the dead process's batch: it comes again when that lease ends, which may be
            // after the last of the others has arrived.
            const id = bookingIdOf(inFlight.parsed.text)
            const copies = () => delivered().filter((each) => each === id).length
            await expect.poll(copies, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(2)
          }
          const counts = new Map<string, number>()
          for (const id of delivered()) counts.set(id, (counts.get(id) ?? 0) + 1)
          const twice = [...counts].filter(([, n]) => n > 1)
          if (inFlight === undefined) {
            expect(twice).toEqual([])
          } else {
            const id = bookingIdOf(inFlight.parsed.text)
            expect(twice).toEqual([[id, 2]])
            const copies = smtp.received.filter((mail) => bookingIdOf(mail.parsed.text) === id)
            expect(copies.map((mail) => mail.parsed.messageId)).toEqual([inFlight.parsed.messageId, inFlight.parsed.messageId])
          }
          console.info(`kill -9 at ${stage} [${dialect}]: ${String(beforeRestart)} mails before the kill, the other `
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

    it('keeps pace with a burst of bookings: at most MAIL_CONNECTIONS connections to the relay, each mail once', async () => {
      const database = await createTestDatabase(dialect)
      const smtp = new TestSmtpServer()
      await smtp.start()
      try {
        const { courts, env } = await seedCrashClub(database, smtp)
        const server = await startServer(env)
        try {
          const startedAt = performance.now()
          const answers = await bookConcurrently(server.url, courts)
          const answeredAt = performance.now()
          const deliveredByLastAnswer = smtp.received.length
          expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: BOOKINGS }, () => 201))
          await expect.poll(() => smtp.received.length, { timeout: 30_000, interval: 50 }).toBe(BOOKINGS)
          const ids = smtp.received.map((mail) => bookingIdOf(mail.parsed.text))
          expect(new Set(ids)).toEqual(new Set(answers.map((answer) => answer.body.booking_id)))
          // One connection per mail (a TCP and SMTP handshake each) is what made delivery fall behind a burst.
          expect(smtp.connections).toBeLessThanOrEqual(DEFAULT_MAIL_CONNECTIONS)
          console.info(`burst [${dialect}]: ${String(BOOKINGS)} bookings answered in ${String(Math.round(answeredAt - startedAt))} ms, `
            + `${String(deliveredByLastAnswer)} mails delivered by then, all ${String(BOOKINGS)} after `
            + `${String(Math.round(performance.now() - startedAt))} ms, over ${String(smtp.connections)} connection(s)`)
        } finally {
          const stopped = exitOf(server.child)
          server.child.kill('SIGTERM')
          await stopped
        }
      } finally {
        await smtp.stop()
        await database.drop()
      }
    }, 60_000)
  })
}
