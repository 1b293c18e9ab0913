/**
 * A unit of work's inserts, written together when the change ends (src/db/insert-batch.ts): on
 * PostgreSQL one statement for all of them, on SQLite one each; all or none of them stay, and a
 * row may reference one inserted beside it.
 */
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { renumbered } from '../../src/db/insert-batch.js'
import { write } from '../../src/services/unit-of-work.js'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { useHarness } from '../helpers/harness.js'

const ACTOR = { adminId: null, label: 'operator', address: null }

it('moves each parameter past the ones before it, and leaves quoted text alone', () => {
  expect(renumbered(`insert into "t" ("a", "b$1") values ($1, '$2 it''s $3', $12)`, 10))
    .toBe(`insert into "t" ("a", "b$1") values ($11, '$2 it''s $3', $22)`)
  expect(renumbered('insert into "t" values ($1)', 0)).toBe('insert into "t" values ($1)')
})

describeEachDatabase('a unit of work\'s inserts', (dialect) => {
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    clubId = (await setUpCourts(h, 'riverside')).clubId
  })

  const count = async (table: 'audit_log' | 'mail_outbox' | 'bookings', db = harness.current.context.db) => Number((await db
    .selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('club_id', '=', clubId).executeTakeFirstOrThrow()).n)
  const counts = async () => ({ audits: await count('audit_log'), mails: await count('mail_outbox'), bookings: await count('bookings') })
  const mail = { clubId: '', bookingId: null, recipientName: 'Gina', recipientEmail: 'gina@example.org', subject: 'Hello', text: 'Hi',
    html: '<p>Hi</p>', ics: null }

  it(`are written ${dialect === 'postgres' ? 'as one statement' : 'one by one'} when the change ends, after its other statements`,
    async () => {
      const h = harness.current
      const before = await counts()
      h.statements.length = 0
      await write(h.context.db, h.clock.now(), async (work) => {
        await work.audit(ACTOR, clubId, { action: 'club.updated', target: clubId })
        await work.mail({ ...mail, clubId }, 'Club Platform <no-reply@club-platform.example>')
        await work.audit(ACTOR, clubId, { action: 'club.updated', target: clubId, detail: 'second' })
        // Not yet written: the change reads nothing it appended.
        expect(await count('audit_log', work.db)).toBe(before.audits)
      })
      expect(await counts()).toEqual({ ...before, audits: before.audits + 2, mails: before.mails + 1 })
      const inserts = h.statements.filter((statement) => /^(with|insert)/.test(statement.sql))
      expect(inserts.map((statement) => statement.sql.match(/insert into "\w+"/g)?.join(', ')))
        .toEqual(dialect === 'postgres'
          ? ['insert into "audit_log", insert into "mail_outbox", insert into "audit_log"']
          : ['insert into "audit_log"', 'insert into "mail_outbox"', 'insert into "audit_log"'])
    })

  it('leave nothing when one of them fails, and a row may reference one inserted beside it', async () => {
    const h = harness.current
    const court = COURT.allDay
    const before = await counts()
    const booking = (id: string) => h.context.db.insertInto('bookings').values({ id, club_id: clubId, court_id: court,
      starts_at: '2030-01-01T10:00:00.000Z', ends_at: '2030-01-01T11:00:00.000Z', booker_name: 'Gina', booker_email: 'gina@example.org',
      member_id: null, notes: null, created_at: '2029-12-01T10:00:00.000Z', manage_token_hash: randomUUID() }).compile()
    const request = (bookingId: string) => h.context.db.insertInto('booking_requests').values({ club_id: clubId, idempotency_key: 'k',
      request_hash: 'h', booking_id: bookingId, created_at: '2029-12-01T10:00:00.000Z' }).compile()
    const first = randomUUID()
    const second = randomUUID()
    // The same Idempotency-Key twice: the second record fails, and takes the booking, the mail and the audit entry with it.
    await expect(write(h.context.db, h.clock.now(), async (work) => {
      work.insert(booking(first))
      await work.mail({ ...mail, clubId, bookingId: first }, 'Club Platform <no-reply@club-platform.example>')
      await work.audit(ACTOR, clubId, { action: 'booking.created', target: first })
      work.insert(request(first))
      work.insert(request(first))
    })).rejects.toThrow()
    expect(await counts()).toEqual(before)
    // The mail and the record reference the booking written in the same statement.
    await write(h.context.db, h.clock.now(), async (work) => {
      work.insert(booking(second))
      await work.mail({ ...mail, clubId, bookingId: second }, 'Club Platform <no-reply@club-platform.example>')
      work.insert(request(second))
    })
    expect((await h.context.db.selectFrom('mail_outbox').select('booking_id').where('booking_id', '=', second).execute()))
      .toHaveLength(1)
    expect(await counts()).toEqual({ ...before, mails: before.mails + 1, bookings: before.bookings + 1 })
  })

  it('are split into statements PostgreSQL can take when they hold very many values', async () => {
    const h = harness.current
    const before = await counts()
    h.statements.length = 0
    // 3,000 entries of 11 values each: more than one statement's 65,535 parameters would allow at twice the size.
    await write(h.context.db, h.clock.now(), async (work) => {
      for (let i = 0; i < 3000; i++) await work.audit(ACTOR, clubId, { action: 'club.updated', target: String(i) })
    })
    expect(await counts()).toEqual({ ...before, audits: before.audits + 3000 })
    const inserts = h.statements.filter((statement) => /^(with|insert)/.test(statement.sql))
    if (dialect === 'postgres') {
      expect(inserts.length).toBe(2)
      for (const statement of inserts) expect(statement.parameters.length).toBeLessThanOrEqual(30_000)
    } else {
      expect(inserts.length).toBe(3000)
    }
  })
})
