/**
 * Every query the service sends while it works — every GET route of both API documents, the
 * booking and its replay, the guest's page, the writes of the dashboard that touch bookings, and
 * the jobs (mail, webhooks, retention) — reads the large tables through an index: never a
 * sequential scan (PostgreSQL, with sequential scans priced out) nor a `SCAN` (SQLite) of
 * bookings, mails, webhook messages and deliveries, the audit log or idempotency records. A new
 * GET route is in the walk by itself; a new write or job joins WRITES or the jobs below.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import type { DialectName } from '../../src/db/dialect.js'
import type { Database } from '../../src/db/schema.js'
import { generateToken, hashToken } from '../../src/domain/secret-token.js'
import { applyRetention } from '../../src/services/retention.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { idFor } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

/** The tables that grow with a club's history. */
export const LARGE_TABLES = ['bookings', 'booking_requests', 'mail_outbox', 'webhook_messages', 'webhook_deliveries', 'audit_log',
  'waiting_list_entries'] as const

const DAY = 86_400_000
const HOURS = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))
const COURT = idFor('plans:court')
const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10)

interface Statement { readonly sql: string, readonly parameters: readonly unknown[] }

let explained = 0

/** The reads of a large table in a plan that are not bounded by an index condition, as `table: how`. */
export async function unboundedReads(db: Kysely<Database>, dialect: DialectName, statement: Statement): Promise<string[]> {
  const raw = (text: string) => ({ sql: text, parameters: statement.parameters, query: { kind: 'RawNode' } as never,
    queryId: { queryId: 'plan' } })
  if (dialect === 'sqlite') {
    // A text of its own each time: the connection keeps statements it prepared, and an EXPLAIN prepared before an index
    // was dropped would still describe it.
    explained += 1
    const rows = await db.executeQuery<{ detail: string }>(raw(`explain query plan ${statement.sql} -- ${String(explained)}`))
    return rows.rows.map((row) => row.detail).filter((detail) => {
      const scanned = /^SCAN (\w+)/.exec(detail)?.[1]
      return scanned !== undefined && (LARGE_TABLES as readonly string[]).includes(scanned)
    })
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx)
    const rows = await trx.executeQuery<{ 'QUERY PLAN': PlanNode[] | string }>(raw(`explain (format json) ${statement.sql}`))
    const document = rows.rows[0]?.['QUERY PLAN']
    const plans = (typeof document === 'string' ? JSON.parse(document) : document) as { Plan: PlanNode }[]
    const found: string[] = []
    const walk = (node: PlanNode) => {
      const table = node['Relation Name']
      const scan = node['Node Type']
      if (table !== undefined && (LARGE_TABLES as readonly string[]).includes(table)) {
        if (scan === 'Seq Scan') found.push(`${table}: Seq Scan`)
        if ((scan === 'Index Scan' || scan === 'Index Only Scan') && node['Index Cond'] === undefined) {
          found.push(`${table}: ${scan} of all of ${node['Index Name'] ?? 'an index'}`)
        }
      }
      if (scan === 'Bitmap Index Scan' && node['Index Cond'] === undefined) found.push(`${node['Index Name'] ?? ''}: all of it`)
      for (const child of node.Plans ?? []) walk(child)
    }
    for (const plan of plans) walk(plan.Plan)
    return found
  })
}

/** A statement's plan as text. */
async function planText(db: Kysely<Database>, dialect: DialectName, statement: Statement): Promise<string> {
  const raw = (text: string) => ({ sql: text, parameters: statement.parameters, query: { kind: 'RawNode' } as never,
    queryId: { queryId: 'plan' } })
  if (dialect === 'sqlite') {
    explained += 1
    const rows = await db.executeQuery<{ detail: string }>(raw(`explain query plan ${statement.sql} -- ${String(explained)}`))
    return rows.rows.map((row) => row.detail).join('\n')
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx)
    const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(raw(`explain ${statement.sql}`))
    return rows.rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  'Plans'?: PlanNode[]
}

/** Statements worth a plan: reads, changes and inserts from a select; not transaction control, settings or plain inserts. */
function planned(statements: readonly Statement[]): Statement[] {
  const seen = new Map<string, Statement>()
  for (const statement of statements) {
    const text = statement.sql.trim()
    if (!/^(select|update|delete|with|insert\b[\s\S]*\bselect\b)/i.test(text)) continue
    if (!LARGE_TABLES.some((table) => text.includes(`"${table}"`) || new RegExp(`\\b${table}\\b`).test(text))) continue
    if (!seen.has(text)) seen.set(text, statement)
  }
  return [...seen.values()]
}

