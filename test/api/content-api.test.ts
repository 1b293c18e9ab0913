/**
 * The dashboard's content editors over HTTP, on both databases: members, training groups, events,
 * news and competition results — create, change, deactivate or unpublish, refusals that name the
 * field, edits of one version refused the second time, the audit log with the fields changed, the
 * editor role, and the read API's next answer after each edit (its cache included). Results from a
 * CSV file, and the club's data out as an import file and into a fresh database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../helpers/databases.js'
import { asSession, signedIn } from '../helpers/dashboard.js'
import { ORIGIN } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { ApiResponse, Harness } from '../helpers/harness.js'

interface Problem {
  type: string
  detail: string
  invalid_params?: { name: string, reason: string }[]
  current?: Record<string, unknown>
}
interface Versioned { id: string, version: number }
type Club = Harness extends { createClub(...args: never[]): Promise<infer C> } ? C : never

const CLUB = '/api/admin/v1/clubs/riverside'

describeEachDatabase('content editors', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let club: Club
  let key = ''
  let editor: ReturnType<typeof asSession>
  let owner: ReturnType<typeof asSession>
  let memberId = ''
  let groupId = ''

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { PUBLIC_URL: `${ORIGIN}/` } })
    club = await h.createClub('riverside')
    key = (await h.createKey(club.id)).key
    owner = asSession(h, await signedIn(h, club.id, 'olivia@example.org', 'owner'))
    editor = asSession(h, await signedIn(h, club.id, 'eddie@example.org', 'editor'))
  })
  afterAll(async () => {
    await h.close()
  })

  /** The read API's list, as a club website reads it. */
  const read = async (path: string) => {
    const response = await h.request({ url: `/api/v1/${path}`, key })
    expect(response.status, response.body).toBe(200)
    return response.json<{ data: Record<string, unknown>[], meta: { total: number } }>().data
  }
  const ok = <T>(response: ApiResponse, status = 200): T => {
    expect(response.status, response.body).toBe(status)
    return response.json<T>()
  }
  const problem = (response: ApiResponse, status: number): Problem => {
    expect(response.status, response.body).toBe(status)
    return response.json<Problem>()
  }
  const audit = async () => ok<{ items: { action: string, target: string | null, fields: string[] | null, actor: string }[] }>(
    await owner('GET', `${CLUB}/audit`)).items

  it('keeps members: private to the dashboard, their e-mail unique, refused with the field named', async () => {
    const created = ok<Versioned & { email: string, results: number }>(await editor('POST', `${CLUB}/members`,
      { name: 'Mia Member', email: 'Mia@Example.org' }), 201)
    expect(created).toMatchObject({ email: 'mia@example.org', results: 0, version: 1 })
    memberId = created.id
    const twin = problem(await editor('POST', `${CLUB}/members`, { name: 'Other', email: 'mia@example.org' }), 400)
    expect(twin.invalid_params?.[0]).toMatchObject({ name: 'email' })
    expect(problem(await editor('POST', `${CLUB}/members`, { name: '', email: 'x@example.org' }), 400).invalid_params?.[0]?.name)
      .toBe('name')
    const changed = ok<Versioned & { name: string }>(await editor('PUT', `${CLUB}/members/${memberId}`,
      { name: 'Mia Müller', email: 'mia@example.org', version: 1 }))
    expect(changed).toMatchObject({ name: 'Mia Müller', version: 2 })
    expect((await audit()).find((entry) => entry.action === 'member.changed' && entry.target === memberId)?.fields).toEqual(['name'])
  })

  it('creates, changes and deactivates a training group; the read API follows each edit at once', async () => {
    expect(await read('groups')).toEqual([])
    // Empty fields as the page sends them: null stays null (a coercing validator would make the ages 0).
    const empty = ok<Versioned & Record<string, unknown>>(await editor('POST', `${CLUB}/groups`, { name: 'Open', sport: 'padel',
      age_min: null, age_max: null, level: null, description: null }), 201)
    expect(empty).toMatchObject({ age_min: null, age_max: null, level: null, description: null })
    ok(await editor('PUT', `${CLUB}/groups/${empty.id}`, { name: 'Open', sport: 'padel', age_min: null, active: false, version: 1 }))
    const created = ok<Versioned>(await editor('POST', `${CLUB}/groups`, { name: 'Juniors', sport: 'tennis', age_min: 10,
      age_max: 14 }), 201)
    groupId = created.id
    expect(await read('groups')).toEqual([{ id: groupId, name: 'Juniors', sport: 'tennis', age_min: 10, age_max: 14, level: null,
      description: null }])
    const refused = problem(await editor('POST', `${CLUB}/groups`, { name: 'Odd', sport: 'tennis', age_min: 15, age_max: 9 }), 400)
    expect(refused.detail).toMatch(/age_min is greater than age_max/)
    ok(await editor('PUT', `${CLUB}/groups/${groupId}`, { name: 'Juniors A', sport: 'tennis', age_min: 10, age_max: 14,
      level: 'regional', version: 1 }))
    expect((await read('groups'))[0]).toMatchObject({ name: 'Juniors A', level: 'regional' })
    const off = ok<{ active: boolean, version: number }>(await editor('PUT', `${CLUB}/groups/${groupId}`, { name: 'Juniors A',
      sport: 'tennis', age_min: 10, age_max: 14, level: 'regional', active: false, version: 2 }))
    expect(off).toMatchObject({ active: false, version: 3 })
    expect(await read('groups')).toEqual([])
    ok(await editor('PUT', `${CLUB}/groups/${groupId}`, { name: 'Juniors A', sport: 'tennis', age_min: 10, age_max: 14,
      level: 'regional', active: true, version: 3 }))
    expect((await read('groups')).map((group) => group.id)).toEqual([groupId])
    // Four entries of one instant (the clock stood still), in any order.
    const entries = (await audit()).filter((entry) => entry.target === groupId)
      .map((entry) => JSON.stringify([entry.action, entry.fields, entry.actor])).sort()
    expect(entries).toEqual([
      ['group.changed', ['active'], 'eddie@example.org'],
      ['group.changed', ['active'], 'eddie@example.org'],
      ['group.changed', ['name', 'level'], 'eddie@example.org'],
      ['group.created', ['name', 'sport', 'age_min', 'age_max', 'active'], 'eddie@example.org'],
    ].map((entry) => JSON.stringify(entry)).sort())
  })

  it('refuses the second of two edits from one version with 409 and the record as it is now, and changes nothing', async () => {
    const body = { name: 'Juniors A', sport: 'tennis', age_min: 10, age_max: 14, level: 'regional', active: true }
    const [first, second] = await Promise.all([
      editor('PUT', `${CLUB}/groups/${groupId}`, { ...body, description: 'First', version: 4 }),
      owner('PUT', `${CLUB}/groups/${groupId}`, { ...body, description: 'Second', version: 4 }),
    ])
    const statuses = [first.status, second.status].sort()
    expect(statuses).toEqual([200, 409])
    const [won, lost] = first.status === 200 ? [first, second] : [second, first]
    const conflict = lost.json<Problem>()
    expect(conflict.type).toMatch(/\/problems\/edit-conflict$/)
    const winner = won.json<{ description: string }>().description
    expect(conflict.current).toMatchObject({ id: groupId, version: 5, description: winner })
    expect((await read('groups'))[0]?.description).toBe(won.json<{ description: string }>().description)
    // A missing version is a refusal, not a blind overwrite.
    expect(problem(await editor('PUT', `${CLUB}/groups/${groupId}`, body), 400).invalid_params?.[0]?.name).toBe('version')
  })

  it('lists an event only when released and without a group, says why, and deletes it', async () => {
    const event = { title: 'Open day', starts_at: '2026-07-04T10:00:00+02:00', ends_at: '2026-07-04T16:00:00+02:00',
      location: 'Clubhouse' }
    const created = ok<Versioned & { listing: string }>(await editor('POST', `${CLUB}/events`, event), 201)
    expect(created.listing).toBe('not-released')
    expect(await read('events')).toEqual([])
    const released = ok<Versioned & { listing: string }>(await editor('PUT', `${CLUB}/events/${created.id}`,
      { ...event, public_booking: true, version: 1 }))
    expect(released.listing).toBe('listed')
    expect(await read('events')).toEqual([{ id: created.id, title: 'Open day', starts_at: '2026-07-04T08:00:00.000Z',
      ends_at: '2026-07-04T14:00:00.000Z', location: 'Clubhouse' }])
    const grouped = ok<{ listing: string }>(await editor('PUT', `${CLUB}/events/${created.id}`,
      { ...event, public_booking: true, group_id: groupId, version: 2 }))
    expect(grouped.listing).toBe('group-event')
    expect(await read('events')).toEqual([])
    expect(problem(await editor('PUT', `${CLUB}/events/${created.id}`, { ...event, starts_at: '2026-07-04T10:00:00', version: 3 }),
      400).invalid_params?.[0]?.name).toBe('starts_at')
    expect(problem(await editor('DELETE', `${CLUB}/events/${created.id}?version=1`), 409).current).toMatchObject({ version: 3 })
    expect((await editor('DELETE', `${CLUB}/events/${created.id}?version=3`)).status).toBe(204)
    expect((await editor('GET', `${CLUB}/events`)).json<{ items: unknown[] }>().items).toEqual([])
  })

  it('drafts, schedules, publishes and unpublishes news; a scheduled item appears exactly when the clock passes it', async () => {
    const draft = ok<Versioned & { state: string }>(await editor('POST', `${CLUB}/news`, { title: 'Summer party',
      content: 'Line one\n<script>alert(1)</script>', created_by: memberId }), 201)
    expect(draft.state).toBe('draft')
    expect(await read('news')).toEqual([])
    const at = new Date(h.clock.now() + 60_000).toISOString()
    const scheduled = ok<{ state: string, published_at: string }>(await editor('PUT', `${CLUB}/news/${draft.id}`, { title: 'Summer party',
      content: 'Line one\n<script>alert(1)</script>', created_by: memberId, published_at: at, version: 1 }))
    expect(scheduled).toMatchObject({ state: 'scheduled', published_at: at })
    expect(await read('news')).toEqual([])
    h.clock.advance(59_999)
    expect(await read('news')).toEqual([])
    h.clock.advance(1)
    expect(await read('news')).toEqual([{ id: draft.id, title: 'Summer party', content: 'Line one\n<script>alert(1)</script>',
      published_at: at, created_by: memberId }])
    ok(await editor('PUT', `${CLUB}/news/${draft.id}`, { title: 'Summer party', content: 'x', published_at: null, version: 2 }))
    expect(await read('news')).toEqual([])
    const now = ok<{ state: string, published_at: string }>(await editor('PUT', `${CLUB}/news/${draft.id}`, { title: 'Summer party',
      content: 'x', published_at: 'now', version: 3 }))
    expect(now).toMatchObject({ state: 'published', published_at: new Date(h.clock.now()).toISOString() })
    expect((await read('news')).map((item) => item.id)).toEqual([draft.id])
  })

  it('adds, changes and deletes competition results; a member named by results stays', async () => {
    const unscored = ok<Record<string, unknown>>(await editor('POST', `${CLUB}/competition-results`, { member_id: memberId,
      group_id: groupId, competition_name: 'Friendly', discipline: null, placement: null, points: null, competition_date: null }), 201)
    expect(unscored).toMatchObject({ discipline: null, placement: null, points: null, competition_date: null })
    expect((await editor('DELETE', `${CLUB}/competition-results/${String(unscored.id)}`)).status).toBe(204)
    const result = { member_id: memberId, group_id: groupId, competition_name: 'Club championship', placement: '1',
      points: 12.5, competition_date: '2026-06-01' }
    const created = ok<Versioned>(await editor('POST', `${CLUB}/competition-results`, result), 201)
    expect(await read('competition-results')).toEqual([{ id: created.id, ...result, discipline: null,
      created_at: new Date(h.clock.now()).toISOString() }])
    expect(problem(await editor('POST', `${CLUB}/competition-results`, { ...result, member_id: '00000000-0000-4000-8000-000000000000' }),
      400).invalid_params?.[0]?.name).toBe('member_id')
    ok(await editor('PUT', `${CLUB}/competition-results/${created.id}`, { ...result, placement: '2', version: 1 }))
    expect((await read('competition-results'))[0]).toMatchObject({ placement: '2' })
    expect(problem(await editor('DELETE', `${CLUB}/members/${memberId}`), 409).detail).toMatch(/1 competition result/)
    expect((await editor('DELETE', `${CLUB}/competition-results/${created.id}`)).status).toBe(204)
    expect(await read('competition-results')).toEqual([])
  })

  it('refuses, for every kind of record, a field the rules refuse (naming it) and a change from an old version', async () => {
    const kinds = [
      { path: 'members', body: { name: 'Otto', email: 'otto@example.org' }, change: { name: 'Otto O.' },
        bad: { email: 'not an address' }, field: 'email' },
      { path: 'groups', body: { name: 'Minis', sport: 'tennis' }, change: { level: 'beginners' }, bad: { age_min: -1 }, field: 'age_min' },
      { path: 'events', body: { title: 'Quiz', starts_at: '2026-09-01T19:00:00+02:00' }, change: { location: 'Bar' },
        bad: { ends_at: 'tomorrow' }, field: 'ends_at' },
      { path: 'news', body: { title: 'Hello', content: 'x' }, change: { content: 'y' }, bad: { title: '' }, field: 'title' },
      { path: 'competition-results', body: { member_id: memberId, group_id: groupId, competition_name: 'Cup' },
        change: { placement: '3' }, bad: { group_id: '00000000-0000-4000-8000-000000000000' }, field: 'group_id' },
    ]
    for (const kind of kinds) {
      const { id } = ok<Versioned>(await editor('POST', `${CLUB}/${kind.path}`, kind.body), 201)
      const refused = problem(await editor('PUT', `${CLUB}/${kind.path}/${id}`, { ...kind.body, ...kind.bad, version: 1 }), 400)
      expect(refused.invalid_params?.map((param) => param.name), kind.path).toEqual([kind.field])
      const changed = ok<Versioned>(await editor('PUT', `${CLUB}/${kind.path}/${id}`, { ...kind.body, ...kind.change, version: 1 }))
      expect(changed.version, kind.path).toBe(2)
      const stale = await owner('PUT', `${CLUB}/${kind.path}/${id}`, { ...kind.body, version: 1 })
      const conflict = problem(stale, 409)
      expect(conflict.type, kind.path).toMatch(/\/problems\/edit-conflict$/)
      expect(conflict.current, kind.path).toMatchObject({ id, version: 2, ...kind.change })
      expect((await editor('GET', `${CLUB}/${kind.path}`)).json<{ items: Versioned[] }>().items.find((item) => item.id === id),
        kind.path).toMatchObject({ version: 2, ...kind.change })
      if (kind.path === 'groups') {
        // Groups are deactivated, never deleted: their events, news and results keep them.
        expect((await editor('DELETE', `${CLUB}/${kind.path}/${id}`)).status).toBe(405)
        continue
      }
      expect(problem(await editor('DELETE', `${CLUB}/${kind.path}/${id}?version=1`), 409).type, kind.path).toMatch(/edit-conflict$/)
      expect((await editor('DELETE', `${CLUB}/${kind.path}/${id}?version=2`)).status, kind.path).toBe(204)
    }
  })

  it('lets an editor keep content but not keys, the team, import or export', async () => {
    for (const path of ['api-keys', 'team', 'audit', 'export', 'booking-rules', 'courts', 'website']) {
      expect((await editor('GET', `${CLUB}/${path}`)).status, path).toBe(403)
    }
    expect((await editor('POST', `${CLUB}/import`, {})).status).toBe(403)
    expect((await editor('POST', `${CLUB}/api-keys`, { name: 'x', scopes: ['read:groups'] })).status).toBe(403)
    expect((await editor('GET', `${CLUB}/groups`)).status).toBe(200)
  })

  it('imports a 500-row results file all or nothing, naming each bad row by its line', async () => {
    const header = 'member,group,competition_name,discipline,placement,points,competition_date'
    const rows = Array.from({ length: 500 }, (_, i) => `mia@example.org,Juniors A,Spring cup,singles,${String(i + 1)},${String(i)},2026-05-0${String(1 + (i % 9))}`)
    const broken = [...rows]
    broken[10] = 'nobody@example.org,Juniors A,Spring cup,singles,11,10,2026-05-02'
    broken[250] = 'mia@example.org,Seniors,Spring cup,singles,251,250,2026-05-02'
    broken[499] = 'mia@example.org,Juniors A,Spring cup,singles,500,lots,2026-02-30'
    const refused = problem(await editor('POST', `${CLUB}/competition-results/csv`, { csv: [header, ...broken].join('\n') }), 400)
    expect([...new Set(refused.invalid_params?.map((param) => param.name))]).toEqual(['line 12', 'line 252', 'line 501'])
    expect(refused.invalid_params?.find((param) => param.name === 'line 12')?.reason).toMatch(/nobody@example\.org/)
    expect(refused.invalid_params?.find((param) => param.name === 'line 252')?.reason).toMatch(/Seniors/)
    expect(refused.invalid_params?.filter((param) => param.name === 'line 501').map((param) => param.reason.split(':')[0]))
      .toEqual(['points', 'competition_date'])
    expect(await read('competition-results')).toEqual([])

    const semicolons = `\ufeff${[header, ...rows].join('\r\n').replaceAll(',', ';')}\r\n`
    const preview = ok<{ rows: { line: number, member_name: string }[], written: boolean }>(await editor('POST',
      `${CLUB}/competition-results/csv`, { csv: semicolons, dry_run: true }))
    expect(preview).toMatchObject({ written: false })
    expect(preview.rows).toHaveLength(500)
    expect(preview.rows[0]).toMatchObject({ line: 2, member_name: 'Mia Müller' })
    expect(await read('competition-results')).toEqual([])
    const saved = ok<{ written: boolean }>(await editor('POST', `${CLUB}/competition-results/csv`, { csv: semicolons }))
    expect(saved.written).toBe(true)
    expect((await h.request({ url: '/api/v1/competition-results?limit=1', key })).json<{ meta: { total: number } }>().meta.total)
      .toBe(500)
    expect((await audit()).find((entry) => entry.action === 'results.imported')?.target).toBe('500 results: Spring cup')
  })

  it('refuses a file with many kinds of fault in one answer, each at its line and column in plain words, and passes it fixed',
    async () => {
      // No competition_name column; and in the rows: an unknown member, an unknown group, a day no calendar has, a date written
      // another way, points that are not a number, a row of too few cells, a discipline too long.
      const faulty = ['member;group;discipline;placement;points;competition_date',
        'mia@example.org;Juniors A;singles;1;12,5;2026-05-03',
        'nobody@example.org;Juniors A;singles;2;11;2026-05-03',
        'mia@example.org;Seniors;singles;3;10;2026-05-03',
        'mia@example.org;Juniors A;singles;4;9;2026-13-45',
        'mia@example.org;Juniors A;singles;5;8;May 3rd 2026',
        'mia@example.org;Juniors A;singles;6;lots;03.05.2026',
        'mia@example.org;Juniors A;singles;7',
        `mia@example.org;Juniors A;${'x'.repeat(201)};8;7;2026-05-03`].join('\n')
      const answer = await editor('POST', `${CLUB}/competition-results/csv`, { csv: faulty })
      expect(answer.status, answer.body).toBe(400)
      const { rows } = answer.json<{ rows: { line: number, column: string | null, reason: string }[] }>()
      expect(rows.map((row) => [row.line, row.column])).toEqual([[1, 'competition_name'], [3, 'member'], [4, 'group'],
        [5, 'competition_date'], [6, 'competition_date'], [7, 'points'], [8, null], [9, 'discipline']])
      expect(rows.map((row) => row.reason)).toEqual([
        'The column "competition_name" is missing; every result needs the competition\'s name.',
        'No member of the club has the e-mail address (or id) "nobody@example.org". Add them on the Members page first, or correct '
        + 'the address.',
        'The club has no group called "Seniors".',
        '"2026-13-45" is not a day in the calendar (month 13, day 45).',
        '"May 3rd 2026" is not written as a date; write it as 2026-05-03 or 03.05.2026.',
        '"lots" is not a number; write points as digits, e.g. 12.5 or 12,5.',
        'This row has 4 cells where the header has 6; put a cell that holds the separator in quotes.',
        'This is 201 characters long; at most 200 fit.',
      ])
      // Nothing of JSON Schema's vocabulary, nor a path into the import document.
      for (const { reason } of rows) expect(reason).not.toMatch(/must (match|be|NOT)|anyOf|format|\[\d+\]|competition_results/)
      const total = async () => (await h.request({ url: '/api/v1/competition-results?limit=1', key })).json<{ meta: { total: number } }>()
        .meta.total
      expect(await total()).toBe(500)

      const fixed = ['member;group;competition_name;discipline;placement;points;competition_date',
        'mia@example.org;Juniors A;Autumn cup;singles;1;12,5;2026-05-03',
        'mia@example.org;Juniors A;Autumn cup;singles;2;11;03.05.2026'].join('\n')
      const saved = ok<{ rows: { line: number, points: number | null, competition_date: string | null }[], written: boolean }>(
        await editor('POST', `${CLUB}/competition-results/csv`, { csv: fixed, dry_run: true }))
      expect(saved.written).toBe(false)
      expect(saved.rows.map((row) => [row.line, row.points, row.competition_date])).toEqual([[2, 12.5, '2026-05-03'],
        [3, 11, '2026-05-03']])
      expect(await total()).toBe(500)
    })

  it('exports the club as an import file that recreates every list byte for byte in a fresh database', async () => {
    ok(await editor('POST', `${CLUB}/events`, { title: 'Tournament', starts_at: '2026-08-01T09:00:00+02:00', public_booking: true }), 201)
    const exported = await owner('GET', `${CLUB}/export`)
    expect(exported.status, exported.body).toBe(200)
    expect(exported.headers['content-disposition']).toBe('attachment; filename="riverside-2026-06-15.json"')
    const file = exported.json<Record<string, unknown[]>>()
    expect(file.members).toEqual([{ id: memberId, name: 'Mia Müller', email: 'mia@example.org' }])

    const lists = ['groups', 'events', 'news', 'competition-results?limit=100&offset=100']
    const other = await startHarness(dialect, { env: { PUBLIC_URL: `${ORIGIN}/` } })
    try {
      other.clock.advance(h.clock.now() - other.clock.now())
      const copy = await other.createClub('riverside-copy')
      const otherOwner = asSession(other, await signedIn(other, copy.id, 'olivia@example.org', 'owner'))
      const imported = await otherOwner('POST', '/api/admin/v1/clubs/riverside-copy/import', file)
      expect(imported.json(), imported.body)
        .toMatchObject({ members: 1, groups: 3, events: 1, news: 1, competition_results: 500 })
      const otherKey = (await other.createKey(copy.id)).key
      for (const list of lists) {
        const original = await h.request({ url: `/api/v1/${list}`, key })
        const recreated = await other.request({ url: `/api/v1/${list}`, key: otherKey })
        expect(recreated.body, list).toBe(original.body)
      }
      // A file with mistakes changes nothing and names each entry.
      const bad = await otherOwner('POST', '/api/admin/v1/clubs/riverside-copy/import', { groups: [{ id: 'not-a-uuid', name: 'x',
        sport: 'y' }], events: [{ id: '6a1f6f55-5b43-4d0b-9a53-3f8f3b0a1c11', title: 'No start' }] })
      expect(bad.status, bad.body).toBe(400)
      expect(bad.json<Problem>().invalid_params?.map((param) => param.name)).toEqual(['groups[0].id', 'events[0]'])
    } finally {
      await other.close()
    }
  })
})
