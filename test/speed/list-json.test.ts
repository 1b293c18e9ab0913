/**
 * A page as SQLite writes it in JSON (src/db/json-pages.ts, read by the list reader threads) is the
 * very text the route's serialiser writes for the same page: for any values the tables can hold —
 * every code point, control characters and unpaired surrogates in the text, reals whole and not,
 * huge, tiny, negative zero, infinite and not a number (which SQLite stores as null), nulls where
 * the columns allow them — at any limit and offset, with the count known or not.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { LIST_READS, readListBody } from '../../src/speed/list-reads.js'
import type { ListArea } from '../../src/speed/list-reads.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { START, useHarness } from '../helpers/harness.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'

/** Text of any code points, surrogates alone included (better-sqlite3 stores each as U+FFFD). */
const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\u007f', '\u2028', '"', '\\', '\ud800', '\udfff'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 })
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null })
const instant = fc.integer({ min: Date.parse('1970-01-01T00:00:00.000Z'), max: Date.parse('2200-01-01T00:00:00.000Z') })
  .map((ms) => new Date(ms).toISOString())
const points = fc.oneof(fc.double(), fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 4),
  fc.constantFrom(0, -0, 3, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 1e-7, 123456789.125, 0.1 + 0.2, Number.MAX_VALUE,
    Number.MIN_VALUE, Infinity, -Infinity, Number.NaN))

const AREAS: readonly (readonly [ListArea, string])[] = LIST_ENDPOINTS.map((endpoint) => [endpoint.listing, endpoint.segment])

describeEachDatabase('list pages written by SQLite', (dialect) => {
  if (dialect !== 'sqlite') {
    it('are SQLite\'s alone: PostgreSQL pages go through the route\'s serialiser', () => {
      expect(dialect).toBe('postgres')
    })
    return
  }
  const harness = useHarness(dialect)

  it('are the text the route serialises, whatever the tables hold', async () => {
    const h = harness.current
    const db = h.context.db
    let run = 0
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ name: text, sport: text, age_min: maybe(fc.integer()), age_max: maybe(fc.integer()),
        level: maybe(text), description: maybe(text) }), { maxLength: 6 }),
      fc.array(fc.record({ title: text, starts_at: instant, ends_at: maybe(instant), location: maybe(text) }), { maxLength: 6 }),
      fc.array(fc.record({ title: text, content: text, published_at: instant, by: fc.boolean() }), { maxLength: 6 }),
      fc.array(fc.record({ competition_name: text, discipline: maybe(text), placement: maybe(text), points: maybe(points),
        competition_date: maybe(fc.constantFrom('2026-05-01', '2025-12-31')), created_at: instant }), { maxLength: 6 }),
      fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 7 }),
      async (groups, events, news, results, limit, offset) => {
        run++
        const club = await h.createClub(`json-${String(run)}`)
        const { key } = await h.createKey(club.id)
        const id = (kind: string, i: number) => `${String(run).padStart(8, '0')}-${kind}-4000-a000-${String(i).padStart(12, '0')}`
        const member = id('0001', 0)
        const group = id('0002', 0)
        const at = new Date(START).toISOString()
        await db.insertInto('members').values({ id: member, club_id: club.id, name: 'M', email: 'm@example.org', created_at: at })
          .execute()
        await db.insertInto('groups').values([{ id: group, club_id: club.id, name: 'G', sport: 's', active: false, created_at: at },
          ...groups.map((g, i) => ({ ...g, id: id('0003', i), club_id: club.id, active: true, created_at: at }))]).execute()
        for (const [i, e] of events.entries()) {
          await db.insertInto('events').values({ ...e, id: id('0004', i), club_id: club.id, public_booking: true, created_at: at })
            .execute()
        }
        for (const [i, { by, ...n }] of news.entries()) {
          await db.insertInto('news').values({ ...n, id: id('0005', i), club_id: club.id, created_by: by ? member : null,
            created_at: at }).execute()
        }
        for (const [i, r] of results.entries()) {
          await db.insertInto('competition_results').values({ ...r, id: id('0006', i), club_id: club.id, member_id: member,
            group_id: group }).execute()
        }
        for (const [area, path] of AREAS) {
          const page = { limit, offset }
          const answer = await h.request({ url: `/api/v1/${path}?limit=${String(limit)}&offset=${String(offset)}`, key })
          expect(answer.status).toBe(200)
          // Counted by the read, and known from an earlier one.
          const total = answer.json<{ meta: { total: number } }>().meta.total
          for (const known of [undefined, { version: 1, validUntil: Number.POSITIVE_INFINITY, total }]) {
            const { body } = await readListBody(LIST_READS[area], db, club.id, page, h.clock.now(), known, known?.version)
            expect(body).toBe(answer.body)
          }
        }
      },
    ), { numRuns: 100 })
  })
})