describeEachDatabase('the plans of the service\'s work', (dialect) => {
  const work: Statement[] = []
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    for (const slug of ['riverside', 'hillside']) {
      const club = await h.createClub(slug)
      if (slug === 'riverside') clubId = club.id
      await importClubData(h.context.db, h.clock, club.id, {
        members: [{ id: idFor(`plans:${slug}:member`), name: 'Mara Member', email: `mara@${slug}.example` }],
        courts: [{ id: slug === 'riverside' ? COURT : idFor(`plans:${slug}:court`), name: 'Court 1', booking_horizon_days: 30,
          max_slots_per_booking: 4, opening_hours: HOURS }],
      })
      await seedHistory(h, club.id, slug === 'riverside' ? COURT : idFor(`plans:${slug}:court`))
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h.context.db)
    h.statements.length = 0
    await walk(h, clubId)
    work.push(...h.statements)
  }, { env: { RESPONSE_CACHE_MB: '0', PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', BOOKING_MAX_OPEN_PER_EMAIL: '50' },
    webhookResolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) })

  it('reads bookings, mails, webhooks, the audit log and idempotency records through an index, in every query', async () => {
    const h = harness.current
    const statements = planned(work)
    // The walk reached the queries it is about: the booking's checks, the day's listing, the jobs' claims and removals.
    for (const expected of [/from "bookings"/, /from "mail_outbox"/, /from "webhook_deliveries"/, /from "audit_log"/,
      /from "booking_requests"/, /delete from "mail_outbox"/, /delete from "booking_requests"/,
      // The private calendar feed's window of bookings.
      /"bookings"\."calendar_sequence"/]) {
      expect(statements.some((statement) => expected.test(statement.sql)), String(expected)).toBe(true)
    }
    expect(statements.length).toBeGreaterThan(40)
    const faults: string[] = []
    for (const statement of statements) {
      const reads = await unboundedReads(h.context.db, dialect, statement)
      if (reads.length > 0) faults.push(`${reads.join(', ')}\n    ${statement.sql}`)
    }
    expect(faults, faults.join('\n')).toEqual([])
  })

  it('reads a court\'s bookings of the requested days alone, and a club\'s bookings by their start', async () => {
    const h = harness.current
    const statements = planned(work)
    // The bookings' part of a court's occupancy (its holds and bookings, one statement).
    const courtDays = /union all select "id", "court_id", 'booking' as "kind", "starts_at", "ends_at"[\s\S]* from "bookings"/
    const clubDays = /from "bookings" inner join "courts"[\s\S]*"bookings"\."starts_at" >= /
    const occupancy = statements.filter((statement) => courtDays.test(statement.sql))
    const byStart = statements.filter((statement) => clubDays.test(statement.sql))
    expect(occupancy.length).toBeGreaterThanOrEqual(1)
    expect(byStart.length).toBeGreaterThanOrEqual(2)
    for (const statement of occupancy) {
      const plan = await planText(h.context.db, dialect, statement)
      // Both ends of the range bound the index search: not every booking that started before the window's end.
      expect(plan, statement.sql).toMatch(dialect === 'sqlite'
        ? /bookings_(court|club_start)_idx \((court|club)_id=\? AND starts_at>\? AND starts_at<\?\)/
        : /bookings_(court|club_start)_idx[\s\S]*Index Cond: .*starts_at > .*starts_at < /)
    }
    for (const statement of byStart) expect(await planText(h.context.db, dialect, statement), statement.sql).toContain('bookings_club_start_idx')
  })

  it('fails when an index the work needs is gone', async () => {
    const h = harness.current
    const statements = planned(work)
    const scansWithout = async (index: string) => {
      await sql`drop index ${sql.ref(index)}`.execute(h.context.db)
      const found: string[] = []
      for (const statement of statements) found.push(...await unboundedReads(h.context.db, dialect, statement))
      return found
    }
    expect((await scansWithout('mail_outbox_booking_idx')).join('\n')).toMatch(/mail_outbox/)
    expect((await scansWithout('booking_requests_booking_idx')).join('\n')).toMatch(/booking_requests/)
  })
})

/**
 * Two years of a club's past as the large tables hold it: bookings (some anonymised), their mails and requests, notices,
 * audit. */
