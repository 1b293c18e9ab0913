/**
 * A realistic demo club, with records that each filter of the read API leaves out (an inactive
 * group, grouped and unreleased events, a draft and a scheduled news item). Ids are derived from
 * names, so running it again refreshes the same records; dates are relative to the clock.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { revokeApiKeysNamed } from '../db/repositories/api-keys.js'
import { findClubBySlug, updateClub } from '../db/repositories/clubs.js'
import type { Database } from '../db/schema.js'
import { SCOPES } from '../domain/scopes.js'
import { addDays, localDateOf, localToInstant } from '../domain/zoned-time.js'
import type { ImportDocument } from '../schemas/import.js'
import { createApiKey } from './api-keys.js'
import type { ApiKeyAuthenticator } from './api-keys.js'
import { ownerSignInLink } from './admins.js'
import type { DashboardSettings } from './admins.js'
import { createClub } from './clubs.js'
import { importClubData } from './import.js'

export const DEMO_CLUB = { slug: 'demo', name: 'TC Riverside (demo)', timezone: 'Europe/Berlin' } as const

export interface DemoResult {
  readonly clubSlug: string
  readonly clubId: string
  readonly apiKey: string
  readonly keyId: string
  /** Demo keys of earlier runs, revoked now: one demo key works at a time. */
  readonly revokedKeys: number
  /** A sign-in link to the dashboard for the demo club's owner (DEMO_OWNER), when the caller asked for one. */
  readonly signIn?: { readonly email: string, readonly url: string }
}

/** The demo club's owner in the dashboard: an address of a reserved domain, whose mail stays in DATA_DIR/mail without SMTP. */
export const DEMO_OWNER = 'owner@tc-riverside.example'

