/**
 * The scale benchmark's data (src/db/scale-seed.ts) is what its figures claim: the shape's clubs,
 * courts, bookings and log rows, within every retention period (the benchmark's "retention with
 * nothing to remove"), with six courts a club for its bookings; and its backlog is work for retention.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext } from '../../src/context.js'
import { makeRetentionBacklog, scaleCourts, SCALE_COURTS_PER_CLUB, SCALE_LISTS } from '../../src/db/scale-seed.js'
import { applyRetention } from '../../src/services/retention.js'
import { seedScaleDatabase } from '../../src/tools/bench/scale-data.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'

const DAY = 86_400_000
const SHAPE = { clubs: 3, bookingsPerClub: 120, logRowsPerClub: 5, now: Date.parse('2026-03-10T12:00:00Z') }

describeEachDatabase('scale seed', (dialect) => {
  let database: TestDatabase
  let context: AppContext

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await (await createContext(readConfig({ ...database.env, LOG_LEVEL: 'silent' }), { migrate: true })).close()
    await seedScaleDatabase(database.settings, SHAPE)
    context = await createContext(readConfig({ ...database.env, LOG_LEVEL: 'silent' }), { clock: { now: () => SHAPE.now } })
  }, 60_000)

  afterAll(async () => {
    await context.close()
    await database.drop()
  })

  const count = async (table: 'clubs' | 'courts' | 'bookings' | 'mail_outbox' | 'webhook_deliveries' | 'audit_log'
    | 'competition_results' | 'groups') => Number((await context.db.selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  it('holds the shape\'s clubs, courts, bookings, lists and logs', async () => {
    expect(await count('clubs')).toBe(SHAPE.clubs)
    expect(await count('courts')).toBe(SHAPE.clubs * SCALE_COURTS_PER_CLUB)
    expect(await count('bookings')).toBe(SHAPE.clubs * SHAPE.bookingsPerClub)
    expect(await count('groups')).toBe(SHAPE.clubs * SCALE_LISTS.groups)
    expect(await count('competition_results')).toBe(SHAPE.clubs * SCALE_LISTS['competition-results'])
    for (const log of ['mail_outbox', 'webhook_deliveries', 'audit_log'] as const) {
      expect(await count(log)).toBe(SHAPE.clubs * SHAPE.logRowsPerClub)
    }
    // Two years of history and the two weeks ahead, guests' data gone from what ended more than 91 days ago.
    const bookings = await context.db.selectFrom('bookings').select(['starts_at', 'booker_email', 'anonymised_at']).execute()
    const starts = bookings.map((booking) => new Date(booking.starts_at).getTime())
    expect(Math.min(...starts)).toBeLessThan(SHAPE.now - 700 * DAY)
    expect(Math.max(...starts)).toBeGreaterThan(SHAPE.now)
    expect(bookings.filter((booking) => booking.anonymised_at === null).every((booking) => booking.booker_email !== '')).toBe(true)
    expect(bookings.filter((booking) => booking.anonymised_at !== null).every((booking) => booking.booker_email === '')).toBe(true)
  })

  it('leaves retention nothing to remove, and its backlog is work for retention', async () => {
    const report = await applyRetention(context.db, SHAPE.now)
    expect(report).toEqual({ bookingsAnonymised: 0, mailsDeleted: 0, idempotencyRecordsDeleted: 0, webhookDeliveriesDeleted: 0,
      webhookMessagesDeleted: 0, waitingEntriesDeleted: 0, complete: true })
    const backlog = await makeRetentionBacklog(context.db, 1)
    expect(backlog).toBeGreaterThan(SHAPE.bookingsPerClub / 2)
    expect((await applyRetention(context.db, SHAPE.now)).bookingsAnonymised).toBe(backlog)
  })

  it('lists each club\'s courts for the booking scenario', async () => {
    const courts = await scaleCourts(context.db, SHAPE.clubs)
    expect(courts.map((ids) => ids.length)).toEqual(Array.from({ length: SHAPE.clubs }, () => SCALE_COURTS_PER_CLUB))
    expect(new Set(courts.flat()).size).toBe(SHAPE.clubs * SCALE_COURTS_PER_CLUB)
  })
})
