import fs from 'node:fs/promises'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext } from '../../src/context.js'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { START } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const at = (time: string) => `${TUESDAY}T${time}:00+02:00`

describeEachDatabase('confirmation mail', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let slot = 8

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'TC Riverside <bookings@riverside.example>' } })
    await setUpCourts(h, 'riverside')
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const book = async (overrides: Record<string, unknown> = {}) => {
    const hour = String(slot++).padStart(2, '0')
    const response = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: at(`${hour}:00`), end_time: at(`${hour}:00`).replace(`T${hour}`, `T${String(Number(hour) + 1).padStart(2, '0')}`),
      booker_name: 'Jörg Gast', booker_email: `guest${hour}@example.org`, ...overrides,
    } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }
  const statusOf = async (bookingId: string) => (await h.context.db.selectFrom('mail_outbox').select(['status', 'attempts'])
    .where('booking_id', '=', bookingId).executeTakeFirstOrThrow())

  it('delivers exactly one mail per booking, with club, court, local time, id, notes and a calendar file', async () => {
    const before = smtp.received.length
    const bookingId = await book({ notes: 'Two players, bring balls' })
    expect(await h.context.mail.runOnce()).toBe(1)
    expect(await h.context.mail.runOnce()).toBe(0)
    const mails = smtp.received.slice(before)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!.parsed
    expect(mail.subject).toMatch(/^Booking confirmed: Court D \(floodlit\), Tue,? 16 Jun 2026, 08:00–09:00 — Club riverside$/)
    expect(TUESDAY).toBe('2026-06-16')
    // The club's name before the service's address (MAIL_FROM's).
    expect(mail.from?.value[0]).toMatchObject({ name: 'Club riverside', address: 'bookings@riverside.example' })
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0] : undefined).toMatchObject({ name: 'Jörg Gast', address: 'guest08@example.org' })
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@riverside\.example>$/)
    for (const part of [mail.text ?? '', typeof mail.html === 'string' ? mail.html : '']) {
      expect(part).toContain(bookingId)
      expect(part).toContain('Club riverside')
      expect(part).toContain('Court D (floodlit)')
      expect(part).toMatch(/Tuesday,? 16 June 2026, 08:00–09:00 \(Central European Time\)/)
      expect(part).toContain('Two players, bring balls')
    }
    const ics = mail.attachments.find((attachment) => attachment.filename === 'booking.ics')
    expect(ics?.contentType).toBe('text/calendar')
    const calendar = ics?.content.toString('utf8') ?? ''
    expect(calendar).toContain('BEGIN:VEVENT')
    expect(calendar).toContain(`UID:${bookingId}@club-platform`)
    expect(calendar).toContain('DTSTART:20260616T060000Z')
    expect(calendar).toContain('DTEND:20260616T070000Z')
    expect(await statusOf(bookingId)).toEqual({ status: 'sent', attempts: 1 })
  })

  it('keeps name and notes inert: no extra headers or recipients, no markup', async () => {
    const before = smtp.received.length
    const bookingId = await book({
      booker_name: 'Mallory "<script>alert(1)</script>" <evil>, Bcc: victim',
      notes: 'Hi\r\nBcc: victim@example.org\r\nSubject: spam\n<img src=x onerror=alert(1)>',
    })
    await h.context.mail.runOnce()
    const [received] = smtp.received.slice(before)
    expect(received?.envelopeTo).toEqual(['guest09@example.org'])
    const headerBlock = received?.raw.slice(0, received.raw.indexOf('\r\n\r\n')) ?? ''
    expect(headerBlock).not.toMatch(/^Bcc:/mi)
    expect(headerBlock.match(/^Subject:/gmi)).toHaveLength(1)
    expect(received?.parsed.bcc).toBeUndefined()
    const html = typeof received?.parsed.html === 'string' ? received.parsed.html : ''
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img')
    expect(html).toContain('&#60;script&#62;')
    expect(received?.parsed.text).toContain(bookingId)
  })

  it('keeps a mail while the relay is down and delivers it once when it is back', async () => {
    await smtp.stop()
    const before = smtp.received.length
    const bookingId = await book()
    expect(await h.context.mail.runOnce()).toBe(1)
    expect(await statusOf(bookingId)).toEqual({ status: 'pending', attempts: 1 })
    // The retry waits (30 s after the first failure); nothing is due before.
    h.clock.advance(29_000)
    expect(await h.context.mail.runOnce()).toBe(0)
    await smtp.start()
    h.clock.advance(1_000)
    expect(await h.context.mail.runOnce()).toBe(1)
    expect(await h.context.mail.runOnce()).toBe(0)
    expect(smtp.received.slice(before).filter((mail) => mail.parsed.text?.includes(bookingId))).toHaveLength(1)
    expect(await statusOf(bookingId)).toEqual({ status: 'sent', attempts: 2 })
    h.clock.set(START)
  })

  it('marks a mail the relay refuses for good as failed, lists it, and sends it again on request', async () => {
    smtp.rejectRecipients = true
    const warnings: object[] = []
    h.context.mail.reportTo({ warn: (entry) => warnings.push(entry), error: (entry) => warnings.push(entry) })
    const bookingId = await book()
    await h.context.mail.runOnce()
    expect(warnings).toHaveLength(1)
    expect(JSON.stringify(warnings)).toMatch(/550/)
    expect(JSON.stringify(warnings)).not.toContain('@example.org')
    smtp.rejectRecipients = false
    expect(await statusOf(bookingId)).toMatchObject({ status: 'failed' })
    const env = { ...h.database.env, SMTP_URL: smtp.url }
    const failed = await cli(env, ['mail', 'list', '--failed', '--json'], h.clock)
    const listed = failed.json<{ id: string, booking_id: string, last_error: string }[]>()
    const entry = listed.find((mail) => mail.booking_id === bookingId)
    expect(entry?.last_error).toMatch(/550/)
    expect((await cli(env, ['mail', 'list', '--failed'], h.clock)).stdout).toContain(entry?.id ?? '?')
    const retried = await cli(env, ['mail', 'retry', entry?.id ?? ''], h.clock)
    expect(retried.code, retried.stderr).toBe(0)
    const before = smtp.received.length
    await h.context.mail.runOnce()
    expect(smtp.received.length).toBe(before + 1)
    expect(await statusOf(bookingId)).toMatchObject({ status: 'sent' })
    expect((await cli(env, ['mail', 'retry', entry?.id ?? ''], h.clock)).code).toBe(1)
  })

  it('keeps pace with a burst: many mails over the few connections MAIL_CONNECTIONS allows, not one connection each', async () => {
    const club = await h.context.db.selectFrom('clubs').select('id').where('slug', '=', 'riverside').executeTakeFirstOrThrow()
    const ids = Array.from({ length: 30 }, () => randomUUID())
    await h.context.db.insertInto('mail_outbox').values(ids.map((id, i) => ({
      id, club_id: club.id, booking_id: null, message_id: `<${id}@riverside.example>`, recipient_name: `Guest ${String(i)}`,
      recipient_email: `burst${String(i)}@example.org`, subject: `Burst ${String(i)}`, text_body: 'text', html_body: '<p>html</p>',
      ics: null, status: 'pending' as const, attempts: 0, next_attempt_at: new Date(START).toISOString(),
      created_at: new Date(START).toISOString(),
    }))).execute()
    const [mailsBefore, connectionsBefore] = [smtp.received.length, smtp.connections]
    while (await h.context.mail.runOnce() > 0);
    expect(smtp.received.slice(mailsBefore).map((mail) => mail.parsed.subject).sort())
      .toEqual(ids.map((_, i) => `Burst ${String(i)}`).sort())
    // A connection costs a TCP and SMTP handshake (about 100 ms); one per mail would fall behind a booking burst.
    expect(smtp.connections - connectionsBefore).toBeGreaterThan(1)
    expect(smtp.connections - connectionsBefore).toBeLessThanOrEqual(Math.min(h.context.config.mail.connections, ids.length - 1))
  })
})

