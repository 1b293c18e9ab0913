/**
 * The typed client (clients/typescript, @club-platform/client) against the real server process on
 * SQLite and on PostgreSQL, over real HTTP: every list walked to its end a page of 7 at a time is
 * the list the API gives in one page of 100; a 429 is waited out by its Retry-After and tried
 * again; a page read again is a 304 answered from the copy kept; a taken slot is a ClubPlatformError
 * of kind slot-conflict; a booking retried after a 429 is made once.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ClubPlatformError, createClubClient, retryAfterMs } from '../../clients/typescript/src/index.js'
import type { ListPath, RetryNotice } from '../../clients/typescript/src/index.js'
import { localToInstant } from '../../src/domain/zoned-time.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { freePort } from '../../src/tools/free-port.js'
import { cli } from '../helpers/cli.js'
import { openContext } from '../helpers/context.js'
import { COURT } from '../helpers/courts.js'
import { DIALECTS, createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { clubFixture } from '../helpers/fixtures.js'
import { LIST_PATHS, LIST_SCOPES } from '../helpers/list-endpoints.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'
import { testNow, testToday } from '../helpers/today.js'

const LISTS: readonly ListPath[] = LIST_PATHS
const ZONE = 'Europe/Berlin'

describe('Retry-After', () => {
  it('is read as seconds or as an HTTP date, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs('Tue, 24 Nov 2026 10:00:05 GMT', Date.parse('2026-11-24T10:00:00Z'))).toBe(5000)
    expect([retryAfterMs(null), retryAfterMs(''), retryAfterMs('soon'), retryAfterMs('-1')]).toEqual([undefined, undefined, undefined,
      undefined])
  })
})

for (const dialect of DIALECTS) {
  const available = dialect === 'sqlite' || inject('postgresAdminUrl') !== null
  describe.skipIf(!available)(`the typed client against the server [${dialect}]`, () => {
    let database: TestDatabase
    let server: StartedServer | undefined
    const url = () => server?.url ?? ''
    let env: Record<string, string> = {}
    let key = ''
    /** Answers as the client's own fetch saw them, in order. */
    const statuses: number[] = []
    const recordingFetch = async (request: Request) => {
      const response = await fetch(request)
      statuses.push(response.status)
      return response
    }

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
      const port = await freePort()
      env = { ...database.env, ...(dialect === 'sqlite' ? { DATABASE_URL: '' } : {}) }
      const context = await openContext(database, { migrate: true })
      const club = await createClub(context.db, context.clock, { slug: 'riverside', name: 'TC Riverside', timezone: ZONE })
      const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))
      await importClubData(context.db, context.clock, club.id, { ...clubFixture('client', testNow(), 3),
        courts: [{ id: COURT.allDay, name: 'Court 1', booking_horizon_days: 30, opening_hours: hours }] })
      await context.close()
      const created = await cli(env, ['keys', 'create', '--club', 'riverside', '--name', 'client test', '--scopes',
        LIST_SCOPES.join(','), '--json'])
      expect(created.code, created.stderr).toBe(0)
      key = created.json<{ key: string }>().key
      server = await startServer({ ...env, PORT: String(port), BOOKING_RATE_CAPACITY: '2', BOOKING_RATE_PER_MINUTE: '60' })
    })
    afterAll(async () => {
      if (server !== undefined) await stopServer(server)
      await database.drop()
    })

    it('walks every list to its end 7 at a time, and finds what one page of 100 holds', async () => {
      const client = createClubClient({ baseUrl: url(), apiKey: key })
      for (const path of LISTS) {
        const whole = await client.list(path, { limit: 100 })
        expect(whole.data.length, path).toBeGreaterThan(14)
        expect(whole.meta.total).toBe(whole.data.length)
        expect(await client.listAll(path, 7), path).toEqual(whole.data)
      }
    })

    it('answers a page read again from its copy after a 304', async () => {
      statuses.length = 0
      const client = createClubClient({ baseUrl: url(), apiKey: key, fetch: recordingFetch })
      const first = await client.list('/api/v1/groups', { limit: 5, offset: 3 })
      const again = await client.list('/api/v1/groups', { limit: 5, offset: 3 })
      expect(statuses).toEqual([200, 304])
      expect(again).toEqual(first)
    })

    it('waits out a 429 by its Retry-After and tries again; a booking retried so is made once', async () => {
      const waits: RetryNotice[] = []
      const client = createClubClient({ baseUrl: url(), onRetry: (notice) => waits.push(notice) })
      const date = testToday(2, ZONE)
      const at = (hour: number) => new Date(localToInstant(date, hour * 60, ZONE)).toISOString()
      const booking = (hour: number, email: string) => ({ court_id: COURT.allDay, start_time: at(hour), end_time: at(hour + 1),
        booker_name: 'Cleo Client', booker_email: email })
      // The booking bucket holds 2 and refills one a second: the third booking in a row meets a 429.
      const made = []
      for (const [i, hour] of [9, 10, 11].entries()) {
        made.push(await client.book('riverside', booking(hour, `cleo${String(i)}@example.org`)))
      }
      expect(new Set(made.map((answer) => answer.booking_id)).size).toBe(3)
      expect(waits.length).toBeGreaterThanOrEqual(1)
      expect(waits.every((notice) => notice.status === 429 && notice.waitMs >= 1000)).toBe(true)
      const listing = await client.courts('riverside', date)
      expect(listing.courts.filter((slot) => slot.status === 'booked')).toHaveLength(3)

      // A client that may not wait gets the 429 as a typed error.
      const impatient = createClubClient({ baseUrl: url(), retries: 0 })
      const refused = await Promise.all([12, 13, 14].map((hour) => impatient.book('riverside', booking(hour, `dora${String(hour)}@example.org`))
        .then(() => undefined, (error: unknown) => error)))
      expect(refused.some((error) => error instanceof ClubPlatformError && error.kind === 'rate-limited' && error.status === 429)).toBe(true)
    })

    it('throws a taken slot as a ClubPlatformError of kind slot-conflict', async () => {
      const client = createClubClient({ baseUrl: url() })
      const date = testToday(3, ZONE)
      const slot = { court_id: COURT.allDay, start_time: new Date(localToInstant(date, 18 * 60, ZONE)).toISOString(),
        end_time: new Date(localToInstant(date, 19 * 60, ZONE)).toISOString(), booker_name: 'Erin', booker_email: 'erin@example.org' }
      await client.book('riverside', slot)
      const error = await client.book('riverside', { ...slot, booker_email: 'finn@example.org' }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ClubPlatformError)
      expect(error).toMatchObject({ kind: 'slot-conflict', type: '/api/v1/problems/slot-conflict', status: 400 })
      const unknown = await createClubClient({ baseUrl: url(), apiKey: 'cpk_wrong' }).list('/api/v1/groups').catch((caught: unknown) => caught)
      expect(unknown).toMatchObject({ kind: 'invalid-api-key', status: 401 })
    })
  })
}
