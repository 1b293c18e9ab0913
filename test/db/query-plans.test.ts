/**
 * Each list query must be an index range scan of one club in the order the API returns, on both
 * databases: no full scan, no sort step. Checked on the exact SQL the endpoints run. The mail
 * worker's claim reads only the batch it claims, however many mails wait.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { listCompetitionResultsJson } from '../../src/db/repositories/listings.js'
import { claimDueMails } from '../../src/db/repositories/outbox.js'
import { ResultAnchors } from '../../src/db/repositories/result-anchors.js'
import type { Database } from '../../src/db/schema.js'
import { isoForDb } from '../../src/db/values.js'
import { LIST_READS, readListBody } from '../../src/speed/list-reads.js'
import { dashboardSettings } from '../../src/http/dashboard-access.js'
import { inviteAdmin } from '../../src/services/admins.js'
import { OPERATOR, auditLog } from '../../src/services/audit.js'
import { write } from '../../src/services/unit-of-work.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { clubFixture } from '../helpers/fixtures.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'
import { START, useHarness } from '../helpers/harness.js'

const LISTS = LIST_ENDPOINTS.map(({ path, index }) => [path, index] as const)
const AREAS = LIST_ENDPOINTS.map(({ listing, index }) => [listing, index] as const)

const notAScan = /\bSort\b|TEMP B-TREE|Seq Scan|SCAN (groups|events|news|competition_results)\b(?! USING)/

describeEachDatabase('list query plans', (dialect) => {
  let key = ''
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    for (const slug of ['one', 'two', 'three']) {
      const club = await h.createClub(slug)
      await importClubData(h.context.db, h.clock, club.id, clubFixture(slug, START, 3))
      key = (await h.createKey(club.id)).key
      clubId = club.id
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h.context.db)
    // These tests are about the SQL: every request must reach the database.
  }, { env: { RESPONSE_CACHE_MB: '0' } })

  it.each(LISTS)('%s reads %s in order', async (url, index) => {
    const h = harness.current
    await h.request({ url, key })
    h.statements.length = 0
    await h.request({ url: `${url}?limit=5&offset=3`, key })
    const page = h.statements.find((statement) => /\blimit\b/i.test(statement.sql) && !/count\(/i.test(statement.sql))
    const count = h.statements.find((statement) => /count\(/i.test(statement.sql))
    expect(page).toBeDefined()
    expect(count).toBeDefined()
    const pagePlan = await explain(page?.sql ?? '', page?.parameters ?? [])
    expect(pagePlan, page?.sql).toContain(index)
    expect(pagePlan, page?.sql).not.toMatch(notAScan)
    // The count may use any index that starts with club_id; it must not scan the table.
    const countPlan = await explain(count?.sql ?? '', count?.parameters ?? [])
    expect(countPlan, count?.sql).toMatch(/club_id/)
    expect(countPlan, count?.sql).not.toMatch(notAScan)
  })

  // The pages the list reader threads read as JSON (src/db/json-pages.ts), SQLite's alone.
  it.each(AREAS)('%s as JSON reads %s in order', async (area, index) => {
    if (dialect === 'postgres') return
    const h = harness.current
    h.statements.length = 0
    await readListBody(LIST_READS[area], h.context.db, clubId, { limit: 5, offset: 3 }, h.clock.now(), undefined, undefined)
    const page = h.statements.find((statement) => /json_group_array/.test(statement.sql))
    expect(page).toBeDefined()
    const plan = await explain(page?.sql ?? '', page?.parameters ?? [])
    expect(plan, page?.sql).toContain(index)
    expect(plan, page?.sql).not.toMatch(notAScan)
  })

  // A deep page of results read from a keyset anchor (src/db/repositories/result-anchors.ts): the index is searched for
  // the anchor's date, not walked from the club's first result.
  it('reads results from a keyset anchor by searching the index for its date', async () => {
    if (dialect === 'postgres') return
    const h = harness.current
    h.statements.length = 0
    const anchors = new ResultAnchors(2)
    const page = { limit: 2, offset: 5 }
    const read = await anchors.page(h.context.db, clubId, 1, page)
    expect(read).toBe((await listCompetitionResultsJson(h.context.db, clubId, page)).json)
    const fromAnchor = h.statements.filter((statement) => /"competition_date" <= \?/.test(statement.sql))
    // The second anchor, found from the first, and the page read from it.
    expect(fromAnchor).toHaveLength(2)
    for (const statement of fromAnchor) {
      const plan = await explain(statement.sql, statement.parameters)
      expect(plan, statement.sql).toContain('competition_results_listing_idx (club_id=? AND competition_date<?)')
      expect(plan, statement.sql).not.toMatch(notAScan)
    }
  })

  it('finds the next scheduled news item by index', async () => {
    const h = harness.current
    await sql`select 1`.execute(h.context.db)
    h.statements.length = 0
    await h.request({ url: '/api/v1/news', key })
    const next = h.statements.find((statement) => /published_at" >/i.test(statement.sql))
    expect(next).toBeDefined()
    const plan = await explain(next?.sql ?? '', next?.parameters ?? [])
    expect(plan, next?.sql).toContain('news_listing_idx')
    expect(plan, next?.sql).not.toMatch(/\bSort\b|TEMP B-TREE|Seq Scan|SCAN news\b(?! USING)/)
  })

  const explain = (query: string, parameters: readonly unknown[]) =>
    explainOn(harness.current.context.db, dialect, query, parameters)
})

describeEachDatabase('the mail worker\'s claim', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    const club = await h.createClub('busy')
    const mail = (status: 'pending' | 'sending' | 'sent', minutes: number) => {
      const id = randomUUID()
      const at = new Date(START + minutes * 60_000).toISOString()
      return { id, club_id: club.id, booking_id: null, message_id: `<${id}@busy.example>`, recipient_name: 'Guest',
        recipient_email: `${id}@example.org`, subject: 'Booking', text_body: 'text', html_body: '<p>html</p>', ics: null, status,
        attempts: status === 'pending' ? 0 : 1, next_attempt_at: at, locked_until: status === 'sending' ? at : null, created_at: at }
    }
    // A backlog as a booking burst leaves it: many pending, some sent, one abandoned by a dead worker, one held by a live one.
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => mail('pending', -300 + i)),
      ...Array.from({ length: 200 }, (_, i) => mail('sent', -600 + i)),
      ...Array.from({ length: 20 }, (_, i) => mail('pending', 5 + i)),
      { ...mail('sending', -1), next_attempt_at: new Date(START - 3_600_000).toISOString(), subject: 'abandoned' },
      { ...mail('sending', 1), subject: 'held' },
    ]
    for (let i = 0; i < rows.length; i += 100) await h.context.db.insertInto('mail_outbox').values(rows.slice(i, i + 100)).execute()
    if (dialect === 'postgres') await sql`analyze`.execute(h.context.db)
  })

  it('claims the abandoned mail, then the oldest due ones, reading by index range and primary key', async () => {
    const h = harness.current
    h.statements.length = 0
    const claimed = await claimDueMails(h.context.db, START, START + 15_000, 10)
    expect(claimed.map((mail) => mail.subject)).toEqual(['abandoned', ...Array.from({ length: 9 }, () => 'Booking')])
    const due = claimed.slice(1).map((mail) => Date.parse(isoForDb(mail.next_attempt_at)))
    expect(due).toEqual(Array.from({ length: 9 }, (_, i) => START + (-300 + i) * 60_000))
    expect(claimed.every((mail) => mail.status === 'sending' && mail.attempts >= 1)).toBe(true)

    const selects = h.statements.filter((statement) => /^select/i.test(statement.sql))
    const update = h.statements.find((statement) => /^update/i.test(statement.sql))
    expect(selects).toHaveLength(2)
    for (const select of selects) {
      const plan = await explainOn(h.context.db, dialect, select.sql, select.parameters)
      expect(plan, select.sql).toContain('mail_outbox_due_idx')
      expect(plan, select.sql).not.toMatch(/\bSort\b|TEMP B-TREE|Seq Scan|SCAN mail_outbox\b(?! USING)|MULTI-INDEX OR/)
    }
    const plan = await explainOn(h.context.db, dialect, update?.sql ?? '', update?.parameters ?? [])
    expect(plan, update?.sql).toMatch(dialect === 'sqlite' ? /sqlite_autoindex_mail_outbox_1 \(id=\?\)/ : /mail_outbox_pkey/)
    expect(plan, update?.sql).not.toMatch(/mail_outbox_due_idx|Seq Scan|MULTI-INDEX OR/)
  })

  it('leaves mails not yet due and mails under a live lease alone', async () => {
    const h = harness.current
    while ((await claimDueMails(h.context.db, START, START + 15_000, 10)).length > 0);
    const rows = await h.context.db.selectFrom('mail_outbox').select(['status', 'subject', 'locked_until', 'attempts'])
      .where('status', '!=', 'sent').execute()
    const lease = (row: { locked_until: string | Date | null }) =>
      row.locked_until === null ? null : Date.parse(isoForDb(row.locked_until))
    const byState = (status: string, until: number | null) => rows.filter((row) => row.status === status && lease(row) === until)
    expect(byState('sending', START + 15_000)).toHaveLength(301)
    expect(byState('pending', null)).toHaveLength(20)
    expect(byState('sending', START + 60_000).map((row) => [row.subject, row.attempts])).toEqual([['held', 1]])
    expect(rows).toHaveLength(322)
  })
})

describeEachDatabase('the invitation limits\' counts', (dialect) => {
  const harness = useHarness(dialect)

  it('count one address\'s and one club\'s invitations of the day by index', async () => {
    const h = harness.current
    const clubs = await Promise.all(['one', 'two', 'three'].map((slug) => h.createClub(slug)))
    for (const [i, club] of clubs.entries()) {
      for (let n = 0; n < 3; n++) {
        await inviteAdmin(h.context.db, h.clock, dashboardSettings(h.context), { clubId: club.id,
          email: `p${String(i * 3 + n)}@example.org`, role: 'editor', actor: OPERATOR })
      }
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h.context.db)
    h.statements.length = 0
    await inviteAdmin(h.context.db, h.clock, dashboardSettings(h.context), { clubId: clubs[0]?.id ?? '', email: 'new@example.org',
      role: 'editor', actor: OPERATOR })
    const counts = h.statements.filter((statement) => /count\(\*\)/i.test(statement.sql) && statement.sql.includes('admin_invitations'))
    expect(counts).toHaveLength(2)
    const plans = await Promise.all(counts.map((count) => explainOn(h.context.db, dialect, count.sql, count.parameters)))
    expect(plans.find((plan) => plan.includes('admin_invitations_email_idx')), plans.join('\n')).toBeDefined()
    expect(plans.find((plan) => plan.includes('admin_invitations_club_idx')), plans.join('\n')).toBeDefined()
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan|SCAN admin_invitations\b(?! USING)/)
  })
})

describeEachDatabase('the audit log\'s reads', (dialect) => {
  const harness = useHarness(dialect)

  it('read one club\'s entries, by kind or by actor, newest first, through an index', async () => {
    const h = harness.current
    const clubs = await Promise.all(['one', 'two'].map((slug) => h.createClub(slug)))
    for (const club of clubs) {
      for (let i = 0; i < 40; i++) {
        await write(h.context.db, START + i * 60_000, (work) => work.audit({ adminId: null,
          label: `person${String(i % 4)}@example.org`, address: null }, club.id,
        { action: ['court.changed', 'booking.cancelled', 'api_key.created', 'group.created'][i % 4] ?? 'x', target: 'x' }))
      }
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h.context.db)
    for (const [filter, index] of [[{ kind: 'booking' }, 'audit_log_kind_idx'], [{ actor: 'person1@example.org' }, 'audit_log_actor_idx'],
      [{ from: START, before: START + 3_600_000 }, 'audit_log_club_idx']] as const) {
      h.statements.length = 0
      const entries = await auditLog(h.context.db, clubs[0]?.id, filter)
      expect(entries.length, JSON.stringify(filter)).toBeGreaterThan(0)
      const read = h.statements.find((statement) => /from "audit_log"/.test(statement.sql))
      const plan = await explainOn(h.context.db, dialect, read?.sql ?? '', read?.parameters ?? [])
      expect(plan, JSON.stringify(filter)).toContain(index)
      expect(plan, JSON.stringify(filter)).not.toMatch(/Seq Scan|SCAN audit_log\b(?! USING)/)
    }
  })
})

async function explainOn(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', query: string, parameters: readonly unknown[]): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await db.executeQuery<{ detail: string }>(
      { sql: `explain query plan ${query}`, parameters, query: { kind: 'RawNode' } as never, queryId: { queryId: 'plan' } })
    return rows.rows.map((row) => row.detail).join('\n')
  }
  // On small test tables a sequential or bitmap scan plus a sort is cheapest. Forbid them: a Sort or Seq
  // Scan that remains means no index can serve the query in order.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx)
    await sql`set local enable_bitmapscan = off`.execute(trx)
    await sql`set local enable_sort = off`.execute(trx)
    const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      { sql: `explain ${query}`, parameters, query: { kind: 'RawNode' } as never, queryId: { queryId: 'plan' } })
    return rows.rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}
