/**
 * One reading of RFC 3339 date-times everywhere: the same table of edge cases runs against the
 * parser, the booking endpoint (both databases), the import and every command-line flag that takes
 * a date-time. A refused value is a 400 (or exit 1) naming the field, and changes nothing.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseDateTime } from '../../src/domain/date-time.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { useHarness } from '../helpers/harness.js'

/** Tuesday 2026-06-16 08:00 in Berlin (+02:00), a free slot of Court A, as written in each accepted form. */
const ACCEPTED: readonly [string, string][] = [
  ['offset form', `${TUESDAY}T08:00:00+02:00`],
  ['UTC with Z', `${TUESDAY}T06:00:00Z`],
  ['lowercase t and z', `${TUESDAY}t06:00:00z`],
  ['a negative offset', `${TUESDAY}T01:00:00-05:00`],
  ['a half-hour negative offset', `${TUESDAY}T02:30:00-03:30`],
  ['-00:00 (UTC, local offset unknown)', `${TUESDAY}T06:00:00-00:00`],
  ['one fraction digit', `${TUESDAY}T06:00:00.0Z`],
  ['nine fraction digits', `${TUESDAY}T06:00:00.000000000Z`],
]

/** Forms the validator must refuse: none names an instant the rules could use. */
const REFUSED: readonly [string, string][] = [
  ['a leap second (Z)', '2026-06-16T23:59:60Z'],
  ['a leap second (offset form)', '2026-06-17T01:59:60+02:00'],
  ['an offset without minutes', `${TUESDAY}T08:00:00+02`],
  ['an offset without a colon', `${TUESDAY}T08:00:00+0200`],
  ['an offset of 24 hours', `${TUESDAY}T08:00:00+24:00`],
  ['an offset of 60 minutes', `${TUESDAY}T08:00:00+01:60`],
  ['no offset', `${TUESDAY}T08:00:00`],
  ['a date that does not exist', '2026-02-30T08:00:00Z'],
  ['29 February of a common year', '2027-02-29T08:00:00Z'],
  ['hour 24', `${TUESDAY}T24:00:00Z`],
  ['minute 60', `${TUESDAY}T08:60:00Z`],
  ['a space instead of T', `${TUESDAY} 08:00:00Z`],
  ['no seconds', `${TUESDAY}T08:00Z`],
  ['an empty fraction', `${TUESDAY}T08:00:00.Z`],
  ['a date alone', TUESDAY],
  ['a two-digit year', '26-06-16T08:00:00Z'],
  ['month 13', '2026-13-01T08:00:00Z'],
  ['trailing text', `${TUESDAY}T08:00:00Z garbage`],
]

describe('parseDateTime', () => {
  it('reads every accepted form as the same instant', () => {
    for (const [name, text] of ACCEPTED) expect(parseDateTime(text), name).toBe(Date.parse(`${TUESDAY}T06:00:00Z`))
  })

  it('refuses every form that names no instant', () => {
    for (const [name, text] of REFUSED) expect(parseDateTime(text), name).toBeUndefined()
  })

  it('reads fractions to the millisecond, years 0000–0099 as written, and 29 February of leap years', () => {
    expect(parseDateTime('2026-06-16T06:00:00.1239Z')).toBe(Date.parse('2026-06-16T06:00:00.123Z'))
    expect(parseDateTime('2026-06-16T06:00:00.5+01:00')).toBe(Date.parse('2026-06-16T05:00:00.500Z'))
    expect(new Date(parseDateTime('0099-01-01T00:00:00Z') ?? Number.NaN).getUTCFullYear()).toBe(99)
    expect(parseDateTime('2028-02-29T00:00:00Z')).toBe(Date.parse('2028-02-29T00:00:00Z'))
    expect(parseDateTime('2000-02-29T00:00:00Z')).toBe(Date.parse('2000-02-29T00:00:00Z'))
    expect(parseDateTime('2100-02-29T00:00:00Z')).toBeUndefined()
    expect(parseDateTime('2026-06-16T23:59:59.999+23:59')).toBe(Date.parse('2026-06-16T00:00:59.999Z'))
  })
})