/** A UUID (version 8, RFC 9562) derived from a name: the same name always gives the same id. */
export function demoId(name: string): string {
  const hex = createHash('sha256').update(`club-platform demo:${name}`).digest('hex').slice(0, 32).split('')
  hex[12] = '8'
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
  const h = hex.join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

const DAY = 86_400_000

export function demoDocument(now: number): ImportDocument {
  const at = (days: number, hour = 18) => {
    const date = new Date(now + days * DAY)
    date.setUTCHours(hour, 0, 0, 0)
    return date.toISOString()
  }
  const date = (days: number) => at(days).slice(0, 10)
  const members = [
    ['Lena Vogt', 'lena.vogt@example.org'], ['Jonas Berger', 'jonas.berger@example.org'],
    ['Mia Schäfer', 'mia.schaefer@example.org'], ['Noah Keller', 'noah.keller@example.org'],
    ['Emma Wolf', 'emma.wolf@example.org'], ['Paul Hartmann', 'paul.hartmann@example.org'],
  ].map(([name = '', email = '']) => ({ id: demoId(`member:${email}`), name, email }))
  const member = (i: number) => members[i]?.id ?? ''
  const group = (name: string) => demoId(`group:${name}`)
  const court = (name: string) => demoId(`court:${name}`)
  const tomorrow = addDays(localDateOf(now, DEMO_CLUB.timezone), 1)
  return {
    members,
    groups: [
      { id: group('bambini'), name: 'Bambini Tennis', sport: 'tennis', age_min: 4, age_max: 7, level: 'beginner',
        description: 'Playful first steps with a racket, Saturdays 10:00.' },
      { id: group('juniors'), name: 'Juniors Competitive', sport: 'tennis', age_min: 12, age_max: 18, level: 'performance',
        description: 'Squad training for league and tournament players.' },
      { id: group('adults'), name: 'Adults Improvers', sport: 'tennis', age_min: 18, age_max: null, level: 'intermediate',
        description: null },
      { id: group('seniors'), name: 'Seniors 60+', sport: 'tennis', age_min: 60, age_max: null, level: null,
        description: 'Relaxed doubles, Tuesday and Thursday mornings.' },
      { id: group('athletics'), name: 'Athletics Youth', sport: 'athletics', age_min: 10, age_max: 16, level: 'regional',
        description: 'Sprint, jump and throw at the riverside track.' },
      { id: group('winter'), name: 'Winter Indoor League (archived)', sport: 'tennis', active: false },
    ],
    events: [
      { id: demoId('event:open-day'), title: 'Open Day: try tennis for free', starts_at: at(9, 9), ends_at: at(9, 15),
        location: 'Courts 1–4', public_booking: true },
      { id: demoId('event:summer-cup'), title: 'Riverside Summer Cup', starts_at: at(30, 8), ends_at: at(32, 18),
        location: 'Club grounds', public_booking: true },
      { id: demoId('event:fitness'), title: 'Outdoor fitness for everyone', starts_at: at(5, 17), ends_at: null,
        location: null, public_booking: true },
      { id: demoId('event:season-opening'), title: 'Season opening', starts_at: at(-20, 14), ends_at: at(-20, 20),
        location: 'Clubhouse', public_booking: true },
      { id: demoId('event:junior-camp'), title: 'Junior training camp', starts_at: at(14, 9), ends_at: at(16, 16),
        location: 'Courts 5–6', public_booking: true, group_id: group('juniors') },
      { id: demoId('event:agm'), title: 'Annual general meeting (members only)', starts_at: at(21, 19), public_booking: false },
    ],
    news: [
      { id: demoId('news:courts'), title: 'Clay courts are open', content: 'All six clay courts are ready for the season.',
        published_at: at(-12, 8), created_by: member(0) },
      { id: demoId('news:juniors'), title: 'Juniors win the regional league',
        content: 'Our juniors finished the season unbeaten.', published_at: at(-6, 12), created_by: member(1),
        group_id: group('juniors') },
      { id: demoId('news:coach'), title: 'Welcome to our new head coach',
        content: 'Sara joins us from the national federation.', published_at: at(-2, 10) },
      { id: demoId('news:scheduled'), title: 'Summer Cup draw', content: 'The draw will be published here.',
        published_at: at(3, 9), created_by: member(0) },
      { id: demoId('news:draft'), title: 'Draft: clubhouse renovation', content: 'Not published yet.', published_at: null },
    ],
    competition_results: [
      { id: demoId('result:1'), member_id: member(2), group_id: group('juniors'), competition_name: 'Regional Junior Open',
        discipline: 'U16 singles', placement: '1', points: 120, competition_date: date(-10) },
      { id: demoId('result:2'), member_id: member(3), group_id: group('juniors'), competition_name: 'Regional Junior Open',
        discipline: 'U16 singles', placement: '3', points: 60, competition_date: date(-10) },
      { id: demoId('result:3'), member_id: member(4), group_id: group('athletics'), competition_name: 'County Youth Games',
        discipline: '100 m', placement: '2', points: 12.85, competition_date: date(-25) },
      { id: demoId('result:4'), member_id: member(5), group_id: group('seniors'), competition_name: 'Club doubles ladder',
        discipline: 'doubles', placement: null, points: null, competition_date: null },
    ],
    courts: [
      { id: court('1'), name: 'Court 1', opening_hours: weekHours('08:00', '22:00') },
      { id: court('2'), name: 'Court 2', opening_hours: weekHours('08:00', '22:00') },
      { id: court('3'), name: 'Court 3', opening_hours: weekHours('08:00', '22:00') },
      { id: court('hall'), name: 'Hall court (covered)', slot_minutes: 30, max_slots_per_booking: 4,
        opening_hours: weekHours('07:00', '23:00') },
    ],
    court_holds: [
      ...(['tue', 'thu'] as const).flatMap((weekday) => ['1', '2'].map((n) => ({
        id: demoId(`hold:training:${weekday}:${n}`), court_id: court(n), kind: 'reservation' as const, reason: 'Junior training',
        weekday, start_time: '17:00', end_time: '19:00',
      }))),
      { id: demoId('hold:maintenance'), court_id: court('3'), kind: 'block', reason: 'Line repainting',
        starts_at: new Date(localToInstant(tomorrow, 8 * 60, DEMO_CLUB.timezone)).toISOString(),
        ends_at: new Date(localToInstant(tomorrow, 12 * 60, DEMO_CLUB.timezone)).toISOString() },
    ],
  }
}

function weekHours(open: string, close: string) {
  return { mon: { open, close }, tue: { open, close }, wed: { open, close }, thu: { open, close }, fri: { open, close },
    sat: { open, close }, sun: { open, close } }
}

const DEMO_KEY_NAME = 'demo'

/** What a run did to the demo keys of earlier runs, for the printed summary ('' when there were none). */
export function revokedDemoKeysNote(demo: DemoResult): string {
  if (demo.revokedKeys === 0) return ''
  return demo.revokedKeys === 1
    ? 'The demo key printed by the previous run is revoked.'
    : `The ${String(demo.revokedKeys)} demo keys printed by earlier runs are revoked.`
}

/** Creates or refreshes the demo club and creates a new key with every scope, revoking the demo keys of earlier runs. */
export async function loadDemo(
  db: Kysely<Database>,
  clock: Clock,
  options: { apiKeys?: ApiKeyAuthenticator, dashboard?: DashboardSettings } = {},
): Promise<DemoResult> {
  const existing = await findClubBySlug(db, DEMO_CLUB.slug)
  const club = existing ?? await createClub(db, clock, DEMO_CLUB)
  if (existing !== undefined) await updateClub(db, { ...existing, name: DEMO_CLUB.name, timezone: DEMO_CLUB.timezone })
  await importClubData(db, clock, club.id, demoDocument(clock.now()))
  const revokedKeys = await revokeApiKeysNamed(db, club.id, DEMO_KEY_NAME, clock.now())
  const created = await createApiKey(db, clock, { clubId: club.id, name: DEMO_KEY_NAME, scopes: SCOPES, expiresAt: null })
  options.apiKeys?.invalidate()
  const signIn = options.dashboard === undefined
    ? undefined
    : { email: DEMO_OWNER, url: await ownerSignInLink(db, clock, options.dashboard, { clubId: club.id, email: DEMO_OWNER }) }
  return { clubSlug: club.slug, clubId: club.id, apiKey: created.key, keyId: created.record.id, revokedKeys,
    ...(signIn === undefined ? {} : { signIn }) }
}
