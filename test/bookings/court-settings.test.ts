/**
 * Court settings that must make sense: slot lengths that divide a day, and names unique per club
 * up to case and spacing — checked by the import and the command line, and held by the database.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { expect, it } from 'vitest'
import { openDatabase } from '../../src/db/dialect.js'
import { createMigrator, migrateToLatest } from '../../src/db/migrate.js'
import { InvalidInput } from '../../src/domain/errors.js'
import { importClubData } from '../../src/services/import.js'
import { cli } from '../helpers/cli.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'
import { START, useHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))

describeEachDatabase('court settings', (dialect) => {
  let clubId = ''
  let otherClubId = ''
  const harness = useHarness(dialect, async (h) => {
    clubId = (await h.createClub('settings')).id
    otherClubId = (await h.createClub('settings-other')).id
    // Courts change under the listing here without a request in between: read them every time.
  }, { env: { RESPONSE_CACHE_MB: '0' } })
  const importCourts = (h: Harness, courts: object[], club = clubId) => importClubData(h.context.db, h.clock, club, { courts })
  const refusal = async (work: Promise<unknown>): Promise<string> => {
    const error = await work.then(() => undefined, (caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidInput)
    return (error as InvalidInput).message
  }
  const courtsOf = async (club = clubId) => harness.current.context.db.selectFrom('courts').select(['id', 'name', 'slot_minutes'])
    .where('club_id', '=', club).orderBy('name').execute()
  const admin = (...args: string[]) => cli(harness.current.database.env, args, harness.current.clock)

  it.each([7, 5, 25, 50, 1440])('refuses a slot length of %i minutes, naming the entry and the lengths allowed', async (minutes) => {
    const before = await courtsOf()
    const message = await refusal(importCourts(harness.current, [{ id: randomUUID(), name: 'Odd court', slot_minutes: minutes }]))
    expect(message).toContain('courts[0].slot_minutes: must be one of 10, 15, 20, 30, 45, 60, 90, 120')
    expect(await courtsOf()).toEqual(before)
  })

  it.each([10, 15, 20, 30, 45, 60, 90, 120])('accepts %i-minute slots, a whole number of them filling a day', async (minutes) => {
    const h = harness.current
    const id = randomUUID()
    await importCourts(h, [{ id, name: `All day ${String(minutes)}`, slot_minutes: minutes, opening_hours: ALL_DAY }])
    const slots = (await h.request({ url: '/api/v1/public/settings/courts?date=2026-06-16' }))
      .json<{ courts: { court_id: string, end_time: string }[] }>().courts.filter((slot) => slot.court_id === id)
    expect(slots).toHaveLength(1440 / minutes)
    expect(slots.at(-1)?.end_time).toBe('2026-06-17T00:00:00+02:00')
  })

  it('refuses "courts create --slot-minutes 7" on the command line, creating nothing', async () => {
    const before = await courtsOf()
    const result = await admin('courts', 'create', '--club', 'settings', '--name', 'Seven', '--slot-minutes', '7')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--slot-minutes: must be one of 10, 15, 20, 30, 45, 60, 90, 120')
    expect(await courtsOf()).toEqual(before)
  })

  it('publishes the slot lengths as an enum in the import file\'s JSON Schema', async () => {
    const { ImportCourt } = await import('../../src/schemas/import.js')
    expect(ImportCourt.properties.slot_minutes).toMatchObject({ type: 'integer', enum: [10, 15, 20, 30, 45, 60, 90, 120] })
  })

  it.each([
    ['the same name', 'Court 1'],
    ['another case', 'court 1'],
    ['extra spaces', '  COURT   1 '],
    ['a compatibility form', 'Ｃｏｕｒｔ　１'],
  ])('refuses a second court with %s, naming the entry and the court', async (_case, name) => {
    const h = harness.current
    const first = randomUUID()
    await importCourts(h, [{ id: first, name: 'Court 1' }], otherClubId)
    const before = await courtsOf(otherClubId)
    const message = await refusal(importCourts(h, [{ id: randomUUID(), name }], otherClubId))
    expect(message).toContain(`courts[0].name: "${name}" is already the name of court ${first} ("Court 1") of the club`)
    expect(await courtsOf(otherClubId)).toEqual(before)
    await h.context.db.deleteFrom('courts').where('club_id', '=', otherClubId).execute()
  })

  it('refuses two courts of one name in one file, and a blank name', async () => {
    const message = await refusal(importCourts(harness.current, [{ id: randomUUID(), name: 'Centre' },
      { id: randomUUID(), name: 'Hall' }, { id: randomUUID(), name: ' centre ' }, { id: randomUUID(), name: '   ' }]))
    expect(message).toContain('courts[2].name: " centre " is also the name of courts[0]')
    expect(message).toContain('courts[3].name: must not be blank')
  })

  it('refuses renaming a court to another court\'s name, and allows a change of case, a swap and a re-import', async () => {
    const h = harness.current
    const [north, south] = [randomUUID(), randomUUID()]
    await importCourts(h, [{ id: north, name: 'North' }, { id: south, name: 'South' }])
    expect(await refusal(importCourts(h, [{ id: south, name: 'NORTH' }])))
      .toContain(`courts[0].name: "NORTH" is already the name of court ${north} ("North") of the club`)
    await importCourts(h, [{ id: north, name: 'NORTH' }])
    await importCourts(h, [{ id: north, name: 'South' }, { id: south, name: 'North' }])
    await importCourts(h, [{ id: north, name: 'South' }, { id: south, name: 'North' }])
    const names = await h.context.db.selectFrom('courts').select(['id', 'name']).where('id', 'in', [north, south]).execute()
    expect(Object.fromEntries(names.map((row) => [row.id, row.name]))).toEqual({ [north]: 'South', [south]: 'North' })
  })

  it('lets another club have a court of the same name', async () => {
    const h = harness.current
    await importCourts(h, [{ id: randomUUID(), name: 'Twin' }])
    await importCourts(h, [{ id: randomUUID(), name: 'Twin' }], otherClubId)
    expect((await courtsOf(otherClubId)).map((court) => court.name)).toEqual(['Twin'])
  })

  it('refuses "courts create" with the name of an existing court, in any case, creating nothing', async () => {
    expect((await admin('courts', 'create', '--club', 'settings', '--name', 'Court 7')).code).toBe(0)
    const before = await courtsOf()
    const result = await admin('courts', 'create', '--club', 'settings', '--name', 'court 7')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/--name: "court 7" is already the name of court [0-9a-f-]{36} \("Court 7"\) of the club/)
    expect(await courtsOf()).toEqual(before)
  })

  it('holds the rule in the database: a second court with the same name key, or one without a key, is refused', async () => {
    const db = harness.current.context.db
    const row = (name: string, nameKey: string) => ({ id: randomUUID(), club_id: clubId, name, name_key: nameKey, sport: 'tennis',
      active: true, slot_minutes: 60, opening_hours: '{}', booking_horizon_days: 14, max_slots_per_booking: 2,
      created_at: new Date(START).toISOString() })
    await db.insertInto('courts').values(row('Direct', 'direct')).execute()
    await expect(db.insertInto('courts').values(row('DIRECT', 'direct')).execute()).rejects.toThrow(/unique|duplicate/i)
    await expect(db.insertInto('courts').values({ ...row('Keyless', ''), name_key: null as unknown as string }).execute())
      .rejects.toThrow(/name_key/)
    await expect(db.insertInto('courts').values(row('Empty key', '')).execute()).rejects.toThrow(/name_key/)
  })
})

describeEachDatabase('migration 0005-court-names', (dialect) => {
  it('gives later courts that share a name "(2)", "(3)"… in the order they were created, and keeps the change triggers', async () => {
    const database = await createTestDatabase(dialect)
    const handle = openDatabase(database.settings)
    try {
      const db = handle.db
      const migrated = await createMigrator(db).migrateTo('0004-change-tracking')
      expect(migrated.error).toBeUndefined()
      const [club, other] = [randomUUID(), randomUUID()]
      for (const [id, slug] of [[club, 'old'], [other, 'old-other']] as const) {
        await sql`insert into clubs (id, slug, name, timezone, created_at)
          values (${id}, ${slug}, ${slug}, 'Europe/Berlin', ${new Date(START).toISOString()})`.execute(db)
      }
      const courts: [string, string, string, number][] = [
        ['a', club, 'Court 1', 1], ['b', club, 'court 1', 2], ['c', club, 'Court 1 (2)', 3], ['d', club, ' COURT  1', 4],
        ['e', club, '   ', 5], ['f', club, 'Court', 6], ['g', other, 'Court 1', 1], ['h', club, 'Hall', 7],
      ]
      const ids = Object.fromEntries(courts.map(([key]) => [key, randomUUID()]))
      for (const [key, clubOf, name, minute] of courts) {
        await sql`insert into courts (id, club_id, name, sport, active, slot_minutes, opening_hours, booking_horizon_days,
          max_slots_per_booking, created_at) values (${ids[key]}, ${clubOf}, ${name}, 'tennis', ${dialect === 'sqlite' ? 1 : true},
          60, '{}', 14, 2, ${new Date(START + minute * 60_000).toISOString()})`.execute(db)
      }
      expect((await migrateToLatest(db)).applied).toEqual(expect.arrayContaining(['0005-court-names']))

      const rows = await db.selectFrom('courts').select(['id', 'name', 'name_key']).execute()
      const named = Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, rows.find((row) => row.id === id)?.name]))
      expect(named).toEqual({ a: 'Court 1', b: 'court 1 (3)', c: 'Court 1 (2)', d: 'COURT 1 (4)', e: 'Court (2)', f: 'Court',
        g: 'Court 1', h: 'Hall' })
      expect(rows.find((row) => row.id === ids.d)?.name_key).toBe('court 1 (4)')

      // The triggers of 0004 still record writes to courts.
      const triggers = dialect === 'sqlite'
        ? await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'trigger' and tbl_name = 'courts'
            and name like 'courts\\_%\\_changed' escape '\\'`.execute(db)
        : await sql<{ n: number }>`select count(*)::int as n from pg_trigger where tgrelid = 'courts'::regclass
            and tgname in ('courts_changed', 'courts_truncated')`.execute(db)
      expect(triggers.rows[0]?.n).toBe(dialect === 'sqlite' ? 3 : 2)
      const touch = () => db.updateTable('courts').set({ sport: 'padel' }).where('id', '=', ids.h ?? '').execute()
      if (dialect === 'sqlite') {
        const version = async () => (await sql<{ version: number }>`select version from data_versions
          where scope = ${`courts:${club}`}`.execute(db)).rows[0]?.version ?? 0
        const before = await version()
        await touch()
        expect(await version()).toBeGreaterThan(before)
      } else {
        const listener = new pg.Client({ connectionString: database.env.DATABASE_URL })
        await listener.connect()
        try {
          await listener.query('listen club_platform_changes')
          const heard = new Promise<string | undefined>((resolve) => {
            listener.on('notification', (message) => {
              resolve(message.payload)
            })
          })
          await touch()
          expect(await heard).toBe(`courts:${club}`)
        } finally {
          await listener.end()
        }
      }
    } finally {
      await handle.close()
      await database.drop()
    }
  })
})
