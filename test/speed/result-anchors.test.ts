/**
 * A page of competition results read from a keyset anchor (src/db/repositories/result-anchors.ts,
 * on the list reader threads) is the very page read by offset: for any results a club holds —
 * dates and recording times shared by many, undated ones after the dated, none at all — at any
 * limit and offset, with anchors every few results, found afresh when the data version changes.
 * Pages that the anchors cannot serve (within the first anchor's distance, or reaching undated
 * results) are left to the offset; the rest are read from an anchor, or the test would prove nothing.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { listCompetitionResultsJson } from '../../src/db/repositories/listings.js'
import { ResultAnchors } from '../../src/db/repositories/result-anchors.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { START, useHarness } from '../helpers/harness.js'

const DATES = ['2026-05-01', '2026-04-30', '2025-12-31'] as const
const RECORDED = [START, START - 1, START - 60_000].map((ms) => new Date(ms).toISOString())

describeEachDatabase('pages of results read from keyset anchors', (dialect) => {
  if (dialect !== 'sqlite') {
    it('are SQLite\'s alone: the reader threads that read them run on SQLite only', () => {
      expect(dialect).toBe('postgres')
    })
    return
  }
  const harness = useHarness(dialect)

  it('are the pages read by offset, whatever the results and wherever the page', async () => {
    const h = harness.current
    const db = h.context.db
    const club = await h.createClub('anchors')
    const at = new Date(START).toISOString()
    const member = '00000001-0001-4000-a000-000000000000'
    const group = '00000001-0002-4000-a000-000000000000'
    await db.insertInto('members').values({ id: member, club_id: club.id, name: 'M', email: 'm@example.org', created_at: at })
      .execute()
    await db.insertInto('groups').values({ id: group, club_id: club.id, name: 'G', sport: 's', active: true, created_at: at })
      .execute()
    let version = 0
    let anchored = 0
    let byOffset = 0
    // One thread's anchors across every run: each run's data is a new version, whose anchors are found afresh.
    const anchorsBy = new Map<number, ResultAnchors>()
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ date: fc.option(fc.constantFrom(...DATES), { nil: null, freq: 6 }),
        recorded: fc.constantFrom(...RECORDED),
        // Ids in any order against the other keys: the id breaks the ties.
        rank: fc.integer({ min: 0, max: 999_999 }) }), { maxLength: 60, size: 'max' }),
      fc.integer({ min: 1, max: 7 }),
      fc.array(fc.record({ limit: fc.integer({ min: 1, max: 12 }), offset: fc.integer({ min: 0, max: 70 }) }), { minLength: 1,
        maxLength: 12 }),
      async (results, every, pages) => {
        version++
        await db.deleteFrom('competition_results').where('club_id', '=', club.id).execute()
        if (results.length > 0) {
          await db.insertInto('competition_results').values(results.map(({ date, recorded, rank }, i) => ({
            id: `${String(rank).padStart(8, '0')}-0006-4000-a000-${String(i).padStart(12, '0')}`, club_id: club.id,
            member_id: member, group_id: group, competition_name: `c${String(i)}`, competition_date: date, created_at: recorded,
            points: i / 2 }))).execute()
        }
        let anchors = anchorsBy.get(every)
        if (anchors === undefined) {
          anchors = new ResultAnchors(every)
          anchorsBy.set(every, anchors)
        }
        for (const page of pages) {
          const expected = await listCompetitionResultsJson(db, club.id, page)
          const read = await anchors.page(db, club.id, version, page)
          if (read === undefined) {
            byOffset++
            // Only a page within the first anchor's distance, or one that reaches undated results, is left to the offset.
            const dated = results.filter((result) => result.date !== null).length
            expect(page.offset < every || (dated < results.length && page.offset + page.limit > dated)
              || page.offset - (page.offset % every) >= dated, JSON.stringify({ page, every, dated })).toBe(true)
            continue
          }
          anchored++
          expect(read).toBe(expected.json)
          // As the listing reads it with a seek.
          const seek = { anchors, version }
          expect(await listCompetitionResultsJson(db, club.id, page, 7, seek)).toEqual({ json: expected.json, total: 7 })
        }
      },
    ), { numRuns: 120 })
    expect(anchored).toBeGreaterThan(100)
    expect(byOffset).toBeGreaterThan(10)
  }, 120_000)
})