describeEachDatabase('confirmation mail across a restart', (dialect) => {
  const smtp = new TestSmtpServer()
  let database: TestDatabase
  beforeAll(async () => {
    await smtp.start()
    database = await createTestDatabase(dialect)
  })
  afterAll(async () => {
    await smtp.stop()
    await database.drop()
  })

  const boot = async () => {
    const config = readConfig({ ...database.env, SMTP_URL: smtp.url, LOG_LEVEL: 'silent' })
    const clock = new ManualClock(START)
    const context = await createContext(config, { clock, migrate: true })
    return { context, clock, app: await buildApp(context, { logger: false }) }
  }
  const shutdown = async ({ app, context }: { app: { close(): Promise<void> }, context: AppContext }) => {
    await app.close()
    await context.close()
  }

  it('loses nothing when the server stops between booking and delivery, and sends once after', async () => {
    const first = await boot()
    const { importClubData } = await import('../../src/services/import.js')
    const { createClub } = await import('../../src/services/clubs.js')
    const club = await createClub(first.context.db, first.context.clock, { slug: 'restart', name: 'Restart', timezone: 'Europe/Berlin' })
    await importClubData(first.context.db, first.context.clock, club.id, { courts: [{ id: COURT.a, name: 'Court A' }] })
    const response = await first.app.inject({ method: 'POST', url: '/api/v1/public/restart/courts/book', payload: {
      court_id: COURT.a, start_time: at('08:00'), end_time: at('09:00'), booker_name: 'R', booker_email: 'r@example.org',
    } })
    expect(response.statusCode).toBe(201)
    await shutdown(first)
    expect(smtp.received).toHaveLength(0)

    const second = await boot()
    try {
      expect(await second.context.mail.runOnce()).toBe(1)
      expect(await second.context.mail.runOnce()).toBe(0)
      expect(smtp.received).toHaveLength(1)
    } finally {
      await shutdown(second)
    }
  })

  it('sends again, with the same Message-ID, a mail whose sender died mid-send, once its lease runs out', async () => {
    const server = await boot()
    try {
      const { db } = server.context
      const row = await db.selectFrom('mail_outbox').select(['id', 'message_id']).executeTakeFirstOrThrow()
      // As if an instance had claimed the mail and died before recording the outcome.
      await db.updateTable('mail_outbox').set({ status: 'sending', locked_until: new Date(START + 60_000).toISOString() })
        .where('id', '=', row.id).execute()
      expect(await server.context.mail.runOnce()).toBe(0)
      server.clock.advance(60_000)
      const before = smtp.received.length
      expect(await server.context.mail.runOnce()).toBe(1)
      expect(smtp.received.at(before)?.parsed.messageId).toBe(row.message_id)
    } finally {
      await shutdown(server)
    }
  })
})

