/**
 * The server composes and sends mail on a thread of its own (src/mail/transport-thread.ts). A real
 * server process and a real SMTP server show a confirmation arriving through it, and a relay's
 * permanent refusal recorded as final (the relay's code crosses the thread). The transport as
 * built shows that a thread that dies fails only the send in hand, and that the next send gets a
 * new thread; the worker lets the thread go after ten seconds without mail.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type * as TransportThread from '../../src/mail/transport-thread.js'
import type { MailTransport, OutgoingMail } from '../../src/mail/transport.js'
import { IDLE_RELEASE_MS, MailWorker } from '../../src/mail/worker.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { openContext } from '../helpers/context.js'
import { COURT as COURTS, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { DIALECTS, createTestDatabase, describeEachDatabase } from '../helpers/databases.js'
import { useHarness } from '../helpers/harness.js'
import type { TestDatabase } from '../helpers/databases.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { testNow } from '../helpers/today.js'

const COURT = randomUUID()
const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))

for (const dialect of DIALECTS) {
  const available = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
  describe.skipIf(!available)(`mail on its own thread, in the server process [${dialect}]`, () => {
    const smtp = new TestSmtpServer()
    let database: TestDatabase
    let server: StartedServer
    beforeAll(async () => {
      await smtp.start()
      database = await createTestDatabase(dialect)
      const context = await openContext(database, { migrate: true })
      const club = await createClub(context.db, context.clock, { slug: 'thread', name: 'Thread Club', timezone: 'UTC' })
      await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT, name: 'Court 1', opening_hours: ALL_DAY }] })
      await context.close()
      server = await startServer({ ...database.env, ...(dialect === 'sqlite' ? { DATABASE_URL: '' } : {}), SMTP_URL: smtp.url })
    })
    afterAll(async () => {
      await stopServer(server)
      await smtp.stop()
      await database.drop()
    })

    const book = async (hour: number, email: string) => {
      const start = Date.parse(`${new Date(testNow() + 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`) + hour * 3_600_000
      const response = await fetch(`${server.url}/api/v1/public/thread/courts/book`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ court_id: COURT, start_time: new Date(start).toISOString(), end_time: new Date(start + 3_600_000)
          .toISOString(), booker_name: 'Tam Thread', booker_email: email }),
      })
      expect(response.status).toBe(201)
      return (await response.json() as { booking_id: string }).booking_id
    }

    const mailOf = async (bookingId: string) => {
      const context = await openContext(database, { role: 'admin' })
      try {
        return await context.db.selectFrom('mail_outbox').select(['status', 'attempts', 'last_error'])
          .where('booking_id', '=', bookingId).executeTakeFirstOrThrow()
      } finally {
        await context.close()
      }
    }

    it('says so when it starts, and a booking\'s confirmation arrives through it', async () => {
      const serving = () => server.logs.map((line) => JSON.parse(line) as { msg?: string, mail?: string })
        .find((entry) => entry.msg === 'serving')?.mail
      await expect.poll(serving).toBe(`SMTP 127.0.0.1:${String(smtp.port)} (on a thread of its own)`)
      const bookingId = await book(9, 'tam@example.org')
      await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1)
      const [mail] = smtp.received
      expect(mail?.envelopeTo).toEqual(['tam@example.org'])
      expect(mail?.parsed.subject).toMatch(/Thread Club/)
      expect(mail?.parsed.text).toContain(bookingId)
      expect(mail?.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['booking.ics'])
      await expect.poll(async () => (await mailOf(bookingId)).status, { timeout: 10_000 }).toBe('sent')
    })

    it('records a permanent refusal as final: the relay\'s code crosses the thread', async () => {
      smtp.rejectRecipients = true
      try {
        const bookingId = await book(11, 'refused@example.org')
        await expect.poll(async () => (await mailOf(bookingId)).status, { timeout: 10_000 }).toBe('failed')
        const mail = await mailOf(bookingId)
        expect(mail.attempts).toBe(1)
        expect(mail.last_error).toMatch(/550/)
      } finally {
        smtp.rejectRecipients = false
      }
    })
  })
}

describe('the transport thread, as built', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-mail-thread-'))
  afterAll(() => {
    fs.rmSync(directory, { recursive: true, force: true })
  })

  const mail = (html: string): OutgoingMail => {
    const id = randomUUID()
    return { id, messageId: `<${id}@thread.example>`, from: 'Club <club@example.org>', to: { name: 'Guest', address: 'guest@example.org' },
      subject: `Mail ${id}`, text: 'text', html, ics: null }
  }

  // The thread runs built JavaScript: the module is loaded from dist/, as the server loads it.
  const load = async () => await import(pathToFileURL(path.resolve('dist/mail/transport-thread.js')).href) as typeof TransportThread

  it('writes each mail as its file, one thread for many mails; idle, the thread ends', async () => {
    const transport = (await load()).threadedTransport({ kind: 'files', directory })
    try {
      const mails = Array.from({ length: 20 }, (_, i) => mail(`<p>${String(i)}</p>`))
      for (const each of mails) await transport.send(each)
      for (const each of mails) expect(fs.readFileSync(path.join(directory, `${each.id}.eml`), 'utf8')).toContain(each.subject)
      const thread = transport.thread
      expect(thread).toBeDefined()

      // Idle, the thread ends; the next mail starts another.
      const ended = new Promise((resolve) => thread?.once('exit', resolve))
      transport.idle()
      expect(transport.thread).toBeUndefined()
      expect(await ended).toBe(0)
      const later = mail('<p>later</p>')
      await transport.send(later)
      expect(transport.thread?.threadId).not.toBe(thread?.threadId)
      expect(fs.readFileSync(path.join(directory, `${later.id}.eml`), 'utf8')).toContain(later.subject)
    } finally {
      transport.close()
    }
  })

  it('fails the send in hand when the thread dies, and starts a new thread for the next', async () => {
    const smtp = new TestSmtpServer()
    await smtp.start()
    const transport = (await load()).threadedTransport({ kind: 'smtp', url: smtp.url })
    try {
      await transport.send(mail('<p>first</p>'))
      const first = transport.thread
      expect(first).toBeDefined()
      // A slow relay: the next send is in hand when its thread ends.
      smtp.rcptDelayMs = 2_000
      const inHand = transport.send(mail('<p>in hand</p>'))
      await first?.terminate()
      await expect(inHand).rejects.toThrow(/^the mail thread stopped \(exit code 1\)$/)
      expect(transport.thread).toBeUndefined()

      smtp.rcptDelayMs = 0
      const after = mail('<p>after</p>')
      await transport.send(after)
      expect(transport.thread).toBeDefined()
      expect(transport.thread?.threadId).not.toBe(first?.threadId)
      expect(smtp.received.map((each) => each.parsed.subject)).toContain(after.subject)
    } finally {
      transport.close()
      await smtp.stop()
    }
  })
})

/** Counts what the worker asks of it. */
class CountingTransport implements MailTransport {
  readonly description = 'counting'
  sent = 0
  idled = 0
  send(): Promise<void> {
    this.sent++
    return Promise.resolve()
  }

