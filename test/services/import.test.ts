import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../helpers/databases.js'
import { cli } from '../helpers/cli.js'
import { clubFixture, idFor } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const TABLES = ['members', 'groups', 'events', 'news', 'competition_results'] as const

async function counts(h: Harness): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of TABLES) {
    const row = await h.context.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    out[table] = row.n
  }
  return out
}

describeEachDatabase('import', (dialect) => {
  let dir = ''
  const harness = useHarness(dialect, async (h) => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-import-'))
    await h.createClub('home')
    await h.createClub('away')
  })
  const write = async (name: string, content: unknown) => {
    const file = path.join(dir, name)
    await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
    return file
  }
  const importFile = (club: string, file: string) =>
    cli(harness.current.database.env, ['import', '--club', club, file, '--json'], harness.current.clock)

  it('imports a file, and importing it again updates instead of duplicating', async () => {
    const fixture = clubFixture('home', START)
    const file = await write('home.json', { $schema: './import-format.schema.json', ...fixture })
    const first = await importFile('home', file)
    expect(first.code).toBe(0)
    expect(first.json()).toEqual({ members: 4, groups: fixture.groups.length, events: fixture.events.length,
      news: fixture.news.length, competition_results: fixture.competition_results.length, courts: 0, court_holds: 0,
      bookings_cancelled: 0 })
    const after = await counts(harness.current)

    const renamed = { ...fixture, groups: fixture.groups.map((g, i) => (i === 0 ? { ...g, name: 'Renamed' } : g)) }
    expect((await importFile('home', await write('home2.json', renamed))).code).toBe(0)
    expect(await counts(harness.current)).toEqual(after)
    const row = await harness.current.context.db.selectFrom('groups').select('name')
      .where('id', '=', fixture.groups[0]?.id ?? '').executeTakeFirstOrThrow()
    expect(row.name).toBe('Renamed')
  })

  it('rejects a bad file whole, naming each offending entry, and changes nothing', async () => {
    const before = await counts(harness.current)
    const good = clubFixture('bad', START)
    const bad = {
      ...good,
      members: [...good.members, { id: idFor('m-bad'), name: 'No mail', email: 'not-an-email' }],
      groups: [...good.groups, { id: idFor('g-bad'), sport: 'tennis' }, { id: idFor('g-bad2'), name: 'X', sport: 'y', colour: 'red' }],
      events: [...good.events, { id: idFor('e-bad'), title: 'Local time', starts_at: '2026-06-01T10:00:00' }],
    }
    const result = await importFile('home', await write('bad.json', bad))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('nothing was changed')
    expect(result.stderr).toContain(`members[${good.members.length}].email`)
    expect(result.stderr).toContain(`groups[${good.groups.length}]: must have required property 'name'`)
    expect(result.stderr).toContain(`groups[${good.groups.length + 1}]: unknown property "colour"`)
    expect(result.stderr).toContain(`events[${good.events.length}].starts_at`)
    expect(await counts(harness.current)).toEqual(before)
  })

  it('rejects broken references and duplicates, and changes nothing', async () => {
    const before = await counts(harness.current)
    const good = clubFixture('refs', START)
    const bad = {
      ...good,
      groups: [...good.groups, { ...good.groups[0], name: 'Twin' }],
      events: [...good.events, { id: idFor('e-ref'), title: 'Orphan', starts_at: '2026-06-01T10:00:00Z', group_id: idFor('nowhere') }],
      competition_results: [...good.competition_results,
        { id: idFor('r-ref'), member_id: idFor('ghost'), group_id: good.groups[0]?.id, competition_name: 'X' }],
      news: [...good.news, { id: idFor('n-bad'), title: 'Backwards', content: 'x', created_by: idFor('ghost') }],
    }
    const result = await importFile('home', await write('refs.json', bad))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`groups[${good.groups.length}].id: ${good.groups[0]?.id ?? ''} is also the id of groups[0]`)
    expect(result.stderr).toContain(`events[${good.events.length}].group_id: no group ${idFor('nowhere')}`)
    expect(result.stderr).toContain(`competition_results[${good.competition_results.length}].member_id: no member`)
    expect(result.stderr).toContain(`news[${good.news.length}].created_by: no member`)
    expect(await counts(harness.current)).toEqual(before)
  })

  it('refuses ids that belong to another club, leaving that club untouched', async () => {
    const away = clubFixture('away', START)
    expect((await importFile('away', await write('away.json', away))).code).toBe(0)
    const before = await counts(harness.current)
    const hijack = { groups: [{ ...away.groups[0], name: 'Hijacked' }] }
    const result = await importFile('home', await write('hijack.json', hijack))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`groups[0].id: ${away.groups[0]?.id ?? ''} belongs to another club`)
    const row = await harness.current.context.db.selectFrom('groups').select('name')
      .where('id', '=', away.groups[0]?.id ?? '').executeTakeFirstOrThrow()
    expect(row.name).toBe(away.groups[0]?.name)
    // References into another club's records are refused too.
    const crossRef = { events: [{ id: idFor('cross'), title: 'X', starts_at: '2026-06-01T10:00:00Z', group_id: away.groups[0]?.id }] }
    const refused = await importFile('home', await write('cross.json', crossRef))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('events[0].group_id: no group')
    expect(await counts(harness.current)).toEqual(before)
  })

  it('accepts the documented example file', async () => {
    await harness.current.createClub('example')
    const result = await importFile('example', path.resolve('docs/examples/club.json'))
    expect(result.code, result.stderr).toBe(0)
    expect(result.json<{ groups: number }>().groups).toBeGreaterThan(0)
  })

  it('reports unreadable and non-JSON files', async () => {
    expect((await importFile('home', path.join(dir, 'missing.json'))).stderr).toContain('cannot read')
    const notJson = await importFile('home', await write('x.json', '{ nope'))
    expect(notJson.code).toBe(1)
    expect(notJson.stderr).toContain('not valid JSON')
    const notObject = await importFile('home', await write('y.json', '[]'))
    expect(notObject.code).toBe(1)
    expect(notObject.stderr).toContain('document: must be object')
  })
})
