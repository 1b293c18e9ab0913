/**
 * Utilisation through the dashboard API, checked against the database's own counts over a seeded
 * year of bookings, on both databases: every week's bookings and cancellations by who cancelled,
 * every (weekday, hour) cell's booked minutes (grouped by SQL in the club's zone, UTC here, so both
 * dialects can group), its open minutes from the opening hours, one court alone, the extremes, and
 * the refusals of a range backwards, too long, or a court of no club's.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { idFor } from '../helpers/fixtures.js'
import { useHarness } from '../helpers/harness.js'

const FROM = '2025-06-16'
const TO = '2026-06-14'
const COURTS = [idFor('year:court:1'), idFor('year:court:2')]
const DAY = 86_400_000
const URL = '/api/admin/v1/clubs/yearclub/utilisation'

interface Cell { weekday: number, hour: number, open_minutes: number, booked_minutes: number, share: number }
interface Week {
  week_start: string
  bookings: number
  cancelled_by_guest: number
  cancelled_by_club: number
  cancelled_by_hold: number
}
interface Report { heat_map: Cell[], weeks: Week[], busiest: Cell[], emptiest: Cell[], court_id: string | null }

describeEachDatabase('utilisation', (dialect) => {
  const harness = useHarness(dialect, undefined, { env: { PUBLIC_URL: `${ORIGIN}/` } })
  let as: ReturnType<typeof asSession>
  let clubId = ''

  beforeAll(async () => {
    const h = harness.current
    clubId = (await h.createClub('yearclub', 'UTC')).id
    const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '08:00', close: '22:00' }]))
    await importClubData(h.context.db, h.clock, clubId, { courts: COURTS.map((id, i) => ({ id, name: `Court ${String(i + 1)}`,
      opening_hours: hours })) })
    // A year of bookings, an hour each, some of them cancelled by the guest, the club or a hold: a fixed pseudo-random pattern.
    let seed = 7
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    const rows = []
    for (let at = Date.parse(`${FROM}T00:00:00Z`) - 7 * DAY; at < Date.parse(`${TO}T00:00:00Z`) + 8 * DAY; at += DAY) {
      for (const court of COURTS) {
        for (let hour = 8; hour < 22; hour++) {
          if (random() > 0.35) continue
          const start = at + hour * 3_600_000
          const roll = random()
          const by: 'guest' | 'club' | 'hold' | null = roll < 0.1 ? 'guest' : roll < 0.16 ? 'club' : roll < 0.2 ? 'hold' : null
          rows.push({ id: randomUUID(), club_id: clubId, court_id: court, starts_at: new Date(start).toISOString(),
            ends_at: new Date(start + 3_600_000).toISOString(), booker_name: 'Year Guest', booker_email: 'year@example.org',
            member_id: null, notes: null, created_at: new Date(start - DAY).toISOString(),
            status: by === null ? 'confirmed' as const : 'cancelled' as const,
            cancelled_at: by === null ? null : new Date(start - 3_600_000).toISOString(), cancelled_by: by, cancel_reason: null,
            manage_token_hash: null, anonymised_at: null })
        }
      }
    }
    for (let i = 0; i < rows.length; i += 200) await h.context.db.insertInto('bookings').values(rows.slice(i, i + 200)).execute()
    as = asSession(h, await signedIn(h, clubId, 'olga@example.org', 'owner'))
  })

  const report = async (query: string) => {
    const response = await as('GET', `${URL}?${query}`)
    expect(response.status, response.body).toBe(200)
    return response.json<Report>()
  }

  /** Confirmed bookings' minutes per ISO weekday and hour, as the database groups them. */
  const bookedBySql = async (court?: string) => {
    const { db } = harness.current.context
    const weekday = dialect === 'postgres'
      ? sql<number>`extract(isodow from starts_at at time zone 'UTC')::int`
      : sql<number>`(cast(strftime('%w', starts_at) as integer) + 6) % 7 + 1`
    const hour = dialect === 'postgres'
      ? sql<number>`extract(hour from starts_at at time zone 'UTC')::int`
      : sql<number>`cast(strftime('%H', starts_at) as integer)`
    let query = db.selectFrom('bookings').select([weekday.as('weekday'), hour.as('hour'), sql<number | string>`count(*)`.as('n')])
      .where('club_id', '=', clubId).where('status', '=', 'confirmed')
      .where('starts_at', '>=', `${FROM}T00:00:00.000Z`).where('starts_at', '<', new Date(Date.parse(`${TO}T00:00:00Z`) + DAY).toISOString())
    if (court !== undefined) query = query.where('court_id', '=', court)
    const rows = await query.groupBy([sql`1`, sql`2`]).execute()
    return new Map(rows.map((row) => [`${String(row.weekday)}:${String(row.hour)}`, Number(row.n) * 60]))
  }

  it('counts every week\'s bookings and cancellations as the database does, over a year', async () => {
    const { weeks } = await report(`from=${FROM}&to=${TO}`)
    expect(weeks).toHaveLength(52)
    expect(weeks[0]?.week_start).toBe(FROM)
    const { db } = harness.current.context
    for (const week of weeks) {
      const start = Date.parse(`${week.week_start}T00:00:00Z`)
      const rows = await db.selectFrom('bookings').select(['status', 'cancelled_by', sql<number | string>`count(*)`.as('n')])
        .where('club_id', '=', clubId).where('starts_at', '>=', new Date(start).toISOString())
        .where('starts_at', '<', new Date(start + 7 * DAY).toISOString()).groupBy(['status', 'cancelled_by']).execute()
      const count = (by: string | null) => rows.filter((row) => row.cancelled_by === by)
        .reduce((sum, row) => sum + Number(row.n), 0)
      expect(week, week.week_start).toEqual({ week_start: week.week_start, bookings: count(null) + count('guest') + count('club')
        + count('hold'), cancelled_by_guest: count('guest'), cancelled_by_club: count('club'), cancelled_by_hold: count('hold') })
    }
    expect(weeks.reduce((sum, week) => sum + week.bookings, 0)).toBeGreaterThan(3000)
  })

  it('measures each weekday\'s hours: booked minutes as the database groups them, open minutes from the opening hours', async () => {
    const { heat_map: cells, busiest, emptiest } = await report(`from=${FROM}&to=${TO}`)
    const booked = await bookedBySql()
    // 52 weeks: each weekday 52 times, two courts open 08:00–22:00.
    expect(cells).toHaveLength(7 * 14)
    for (const cell of cells) {
      expect(cell.hour).toBeGreaterThanOrEqual(8)
      expect(cell.hour).toBeLessThan(22)
      expect(cell.open_minutes).toBe(52 * 2 * 60)
      const key = `${String(cell.weekday)}:${String(cell.hour)}`
      expect(cell.booked_minutes, key).toBe(booked.get(key) ?? 0)
      expect(cell.share).toBeCloseTo(cell.booked_minutes / cell.open_minutes, 10)
    }
    const shares = cells.map((cell) => cell.share).sort((a, b) => b - a)
    expect(busiest.map((cell) => cell.share)).toEqual(shares.slice(0, 3))
    expect(emptiest.map((cell) => cell.share)).toEqual(shares.slice(-3).reverse())

    // One court alone.
    const one = await report(`from=${FROM}&to=${TO}&court=${COURTS[1] ?? ''}`)
    const bookedOne = await bookedBySql(COURTS[1])
    expect(one.court_id).toBe(COURTS[1])
    for (const cell of one.heat_map) {
      expect(cell.open_minutes).toBe(52 * 60)
      expect(cell.booked_minutes).toBe(bookedOne.get(`${String(cell.weekday)}:${String(cell.hour)}`) ?? 0)
    }
  })

  it('refuses a range backwards or over 366 days, and a court the club does not have', async () => {
    expect((await as('GET', `${URL}?from=${TO}&to=${FROM}`)).status).toBe(400)
    expect((await as('GET', `${URL}?from=2025-01-01&to=2026-01-02`)).status).toBe(400)
    expect((await as('GET', `${URL}?from=2025-01-01&to=2026-01-01`)).status).toBe(200)
    expect((await as('GET', `${URL}?from=${FROM}`)).status).toBe(400)
    expect((await as('GET', `${URL}?from=${FROM}&to=${TO}&court=${idFor('no such court')}`)).status).toBe(404)
  })
})