  idle(): void {
    this.idled++
  }

  close(): void {
    return undefined
  }
}

describeEachDatabase('the mail worker, idle', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    await setUpCourts(h, 'riverside')
  })

  it('lets its transport go after ten seconds without mail, not before, and only once until mail comes again', async () => {
    const h = harness.current
    const transport = new CountingTransport()
    const worker = new MailWorker(h.context.db, h.clock, transport, 'Club <club@example.org>')
    const book = async (hour: number) => {
      const start = `${TUESDAY}T${String(hour).padStart(2, '0')}:00:00+02:00`
      const end = `${TUESDAY}T${String(hour + 1).padStart(2, '0')}:00:00+02:00`
      const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
        court_id: COURTS.allDay, start_time: start, end_time: end, booker_name: 'Ida Idle', booker_email: `ida${String(hour)}@example.org` } })
      expect(response.status).toBe(201)
    }
    await book(6)
    expect(await worker.runOnce()).toBe(1)
    h.clock.advance(IDLE_RELEASE_MS - 1)
    expect(await worker.runOnce()).toBe(0)
    expect(transport.idled).toBe(0)
    h.clock.advance(1)
    expect(await worker.runOnce()).toBe(0)
    expect(transport.idled).toBe(1)
    h.clock.advance(IDLE_RELEASE_MS)
    expect(await worker.runOnce()).toBe(0)
    expect(transport.idled).toBe(1)

    await book(8)
    expect(await worker.runOnce()).toBe(1)
    expect(transport.sent).toBe(2)
    h.clock.advance(IDLE_RELEASE_MS / 2)
    expect(await worker.runOnce()).toBe(0)
    expect(transport.idled).toBe(1)
    h.clock.advance(IDLE_RELEASE_MS / 2)
    expect(await worker.runOnce()).toBe(0)
    expect(transport.idled).toBe(2)
  })
})