describeEachDatabase('date-times at every entry point', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    await setUpCourts(h, 'riverside')
    await h.createClub('holding', 'Europe/Berlin')
  })
  const count = async (table: 'bookings' | 'mail_outbox' | 'court_holds' | 'events' | 'api_keys') =>
    (await harness.current.context.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()).n
  const admin = (...args: string[]) => cli(harness.current.database.env, args, harness.current.clock)
  let counter = 0
  const book = (start: string, end: string) => harness.current.request({
    method: 'POST', url: '/api/v1/public/riverside/courts/book',
    payload: { court_id: COURT.a, start_time: start, end_time: end, booker_name: 'Rita Rfc',
      booker_email: `rfc${String(++counter)}@example.org` },
  })

  it('the booking endpoint answers 400 naming the field for each refused form, and books nothing', async () => {
    for (const [name, text] of REFUSED) {
      for (const field of ['start_time', 'end_time'] as const) {
        const [start, end] = field === 'start_time' ? [text, `${TUESDAY}T09:00:00+02:00`] : [`${TUESDAY}T08:00:00+02:00`, text]
        const response = await book(start, end)
        expect(response.status, `${name} as ${field}: ${response.body}`).toBe(400)
        const problem = response.json<{ type: string, detail: string, invalid_params: { name: string, code: string }[] }>()
        expect(problem.type, name).toBe('/api/v1/problems/invalid-booking')
        expect(problem.invalid_params, name).toEqual([{ name: field, code: 'invalid_date_time', reason: problem.detail }])
        expect(problem.detail, name).toContain('not a valid date and time')
      }
    }
    expect(await count('bookings')).toBe(0)
    expect(await count('mail_outbox')).toBe(0)
  })

  it('the booking endpoint reads each accepted form as the instant it names', async () => {
    for (const [name, start] of ACCEPTED) {
      const response = await book(start, `${TUESDAY}T09:00:00+02:00`)
      expect(response.status, name).toBe(201)
      // The same slot again, in the same form: the rules saw the same instant.
      const again = await book(start, `${TUESDAY}T09:00:00+02:00`)
      expect(again.json<{ type: string }>().type, name).toBe('/api/v1/problems/slot-conflict')
      await harness.current.context.db.deleteFrom('mail_outbox').execute()
      await harness.current.context.db.deleteFrom('bookings').execute()
    }
  })

  it('the import refuses each form naming the entry and field, and writes nothing', async () => {
    const club = await harness.current.context.db.selectFrom('clubs').select('slug').where('slug', '=', 'holding')
      .executeTakeFirstOrThrow()
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-import-'))
    try {
      for (const [name, text] of [...REFUSED, ['not a string of digits at all', 'next tuesday']] as const) {
        const file = path.join(dir, 'club.json')
        await fs.writeFile(file, JSON.stringify({
          events: [{ id: '6f1c1d1e-2b3a-4c5d-8e9f-000000000001', title: 'Open day', starts_at: text }],
        }))
        const result = await admin('import', '--club', club.slug, file)
        expect(result.code, name).toBe(1)
        expect(result.stderr, name).toContain('events[0]')
        expect(result.stderr, name).toContain('starts_at')
      }
      const file = path.join(dir, 'club.json')
      for (const [name, text] of ACCEPTED) {
        await fs.writeFile(file, JSON.stringify({
          events: [{ id: '6f1c1d1e-2b3a-4c5d-8e9f-000000000001', title: 'Open day', starts_at: text }],
        }))
        expect((await admin('import', '--club', club.slug, file)).code, name).toBe(0)
        const stored = await harness.current.context.db.selectFrom('events').select('starts_at').executeTakeFirstOrThrow()
        expect(new Date(stored.starts_at).toISOString(), name).toBe('2026-06-16T06:00:00.000Z')
        await harness.current.context.db.deleteFrom('events').execute()
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
    expect(await count('events')).toBe(0)
  })

  it('every command-line flag that takes a date-time refuses each form, naming the flag, and changes nothing', async () => {
    const before = { holds: await count('court_holds'), keys: await count('api_keys') }
    const hold = ['courts', 'hold', '--club', 'riverside', '--court', COURT.a, '--kind', 'block']
    const later = '2026-07-01T10:00:00+02:00'
    for (const [name, text] of REFUSED) {
      const cases: [string[], string][] = [
        [[...hold, '--from', text, '--to', later], '--from'],
        [[...hold, '--from', `${TUESDAY}T06:00:00Z`, '--to', text], '--to'],
        [['keys', 'create', '--club', 'riverside', '--scopes', 'read:groups', '--name', 'x', '--expires-at', text], '--expires-at'],
      ]
      for (const [args, flag] of cases) {
        const result = await admin(...args)
        expect(result.code, `${name}: ${args.join(' ')}`).toBe(1)
        expect(result.stderr, name).toContain(`${flag}: "${text}" is not an RFC 3339 date-time`)
      }
    }
    expect(await count('court_holds')).toBe(before.holds)
    expect(await count('api_keys')).toBe(before.keys)
    for (const [name, text] of ACCEPTED) {
      const result = await admin(...hold, '--from', text, '--to', later, '--json')
      expect(result.code, `${name}: ${result.stderr}`).toBe(0)
      expect(result.json<{ starts_at: string }>().starts_at, name).toMatch(/^2026-06-16T0[68]:00:00/)
      const key = await admin('keys', 'create', '--club', 'riverside', '--scopes', 'read:groups', '--name', 'x',
        '--expires-at', text.replace(TUESDAY, '2026-12-01'), '--json')
      expect(key.code, `${name}: ${key.stderr}`).toBe(0)
    }
  })
})