async function seedHistory(h: Harness, clubId: string, courtId: string): Promise<void> {
  const iso = (at: number) => new Date(at).toISOString()
  const bookings = Array.from({ length: 240 }, (_, i) => {
    const starts = START - (730 - i * 3) * DAY
    return { id: randomUUID(), club_id: clubId, court_id: courtId, starts_at: iso(starts), ends_at: iso(starts + 3_600_000),
      booker_name: i % 2 === 0 ? 'Old Guest' : '', booker_email: i % 2 === 0 ? `old${String(i)}@example.org` : '', member_id: null,
      notes: null, created_at: iso(starts - DAY), status: 'confirmed' as const, cancelled_at: null, cancelled_by: null, cancel_reason: null,
      manage_token_hash: null, anonymised_at: i % 2 === 0 ? null : iso(starts + 100 * DAY) }
  })
  const mail = (bookingId: string | null, at: number) => {
    const id = randomUUID()
    return { id, club_id: clubId, booking_id: bookingId, message_id: `<${id}@plans.example>`, recipient_name: 'Guest',
      recipient_email: `${id}@example.org`, subject: 'Booking', text_body: 'text', html_body: '<p>html</p>', ics: null,
      status: 'sent' as const, attempts: 1, next_attempt_at: iso(at), locked_until: null, last_error: null, created_at: iso(at), sent_at: iso(at) }
  }
  const mails = [...bookings.filter((_, i) => i % 2 === 0).map((booking) => mail(booking.id, Date.parse(booking.created_at))),
    ...Array.from({ length: 100 }, (_, i) => mail(null, START - (700 - i * 7) * DAY))]
  const requests = bookings.filter((_, i) => i % 2 === 0).map((booking) => ({ club_id: clubId, idempotency_key: randomUUID(),
    request_hash: 'x', booking_id: booking.id, created_at: booking.created_at }))
  const audit = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), club_id: clubId, actor_admin_id: null,
    actor: 'owner@example.org', action: 'booking.cancelled', kind: 'booking', target: 'x', address: null, fields: null,
    target_name: 'x', detail: null, created_at: iso(START - (700 - i * 7) * DAY) }))
  const db = h.context.db
  for (let i = 0; i < bookings.length; i += 100) await db.insertInto('bookings').values(bookings.slice(i, i + 100)).execute()
  for (let i = 0; i < mails.length; i += 100) await db.insertInto('mail_outbox').values(mails.slice(i, i + 100)).execute()
  await db.insertInto('booking_requests').values(requests).execute()
  await db.insertInto('audit_log').values(audit).execute()
}

