/**
 * Each list query must be an index range scan of one club in the order the API returns, on both
 * databases: no full scan, no sort step. Checked on the exact SQL the endpoints run.
 */
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { importClubData } from '../src/services/import.js'
import { describeEachDatabase } from './helpers/databases.js'
import { clubFixture } from './helpers/fixtures.js'
import { START, useHarness } from './helpers/harness.js'

const LISTS = [
  ['/api/v1/groups', 'groups_listing_idx'],
  ['/api/v1/events', 'events_listing_idx'],
  ['/api/v1/news', 'news_listing_idx'],
  ['/api/v1/competition-results', 'competition_results_listing_idx'],
] as const

describeEachDatabase('list query plans', (dialect) => {
  let key = ''
  const harness = useHarness(dialect, async (h) => {
    for (const slug of ['one', 'two', 'three']) {
      const club = await h.createClub(slug)
      await importClubData(h.context.db, h.clock, club.id, clubFixture(slug, START, 3))
      key = (await h.createKey(club.id)).key
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
    const notAScan = /\bSort\b|TEMP B-TREE|Seq Scan|SCAN (groups|events|news|competition_results)\b(?! USING)/
    const pagePlan = await explain(page?.sql ?? '', page?.parameters ?? [])
    expect(pagePlan, page?.sql).toContain(index)
    expect(pagePlan, page?.sql).not.toMatch(notAScan)
    // The count may use any index that starts with club_id; it must not scan the table.
    const countPlan = await explain(count?.sql ?? '', count?.parameters ?? [])
    expect(countPlan, count?.sql).toMatch(/club_id/)
    expect(countPlan, count?.sql).not.toMatch(notAScan)
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

  async function explain(query: string, parameters: readonly unknown[]): Promise<string> {
    const db = harness.current.context.db
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
})
