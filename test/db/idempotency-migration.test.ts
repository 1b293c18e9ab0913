/**
 * Migration 0023 on a database with the day's idempotency records: each key is kept as its SHA-256
 * from then on, so a retry sent before the upgrade still finds its record after it (and books
 * nothing twice); going back drops the records, whose keys cannot be had back.
 */
import { createHash, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { expect, it } from 'vitest'
import { openDatabase } from '../../src/db/dialect.js'
import { findBookingRequest } from '../../src/db/repositories/booking-requests.js'
import { createMigrator, migrateToLatest } from '../../src/db/migrate.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'

describeEachDatabase('migration 0023 (guest pages)', (dialect) => {
  it('hashes the keys of the idempotency records it finds, and a retry still finds its record', async () => {
    const database = await createTestDatabase(dialect)
    const handle = openDatabase(database.settings)
    try {
      const db = handle.db as unknown as Kysely<unknown>
      expect((await createMigrator(db).migrateTo('0022-waiting-list')).error).toBeUndefined()
      const [club, booking] = [randomUUID(), randomUUID()]
      const now = '2026-06-15T10:00:00.000Z'
      await sql`insert into clubs (id, slug, name, timezone, created_at) values (${club}, 'old', 'Old', 'Europe/Berlin', ${now})`.execute(db)
      const court = randomUUID()
      await sql`insert into courts (id, club_id, name, name_key, sport, active, slot_minutes, opening_hours, booking_horizon_days,
        max_slots_per_booking, created_at) values (${court}, ${club}, 'Court 1', 'court 1', 'tennis', ${dialect === 'sqlite' ? 1 : true},
        60, '{}', 14, 2, ${now})`.execute(db)
      await sql`insert into bookings (id, club_id, court_id, starts_at, ends_at, booker_name, booker_email, created_at)
        values (${booking}, ${club}, ${court}, ${now}, '2026-06-15T11:00:00.000Z', 'Gina', 'gina@example.org', ${now})`.execute(db)
      await sql`insert into booking_requests (club_id, idempotency_key, request_hash, booking_id, created_at)
        values (${club}, 'retry-before-the-upgrade', 'hash', ${booking}, ${now})`.execute(db)

      expect((await migrateToLatest(db)).applied).toContain('0023-guest-pages')
      const hashed = createHash('sha256').update('retry-before-the-upgrade').digest('hex')
      expect((await sql`select idempotency_key from booking_requests`.execute(db)).rows).toEqual([{ idempotency_key: hashed }])
      expect(await findBookingRequest(handle.db, club, hashed))
        .toEqual({ requestHash: 'hash', bookingId: booking, manageTokenSealed: null })

      expect((await createMigrator(db).migrateTo('0022-waiting-list')).error).toBeUndefined()
      expect(Number((await sql<{ n: unknown }>`select count(*) as n from booking_requests`.execute(db)).rows[0]?.n)).toBe(0)
    } finally {
      await handle.close()
      await database.drop()
    }
  })
})