/** The service's work: every GET route, the booking and the guest's page, the dashboard's writes on bookings, and the jobs. */
async function walk(h: Harness, clubId: string): Promise<void> {
  const tomorrow = dateOf(START + DAY)
  const at = (time: string) => `${tomorrow}T${time}:00+02:00`
  const key = (await h.createKey(clubId)).key
  const owner = await signedIn(h, clubId, 'owner@riverside.example', 'owner')
  const as = asSession(h, owner)
  const ok = async (response: Promise<{ status: number, body: string }>, what: string) => {
    const answer = await response
    expect(answer.status, `${what}: ${answer.body}`).toBeLessThan(300)
    return answer
  }

  // The guest's booking, its replay, a conflict, and the guest's page with its cancellation.
  const booking = { court_id: COURT, start_time: at('10:00'), end_time: at('11:00'), booker_name: 'Gina Guest',
    booker_email: 'gina@example.org', notes: 'racket' }
  const idempotency = { 'idempotency-key': randomUUID() }
  const made = await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: booking, headers: idempotency }),
    'booking')
  await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: booking, headers: idempotency }), 'replay')
  const conflict = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book',
    payload: { ...booking, booker_email: 'gil@example.org' } })
  expect(conflict.json<{ type: string }>().type, conflict.body).toMatch(/slot-conflict$/)
  const bookingId = (JSON.parse(made.body) as { booking_id: string }).booking_id
  await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { ...booking, start_time: at('12:00'),
    end_time: at('13:00') } }), 'second booking')
  // Someone waits for the booked time (and stops, and waits again); the cancellation below frees it and mails them.
  const wait = { court_id: COURT, start_time: at('10:00'), end_time: at('11:00'), name: 'Walter Waiting', email: 'walter@example.org' }
  await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/waitlist', payload: wait }), 'waiting list')
  const { stop_token: stop } = await h.context.db.selectFrom('waiting_list_entries').select('stop_token')
    .where('email', '=', wait.email).executeTakeFirstOrThrow()
  expect((await h.app.inject({ url: `/waiting-list/${stop}` })).statusCode).toBe(200)
  expect((await h.app.inject({ method: 'POST', url: `/waiting-list/${stop}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBe(303)
  await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/waitlist', payload: wait }), 'waiting again')
  const token = generateToken('manage')
  await h.context.db.updateTable('bookings').set({ manage_token_hash: hashToken(token) }).where('id', '=', bookingId).execute()
  expect((await h.app.inject({ url: `/bookings/manage/${token}` })).statusCode).toBe(200)
  expect((await h.app.inject({ method: 'POST', url: `/bookings/manage/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBeLessThan(400)

  // The dashboard: a webhook endpoint with a delivery, a hold that displaces a booking, a cancellation, export and erasure.
  const endpoint = (JSON.parse((await ok(as('POST', `/api/admin/v1/clubs/riverside/webhook-endpoints`,
    { url: 'https://hooks.example/in', event_types: ['booking.created', 'booking.cancelled'] }), 'endpoint')).body) as
    { endpoint: { id: string } }).endpoint.id
  const delivery = (JSON.parse((await ok(as('POST', `/api/admin/v1/clubs/riverside/webhook-endpoints/${endpoint}/test`, {}), 'test'))
    .body) as { id: string }).id
  const third = (JSON.parse((await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { ...booking,
    start_time: at('15:00'), end_time: at('16:00') } }), 'third booking')).body) as { booking_id: string }).booking_id
  await ok(as('POST', `/api/admin/v1/clubs/riverside/bookings/${third}/cancel`, { reason: 'Court repairs' }), 'cancel')
  const hold = (JSON.parse((await ok(as('POST', `/api/admin/v1/clubs/riverside/courts/${COURT}/holds`, { kind: 'block',
    starts_at: at('12:00'), ends_at: at('14:00'), cancel_displaced_bookings: true }), 'hold')).body) as { id: string }).id
  await ok(as('PUT', '/api/admin/v1/clubs/riverside/booking-rules', { cancellation_deadline_minutes: 60, retention_days: 30,
    privacy_url: null, max_open_bookings_per_email: null, guests_may_book: true }), 'rules')
  await ok(as('POST', '/api/admin/v1/clubs/riverside/personal-data/export', { email: 'old0@example.org' }), 'export')
  await ok(as('POST', '/api/admin/v1/clubs/riverside/personal-data/erase', { email: 'old2@example.org' }), 'erase')

  // A private calendar feed of the club's bookings (its address, read below with every GET route).
  const feedUrl = (JSON.parse((await ok(as('POST', '/api/admin/v1/clubs/riverside/calendar-feeds', { name: 'Office', show_names: true }),
    'calendar feed')).body) as { url: string }).url

  // Every GET route of both documents, with the club's own ids and a range where one is asked for.
  const ids: Record<string, string> = { club: 'riverside', clubSlug: 'riverside', court: COURT, booking: bookingId, hold, endpoint,
    delivery, kind: 'not-found', file: feedUrl.split('/').at(-1) ?? '' }
  const queries: Record<string, string> = { date: tomorrow, from: dateOf(START - 300 * DAY), to: dateOf(START + 30 * DAY), q: 'gina' }
  for (const documentUrl of ['/api/v1/openapi.json', '/api/admin/v1/openapi.json']) {
    const document = (await h.app.inject({ url: documentUrl })).json<{ paths: Record<string, Record<string, Operation>> }>()
    for (const [path, item] of Object.entries(document.paths)) {
      const get = item.get
      if (get === undefined || /\{(key|admin|invitation|passkey|session|member|group|event|news|result)\}/.test(path)) continue
      // A stream of events stays open; what it reads is the change feed's, not a large table.
      if (get.responses?.['200']?.content?.['text/event-stream'] !== undefined) continue
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name)
      const search = (get.parameters ?? []).filter((parameter) => parameter.in === 'query' && queries[parameter.name] !== undefined)
        .map((parameter) => `${parameter.name}=${queries[parameter.name] ?? ''}`).join('&')
      await ok(h.request({ url: search === '' ? url : `${url}?${search}`, key,
        headers: { origin: ORIGIN, cookie: `__Host-cp_session=${owner}` } }), `GET ${url}`)
    }
  }
  await ok(as('POST', `/api/admin/v1/clubs/riverside/webhook-endpoints/${endpoint}/deliveries/${delivery}/replay`, {}), 'replay delivery')
  // The hold removed: the times it held are free (and whoever waits for them is told).
  await ok(h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/waitlist', payload: { ...wait, start_time: at('13:00'),
    end_time: at('14:00') } }), 'waiting for a held time')
  await ok(as('DELETE', `/api/admin/v1/clubs/riverside/courts/${COURT}/holds/${hold}`), 'hold removed')

  // The jobs: mail and webhooks sent, and retention past the club's period (bookings to anonymise, notices, old requests).
  while (await h.context.mail.runOnce() > 0);
  await h.context.webhooks.runOnce()
  await applyRetention(h.context.db, h.clock.now())
  h.clock.advance(2 * DAY)
  await applyRetention(h.context.db, h.clock.now())
}

interface Operation {
  parameters?: { name: string, in: string }[]
  responses?: Record<string, { content?: Record<string, unknown> }>
}
