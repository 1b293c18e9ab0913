/** Court settings that must make sense: slot lengths that divide a day, checked by the import and the command line. */
import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { InvalidInput } from '../src/domain/errors.js'
import { importClubData } from '../src/services/import.js'
import { cli } from './helpers/cli.js'
import { describeEachDatabase } from './helpers/databases.js'
import { useHarness } from './helpers/harness.js'
import type { Harness } from './helpers/harness.js'

const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))

describeEachDatabase('court settings', (dialect) => {
  let clubId = ''
  const harness = useHarness(dialect, async (h) => {
    clubId = (await h.createClub('settings')).id
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
    expect(result.stderr).toContain('court.slot_minutes: must be one of 10, 15, 20, 30, 45, 60, 90, 120')
    expect(await courtsOf()).toEqual(before)
  })

  it('publishes the slot lengths as an enum in the import file\'s JSON Schema', async () => {
    const { ImportCourt } = await import('../src/schemas/import.js')
    expect(ImportCourt.properties.slot_minutes).toMatchObject({ type: 'integer', enum: [10, 15, 20, 30, 45, 60, 90, 120] })
  })
})
