/**
 * The statements one booking sends, counted on each database, against the numbers the design
 * states (docs/bookings.md, "A booking's statements"): before the transaction, the
 * Idempotency-Key's record; in it, the court (on PostgreSQL with its row lock), one statement for
 * its holds and bookings, one for the club's rules, the address's standing and the webhook
 * endpoints, and the writes — on PostgreSQL one statement for all the rows
 * (src/db/insert-batch.ts). On PostgreSQL the statements compiled once run as named prepared
 * statements.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { bookingRulesOf } from '../../src/db/repositories/bookings.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { useHarness } from '../helpers/harness.js'

/** Before the transaction: the club by its slug, the Idempotency-Key's record. */
const BEFORE = 2
/**
 * In it, begin and commit included: the court (on PostgreSQL locked), its holds and bookings, the
 * rules, the address's standing and the club's webhook endpoints, and the rows — on SQLite an
 * insert each, on PostgreSQL one insert of all of them.
 */
const IN_TRANSACTION = { sqlite: 10, postgres: 6 }

describeEachDatabase('the statements of a booking', (dialect) => {
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    clubId = (await setUpCourts(h, 'riverside')).clubId
    const at = new Date(h.clock.now()).toISOString()
    await h.context.db.insertInto('webhook_endpoints').values({ id: randomUUID(), club_id: clubId, url: 'https://hooks.example/in',
      description: '', event_types: JSON.stringify(['booking.created']), enabled: true, disabled_reason: null, secret: 'whsec_x',
      previous_secret: null, previous_secret_until: null, failing_since: null, created_at: at, updated_at: at }).execute()
  }, { env: { RESPONSE_CACHE_MB: '0' } })

  const book = (hour: number, key: string) => harness.current.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book',
    headers: { 'idempotency-key': key }, payload: { court_id: COURT.allDay, start_time: `${TUESDAY}T${String(hour).padStart(2, '0')}:00:00+02:00`,
      end_time: `${TUESDAY}T${String(hour + 1).padStart(2, '0')}:00:00+02:00`, booker_name: 'Gina Guest', booker_email: `g${String(hour)}@example.org` } })

  it(`sends ${String(BEFORE)} before its transaction and ${String(IN_TRANSACTION[dialect])} in it, a webhook event and a mail included`, async () => {
    const h = harness.current
    expect((await book(8, 'warm')).status).toBe(201)
    h.statements.length = 0
    const made = await book(9, 'counted')
    expect(made.status, made.body).toBe(201)
    const texts = h.statements.map((statement) => statement.sql)
    const begin = texts.findIndex((text) => /^begin/i.test(text))
    const commit = texts.findIndex((text) => /^commit/i.test(text))
    expect(begin, texts.join('\n')).toBe(BEFORE)
    expect(commit - begin + 1, texts.join('\n')).toBe(IN_TRANSACTION[dialect])
    expect(texts, texts.join('\n')).toHaveLength(commit + 1)
    // The booking, its event, its idempotency record and its mail were written in it.
    const writes = /insert into "(webhook_messages|webhook_deliveries|mail_outbox|bookings|booking_requests)"/g
    expect(texts.slice(begin).flatMap((text) => [...text.matchAll(writes)].map((match) => match[1])).sort())
      .toEqual(['booking_requests', 'bookings', 'mail_outbox', 'webhook_deliveries', 'webhook_messages'])
  })

  it('runs the statements compiled once as named prepared statements on PostgreSQL', async () => {
    if (dialect === 'sqlite') return
    const h = harness.current
    // pg_prepared_statements lists the statements prepared on the connection that reads it: one transaction, one connection.
    const prepared = await h.context.db.transaction().execute(async (trx) => {
      await bookingRulesOf(trx, clubId)
      await bookingRulesOf(trx, clubId)
      await sql`select ${clubId}::uuid as club`.execute(trx)
      return (await sql<{ name: string, statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows
    })
    const rulesQuery = /^select "cancellation_deadline_minutes".* from "clubs" where "id" = \$1$/
    const rules = prepared.filter((row) => rulesQuery.test(row.statement))
    expect(rules, JSON.stringify(prepared)).toHaveLength(1)
    expect(rules[0]?.name).toMatch(/^club_platform_\d+$/)
    // A statement not compiled once runs unnamed: nothing of it is kept.
    expect(prepared.filter((row) => row.statement.includes('as club'))).toEqual([])
  })
})
