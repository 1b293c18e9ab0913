/** The benchmark's data: clubs of a realistic size, each with an API key, and one 10× club with a key that is used up. */
import { readConfig } from '../../config.js'
import { createContext } from '../../context.js'
import type { AppContext } from '../../context.js'
import type { ImportDocument } from '../../schemas/import.js'
import { createApiKey } from '../../services/api-keys.js'
import { createClub } from '../../services/clubs.js'
import { importClubData } from '../../services/import.js'
import { findClubBySlug } from '../../db/repositories/clubs.js'
import { addDays, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { dashboardSettings } from '../../http/dashboard-access.js'
import { inviteAdmin } from '../../services/admins.js'
import { OPERATOR } from '../../services/audit.js'
import { bookCourt, bookingSettings } from '../../services/bookings.js'

/** The 10× club's courts: the planner's day is measured on them. */
export const PLANNER_COURTS = 20
/** Bookings on the 10× club's courts the day after the run's start, two per court. */
export const PLANNER_BOOKINGS = 2 * PLANNER_COURTS

export function id(n: number, kind: string, club: number): string {
  const hex = (n + club * 1_000_003).toString(16).padStart(12, '0').slice(-12)
  return `${kind}-0000-4000-8000-${hex}`
}

function clubDocument(c: number, scale: number, now: number): ImportDocument {
  const hex = (prefix: string) => prefix.padEnd(8, '0').slice(0, 8)
  const iso = (minutes: number) => new Date(now + minutes * 60_000).toISOString()
  const members = Array.from({ length: 50 }, (_, i) => ({ id: id(i, hex('a1'), c), name: `Member ${String(i)}`,
    email: `m${String(i)}@club${String(c)}.example.org` }))
  const groups = Array.from({ length: 40 * scale }, (_, i) => ({ id: id(i, hex('b2'), c), name: `Group ${String(i).padStart(5, '0')}`,
    sport: 'tennis', age_min: 6, age_max: 18, level: 'regional', description: `Training group ${String(i)} of club ${String(c)}` }))
  return {
    members,
    groups,
    events: Array.from({ length: 200 * scale }, (_, i) => ({ id: id(i, hex('c3'), c), title: `Event ${String(i)}`, starts_at: iso(i * 60),
      ends_at: iso(i * 60 + 90), location: 'Court 1', public_booking: true })),
    news: Array.from({ length: 500 * scale }, (_, i) => ({ id: id(i, hex('d4'), c), title: `News ${String(i)}`,
      content: `Item ${String(i)}: the club reports on its season.`, published_at: iso(-i * 30), created_by: members[i % 50]?.id ?? null })),
    competition_results: Array.from({ length: 2_000 * scale }, (_, i) => ({ id: id(i, hex('e5'), c), member_id: members[i % 50]?.id ?? '',
      group_id: groups[i % groups.length]?.id ?? '', competition_name: `Open ${String(i % 40)}`, discipline: 'singles',
      placement: String(1 + (i % 16)), points: i % 100,
      competition_date: new Date(now - (i % 365) * 86_400_000).toISOString().slice(0, 10) })),
    courts: Array.from({ length: c === 0 ? PLANNER_COURTS : 12 }, (_, i) => ({ id: id(i, hex('f6'), c), name: `Court ${String(i + 1).padStart(2, '0')}`,
      booking_horizon_days: 14 })),
    court_holds: [{ id: id(0, hex('a7'), c), court_id: id(0, hex('f6'), c), kind: 'reservation', weekday: 'tue', start_time: '17:00',
      end_time: '19:00' }],
  }
}

async function seed(context: AppContext, now: number, count: number): Promise<Seeded> {
  const keys: string[] = []
  const slugs: string[] = []
  for (let c = 0; c <= count; c++) {
    const slug = c === 0 ? 'large' : `club-${String(c)}`
    const club = await createClub(context.db, context.clock, { slug, name: `Club ${String(c)}`, timezone: 'Europe/Berlin' })
    await importClubData(context.db, context.clock, club.id, clubDocument(c, c === 0 ? 10 : 1, now))
    keys.push((await createApiKey(context.db, context.clock, { clubId: club.id, name: 'bench', expiresAt: null,
      scopes: ['read:groups', 'read:events', 'read:news', 'read:competition_results'] })).key)
    slugs.push(slug)
    if (c % 100 === 0) process.stderr.write(`seeded ${String(c + 1)} of ${String(count + 1)} clubs\n`)
  }
  const large = await findClubBySlug(context.db, 'large')
  if (large === undefined) throw new Error('the club "large" was not seeded')
  const exhausted = (await createApiKey(context.db, context.clock, { clubId: large.id, name: 'exhausted', expiresAt: null,
    scopes: ['read:groups'], limits: { capacity: 1, perMinute: 1 } })).key
  // The planner's day: the 10× club's bookings tomorrow, and an invitation the benchmark accepts for a session.
  const tomorrow = addDays(localDateOf(now, large.timezone), 1)
  for (let b = 0; b < PLANNER_BOOKINGS; b++) {
    const start = localToInstant(tomorrow, (b % 2 === 0 ? 10 : 20) * 60, large.timezone)
    await bookCourt(context.db, context.clock, bookingSettings(context), large, { court_id: id(Math.floor(b / 2), 'f6000000', 0),
      start_time: new Date(start).toISOString(), end_time: new Date(start + 3_600_000).toISOString(),
      booker_name: `Planner guest ${String(b)}`, booker_email: `p${String(b)}@large.example.org`, notes: 'Bench' })
  }
  const { url } = await inviteAdmin(context.db, context.clock, dashboardSettings(context),
    { clubId: large.id, email: 'desk@large.example.org', role: 'admin', actor: OPERATOR })
  return { keys, slugs, exhausted, invitation: new URL(url).hash.replace('#token=', ''), plannerDate: tomorrow }
}

export interface Seeded {
  keys: string[]
  slugs: string[]
  exhausted: string
  /** An invitation to administer the 10× club, and the date of its planner's bookings. */
  invitation: string
  plannerDate: string
}

export async function seedInto(env: Record<string, string>, count: number, now: number): Promise<Seeded> {
  const context = await createContext(readConfig(env), { migrate: true, role: 'admin' })
  try {
    return await seed(context, now, count)
  } finally {
    await context.close()
  }
}
