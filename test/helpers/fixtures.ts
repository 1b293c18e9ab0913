/** Club data for tests, built to exercise every filter and every tie in the orderings. */
import { createHash } from 'node:crypto'
import type { ImportDocument } from '../../src/schemas/import.js'

/** A stable UUID per name, in no particular order relative to the name. */
export function idFor(name: string): string {
  const h = createHash('sha256').update(name).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const MINUTE = 60_000

export type Fixture = {
  [K in 'members' | 'groups' | 'events' | 'news' | 'competition_results']: NonNullable<ImportDocument[K]>
}

/** `now` is the harness clock's start; news and events are placed around it. */
export function clubFixture(tag: string, now: number, size = 1): Fixture {
  const id = (kind: string, n: number | string) => idFor(`${tag}:${kind}:${String(n)}`)
  const iso = (offsetMinutes: number) => new Date(now + offsetMinutes * MINUTE).toISOString()
  const members = Array.from({ length: 4 }, (_, i) => ({ id: id('member', i), name: `Member ${String(i)} ${tag}`,
    email: `member${String(i)}@${tag}.example.org` }))
  const groupNames = ['Alpha', 'Alpha', 'beta', 'Gamma', 'Élan', 'Zeta', 'alpha', 'Delta', 'Delta']
  const groups = [
    ...Array.from({ length: groupNames.length * size }, (_, i) => ({
      id: id('group', i), name: `${groupNames[i % groupNames.length] ?? ''}${i >= groupNames.length ? ` ${String(i)}` : ''}`,
      sport: i % 2 === 0 ? 'tennis' : 'athletics',
      age_min: i % 3 === 0 ? null : 6 + i, age_max: i % 3 === 0 ? null : 12 + i,
      level: i % 4 === 0 ? null : 'regional', description: i % 2 === 0 ? null : `Group ${String(i)} of ${tag}`,
      active: true,
    })),
    { id: id('group', 'inactive-1'), name: 'Aardvark (inactive)', sport: 'tennis', active: false },
    { id: id('group', 'inactive-2'), name: 'Zz inactive', sport: 'tennis', active: false },
  ]
  const events = [
    ...Array.from({ length: 8 * size }, (_, i) => ({
      id: id('event', i), title: `Event ${String(i)} ${tag}`,
      // pairs share a start time, so the id decides
      starts_at: iso(60 * Math.floor(i / 2) - 120), ends_at: i % 3 === 0 ? null : iso(60 * Math.floor(i / 2)),
      location: i % 2 === 0 ? null : 'Court 1', public_booking: true,
    })),
    { id: id('event', 'grouped'), title: 'Grouped', starts_at: iso(30), public_booking: true, group_id: id('group', 0) },
    { id: id('event', 'internal'), title: 'Not released', starts_at: iso(30), public_booking: false },
    { id: id('event', 'offset-input'), title: 'Given with an offset', starts_at: '2026-06-20T18:00:00+02:00', public_booking: true },
  ]
  const news = [
    ...Array.from({ length: 7 * size }, (_, i) => ({
      id: id('news', i), title: `News ${String(i)}`, content: `Content ${String(i)} of ${tag}`,
      published_at: iso(-10 * Math.floor(i / 2) - 5), created_by: i % 2 === 0 ? id('member', i % 4) : null,
      group_id: i % 3 === 0 ? id('group', 1) : null,
    })),
    { id: id('news', 'now'), title: 'Published exactly now', content: 'x', published_at: iso(0) },
    { id: id('news', 'scheduled'), title: 'Scheduled', content: 'x', published_at: iso(1) },
    { id: id('news', 'draft'), title: 'Draft', content: 'x', published_at: null },
  ]
  const dates = ['2026-05-01', '2026-05-01', null, '2026-04-12', '2026-05-20', null, '2026-04-12']
  const competition_results = Array.from({ length: 10 * size }, (_, i) => ({
    id: id('result', i), member_id: id('member', i % 4), group_id: id('group', i % 3),
    competition_name: `Competition ${String(i)}`, discipline: i % 2 === 0 ? null : 'singles',
    placement: i % 3 === 0 ? null : String(i), points: i % 4 === 0 ? null : i * 1.5,
    competition_date: dates[i % dates.length] ?? null,
    created_at: iso(-100 * (i % 3)),
  }))
  return { members, groups, events, news, competition_results }
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** What the API must list, in order, computed independently of the SQL. */
export function expectedListings(fixture: Fixture, now: number) {
  const iso = (value: string) => new Date(value).toISOString()
  return {
    groups: fixture.groups.filter((g) => g.active !== false)
      .sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id))
      .map((g) => ({ id: g.id, name: g.name, sport: g.sport, age_min: g.age_min ?? null, age_max: g.age_max ?? null,
        level: g.level ?? null, description: g.description ?? null })),
    events: fixture.events.filter((e) => e.public_booking === true && e.group_id == null)
      .sort((a, b) => byCodePoint(iso(a.starts_at), iso(b.starts_at)) || byCodePoint(a.id, b.id))
      .map((e) => ({ id: e.id, title: e.title, starts_at: iso(e.starts_at), ends_at: e.ends_at == null ? null : iso(e.ends_at),
        location: e.location ?? null })),
    news: fixture.news.filter((n) => n.published_at != null && Date.parse(n.published_at) <= now)
      .sort((a, b) => byCodePoint(iso(b.published_at ?? ''), iso(a.published_at ?? '')) || byCodePoint(a.id, b.id))
      .map((n) => ({ id: n.id, title: n.title, content: n.content, published_at: iso(n.published_at ?? ''),
        ...(n.created_by == null ? {} : { created_by: n.created_by }) })),
    competition_results: [...fixture.competition_results]
      .sort((a, b) => {
        const ad = a.competition_date ?? null
        const bd = b.competition_date ?? null
        const byDate = ad === bd ? 0 : ad === null ? 1 : bd === null ? -1 : byCodePoint(bd, ad)
        return byDate || byCodePoint(iso(b.created_at ?? ''), iso(a.created_at ?? '')) || byCodePoint(a.id, b.id)
      })
      .map((r) => ({ id: r.id, member_id: r.member_id, group_id: r.group_id, competition_name: r.competition_name,
        discipline: r.discipline ?? null, placement: r.placement ?? null, points: r.points ?? null,
        competition_date: r.competition_date ?? null, created_at: iso(r.created_at ?? '') })),
  }
}

/** Every id in a fixture, of every kind, listed or not. */
export function allIds(fixture: Fixture): string[] {
  return [...fixture.members, ...fixture.groups, ...fixture.events, ...fixture.news, ...fixture.competition_results]
    .map((row) => row.id)
}