describe('mail without SMTP', () => {
  it('writes each mail as an .eml file in DATA_DIR/mail', async () => {
    const h = await startHarness('sqlite')
    try {
      await setUpCourts(h, 'files')
      const response = await h.request({ method: 'POST', url: '/api/v1/public/files/courts/book', payload: {
        court_id: COURT.a, start_time: at('08:00'), end_time: at('09:00'), booker_name: 'F', booker_email: 'f@example.org',
      } })
      expect(response.status).toBe(201)
      expect(await h.context.mail.runOnce()).toBe(1)
      const dir = path.join(h.context.config.dataDir, 'mail')
      const files = await fs.readdir(dir)
      expect(files).toHaveLength(1)
      const eml = await fs.readFile(path.join(dir, files[0] ?? ''), 'utf8')
      expect(eml).toMatch(/^Message-ID: <[0-9a-f-]{36}@club-platform\.invalid>$/m)
      expect(eml).toContain(response.json<{ booking_id: string }>().booking_id)
      expect(eml).toContain('booking.ics')
      // The directory is made once; cleared by an operator meanwhile, it is made again for the next mail.
      await fs.rm(dir, { recursive: true })
      expect((await h.request({ method: 'POST', url: '/api/v1/public/files/courts/book', payload: {
        court_id: COURT.a, start_time: at('09:00'), end_time: at('10:00'), booker_name: 'F', booker_email: 'f@example.org',
      } })).status).toBe(201)
      expect(await h.context.mail.runOnce()).toBe(1)
      expect((await fs.readdir(dir)).filter((file) => file.endsWith('.eml'))).toHaveLength(1)
    } finally {
      await h.close()
    }
  })
})
