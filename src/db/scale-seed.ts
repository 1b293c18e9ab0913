/**
 * The benchmark's platform-sized data (`npm run bench -- --scale`, docs/performance.md): clubs
 * named `scale-1` … `scale-N` in UTC, each with six courts open 08:00–22:00, a booking history of
 * two years and two weeks (guests' data removed from those that ended more than 91 days ago, as
 * retention leaves them; one in ten cancelled), and of each log — sent notices with bodies of about
 * 2 KB, delivered webhook messages, audit entries — as many rows as the shape says, within their
 * retention periods: a retention run finds nothing to remove. Every club also has content for the
 * read API and a disabled webhook endpoint.
 *
 * Written as one INSERT … SELECT per table over a series, so that the database builds millions of
 * rows in minutes: generate_series on PostgreSQL, a recursive CTE on SQLite (whose connection
 * needs the function `scale_uuid`).
 */
import type { Kysely } from 'kysely'
import { DEFAULT_OPENING_HOURS } from '../domain/slots.js'
import type { Database } from './schema.js'
import { isoForDb } from './values.js'

export interface ScaleShape {
  readonly clubs: number
  readonly bookingsPerClub: number
  /** Rows of each log (notices, webhook messages and deliveries, audit entries) per club. */
  readonly logRowsPerClub: number
  readonly now: number
}

export const SCALE_COURTS_PER_CLUB = 6
/** How far ahead the courts take bookings: room for a booking scenario of thousands a second on 10 clubs. */
export const SCALE_HORIZON_DAYS = 60
/** Bookings of the history start at this UTC hour: the benchmark books the other hours. */
export const SCALE_HISTORY_HOUR = 10
/** The read API's lists of every club: how many items each holds. */
export const SCALE_LISTS = { 'groups': 10, 'events': 20, 'news': 20, 'competition-results': 40 } as const
const HISTORY_DAYS = 744
const ANONYMISED_AFTER_DAYS = 91
const BODY = 1_000

const hours = JSON.stringify(DEFAULT_OPENING_HOURS)

/** Competition results name a member and a group of their club: pairs of them, numbered in each club (`i`). */
const results = (values: string) => `insert into competition_results (id, club_id, member_id, group_id, competition_name, discipline,
    placement, points, competition_date, created_at)
  select ${values} from (select m.club_id, m.id as member_id, g.id as group_id,
      row_number() over (partition by m.club_id order by m.id, g.id) - 1 as i
    from members m join groups g on g.club_id = m.club_id) pairs
  where i < ${String(SCALE_LISTS['competition-results'])}`

function perCourt(shape: ScaleShape): { count: number, step: number } {
  const count = Math.max(1, Math.round(shape.bookingsPerClub / SCALE_COURTS_PER_CLUB))
  // The first booking two years ago, the last two weeks ahead.
  return { count, step: HISTORY_DAYS / Math.max(1, count - 1) }
}

/** PostgreSQL's statements, in order. */
export function postgresScaleSeed(shape: ScaleShape): string[] {
  const now = `timestamptz '${isoForDb(shape.now)}'`
  const { count, step } = perCourt(shape)
  const logs = shape.logRowsPerClub
  const first = `date_trunc('day', ${now} - interval '730 days') + interval '${String(SCALE_HISTORY_HOUR)} hours'`
  const perClub = (table: string, n: number, columns: string, values: string) => `insert into ${table} (${columns})
    select ${values} from clubs c, generate_series(0, ${String(n - 1)}) i`
  return [
    `insert into clubs (id, slug, name, timezone, created_at)
      select gen_random_uuid(), 'scale-' || i, 'Club ' || i, 'UTC', ${now} from generate_series(1, ${String(shape.clubs)}) i`,
    `insert into courts (id, club_id, name, name_key, sport, active, slot_minutes, opening_hours, booking_horizon_days,
      max_slots_per_booking, created_at)
      select gen_random_uuid(), c.id, 'Court ' || k, 'court ' || k, 'tennis', true, 60, '${hours}', ${String(SCALE_HORIZON_DAYS)}, 2,
        ${now}
      from clubs c, generate_series(1, ${String(SCALE_COURTS_PER_CLUB)}) k`,
    `insert into bookings (id, club_id, court_id, starts_at, ends_at, booker_name, booker_email, created_at, status, cancelled_at,
      cancelled_by, anonymised_at)
      select gen_random_uuid(), court.club_id, court.id, at, at + interval '1 hour',
        case when old then '' else 'Guest ' || n end, case when old then '' else 'guest' || n || '@example.org' end,
        at - interval '3 days', case when n % 10 = 0 then 'cancelled' else 'confirmed' end,
        case when n % 10 = 0 then at - interval '1 day' end, case when n % 10 = 0 then 'guest' end,
        case when old then at + interval '${String(ANONYMISED_AFTER_DAYS)} days' end
      from courts court, generate_series(0, ${String(count - 1)}) n,
        lateral (select ${first} + floor(n * ${String(step)} + substr(court.name, 7)::int % 4) * interval '1 day' as at) slot,
        lateral (select at < ${now} - interval '${String(ANONYMISED_AFTER_DAYS)} days' as old) age`,
    perClub('members', 10, 'id, club_id, name, email, created_at',
      `gen_random_uuid(), c.id, 'Member ' || i, 'm' || i || '@' || c.slug || '.example.org', ${now}`),
    perClub('groups', SCALE_LISTS.groups, 'id, club_id, name, sport, age_min, age_max, level, description, active, created_at',
      `gen_random_uuid(), c.id, 'Group ' || lpad(i::text, 3, '0'), 'tennis', 6, 18, 'regional', 'Training group ' || i, true, ${now}`),
    perClub('events', SCALE_LISTS.events, 'id, club_id, title, starts_at, ends_at, location, public_booking, created_at',
      `gen_random_uuid(), c.id, 'Event ' || i, ${now} + (i - 5) * interval '3 days',
        ${now} + (i - 5) * interval '3 days' + interval '2 hours', 'Court 1', true, ${now}`),
    perClub('news', SCALE_LISTS.news, 'id, club_id, title, content, published_at, created_at',
      `gen_random_uuid(), c.id, 'News ' || i, 'Item ' || i || ': the club reports on its season.', ${now} - i * interval '5 days',
        ${now} - i * interval '5 days'`),
    results(`gen_random_uuid(), club_id, member_id, group_id, 'Open ' || (i % 8), 'singles', (1 + i % 16)::text, i % 100,
      (${now} - i * interval '9 days')::date, ${now}`),
    perClub('mail_outbox', logs, `id, club_id, booking_id, message_id, recipient_name, recipient_email, subject, text_body,
        html_body, status, attempts, next_attempt_at, created_at, sent_at`,
    `gen_random_uuid(), c.id, null, '<' || c.slug || '.' || i || '@scale.example>', 'Guest', 'guest' || i || '@example.org',
        'Notice', repeat('t', ${String(BODY)}), repeat('h', ${String(BODY)}), 'sent', 1, ${now}, ${now} - (i % 80) * interval '1 day',
        ${now} - (i % 80) * interval '1 day'`),
    perClub('webhook_endpoints', 1, `id, club_id, url, description, event_types, enabled, disabled_reason, secret, failing_since,
        created_at, updated_at`,
    `gen_random_uuid(), c.id, 'https://hooks.example.org/' || c.slug, 'Club system', '[]', false, 'failing',
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ${now}, ${now}, ${now}`),
    perClub('webhook_messages', logs, 'id, club_id, type, subject_id, payload, created_at',
      `'msg_' || c.slug || '_' || i, c.id, 'booking.created', null, '{}', ${now} - (i % 25) * interval '1 day'`),
    `insert into webhook_deliveries (id, message_id, endpoint_id, club_id, trigger, status, attempts, next_attempt_at,
      last_attempt_at, response_status, latency_ms, created_at, finished_at)
      select gen_random_uuid(), m.id, e.id, m.club_id, 'event', 'delivered', 1, m.created_at, m.created_at, 204, 40,
        m.created_at, m.created_at + interval '1 second'
      from webhook_messages m join webhook_endpoints e on e.club_id = m.club_id`,
    perClub('audit_log', logs, 'id, club_id, actor, action, kind, target, created_at',
      `gen_random_uuid(), c.id, 'owner@' || c.slug || '.example.org', 'booking.cancelled', 'booking', gen_random_uuid()::text,
        ${now} - (i * 23 % 700) * interval '1 day'`),
    // As a database in service is: vacuumed (visibility map set, so index-only scans need no heap visits) and analysed, not
    // left to autovacuum, which would work through the new rows while the scenarios are measured.
    'vacuum (analyze)',
  ]
}

/** SQLite's statements, in order; the connection must have the function `scale_uuid()`. */
export function sqliteScaleSeed(shape: ScaleShape): string[] {
  const now = `'${isoForDb(shape.now)}'`
  const iso = (...modifiers: string[]) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${[now, ...modifiers].join(', ')})`
  const { count, step } = perCourt(shape)
  const logs = shape.logRowsPerClub
  const series = (n: number) => `(with recursive s(i) as (select 0 union all select i + 1 from s where i < ${String(n - 1)}) select i from s)`
  const perClub = (table: string, n: number, columns: string, values: string) => `insert into ${table} (${columns})
    select ${values} from clubs c, ${series(n)} x`
  const days = (expression: string) => `(${expression}) || ' days'`
  return [
    `insert into clubs (id, slug, name, timezone, created_at)
      select scale_uuid(), 'scale-' || (i + 1), 'Club ' || (i + 1), 'UTC', ${now} from ${series(shape.clubs)}`,
    `insert into courts (id, club_id, name, name_key, sport, active, slot_minutes, opening_hours, booking_horizon_days,
      max_slots_per_booking, created_at)
      select scale_uuid(), c.id, 'Court ' || (k.i + 1), 'court ' || (k.i + 1), 'tennis', 1, 60, '${hours}', ${String(SCALE_HORIZON_DAYS)},
        2, ${now}
      from clubs c, ${series(SCALE_COURTS_PER_CLUB)} k`,
    `insert into bookings (id, club_id, court_id, starts_at, ends_at, booker_name, booker_email, created_at, status, cancelled_at,
      cancelled_by, anonymised_at)
      select scale_uuid(), club_id, court_id, at, strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 hour'),
        case when old then '' else 'Guest ' || n end, case when old then '' else 'guest' || n || '@example.org' end,
        strftime('%Y-%m-%dT%H:%M:%fZ', at, '-3 days'), case when n % 10 = 0 then 'cancelled' else 'confirmed' end,
        case when n % 10 = 0 then strftime('%Y-%m-%dT%H:%M:%fZ', at, '-1 day') end, case when n % 10 = 0 then 'guest' end,
        case when old then strftime('%Y-%m-%dT%H:%M:%fZ', at, '+${String(ANONYMISED_AFTER_DAYS)} days') end
      from (select club_id, court_id, n, at, at < ${iso(`'-${String(ANONYMISED_AFTER_DAYS)} days'`)} as old
        from (select court.club_id, court.id as court_id, x.i as n,
          strftime('%Y-%m-%dT${String(SCALE_HISTORY_HOUR).padStart(2, '0')}:00:00.000Z', ${now}, '-730 days',
            ${days(`cast(x.i * ${String(step)} as integer) + cast(substr(court.name, 7) as integer) % 4`)}) as at
          from courts court, ${series(count)} x))`,
    perClub('members', 10, 'id, club_id, name, email, created_at',
      `scale_uuid(), c.id, 'Member ' || x.i, 'm' || x.i || '@' || c.slug || '.example.org', ${now}`),
    perClub('groups', SCALE_LISTS.groups, 'id, club_id, name, sport, age_min, age_max, level, description, active, created_at',
      `scale_uuid(), c.id, 'Group ' || printf('%03d', x.i), 'tennis', 6, 18, 'regional', 'Training group ' || x.i, 1, ${now}`),
    perClub('events', SCALE_LISTS.events, 'id, club_id, title, starts_at, ends_at, location, public_booking, created_at',
      `scale_uuid(), c.id, 'Event ' || x.i, ${iso(days('(x.i - 5) * 3'))}, ${iso(days('(x.i - 5) * 3'), '\'+2 hours\'')},
        'Court 1', 1, ${now}`),
    perClub('news', SCALE_LISTS.news, 'id, club_id, title, content, published_at, created_at',
      `scale_uuid(), c.id, 'News ' || x.i, 'Item ' || x.i || ': the club reports on its season.', ${iso(days('-x.i * 5'))},
        ${iso(days('-x.i * 5'))}`),
    results(`scale_uuid(), club_id, member_id, group_id, 'Open ' || (i % 8), 'singles', cast(1 + i % 16 as text), i % 100,
      date(${now}, ${days('-i * 9')}), ${now}`),
    perClub('mail_outbox', logs, `id, club_id, booking_id, message_id, recipient_name, recipient_email, subject, text_body,
        html_body, status, attempts, next_attempt_at, created_at, sent_at`,
    `scale_uuid(), c.id, null, '<' || c.slug || '.' || x.i || '@scale.example>', 'Guest', 'guest' || x.i || '@example.org',
        'Notice', printf('%.${String(BODY)}c', 't'), printf('%.${String(BODY)}c', 'h'), 'sent', 1, ${now},
        ${iso(days('-(x.i % 80)'))}, ${iso(days('-(x.i % 80)'))}`),
    perClub('webhook_endpoints', 1, `id, club_id, url, description, event_types, enabled, disabled_reason, secret, failing_since,
        created_at, updated_at`,
    `scale_uuid(), c.id, 'https://hooks.example.org/' || c.slug, 'Club system', '[]', 0, 'failing',
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ${now}, ${now}, ${now}`),
    perClub('webhook_messages', logs, 'id, club_id, type, subject_id, payload, created_at',
      `'msg_' || c.slug || '_' || x.i, c.id, 'booking.created', null, '{}', ${iso(days('-(x.i % 25)'))}`),
    `insert into webhook_deliveries (id, message_id, endpoint_id, club_id, trigger, status, attempts, next_attempt_at,
      last_attempt_at, response_status, latency_ms, created_at, finished_at)
      select scale_uuid(), m.id, e.id, m.club_id, 'event', 'delivered', 1, m.created_at, m.created_at, 204, 40,
        m.created_at, strftime('%Y-%m-%dT%H:%M:%fZ', m.created_at, '+1 second')
      from webhook_messages m join webhook_endpoints e on e.club_id = m.club_id`,
    perClub('audit_log', logs, 'id, club_id, actor, action, kind, target, created_at',
      `scale_uuid(), c.id, 'owner@' || c.slug || '.example.org', 'booking.cancelled', 'booking', scale_uuid(),
        ${iso(days('-(x.i * 23 % 700)'))}`),
    'analyze',
  ]
}

/** The courts of the clubs `scale-1` … `scale-<clubs>`, by club number: what the benchmark books. */
export async function scaleCourts(db: Kysely<Database>, clubs: number): Promise<string[][]> {
  const rows = await db.selectFrom('courts').innerJoin('clubs', 'clubs.id', 'courts.club_id')
    .select(['clubs.slug', 'courts.id']).where('clubs.slug', 'in', Array.from({ length: clubs }, (_, i) => `scale-${String(i + 1)}`))
    .orderBy('clubs.slug').orderBy('courts.name').execute()
  const byClub = Array.from({ length: clubs }, (): string[] => [])
  for (const row of rows) byClub[Number(row.slug.slice('scale-'.length)) - 1]?.push(row.id)
  return byClub
}

/**
 * A retention backlog: the guests' data put back into the anonymised bookings of the first
 * `clubs` clubs, and the retention job's last run forgotten, so that the next server starts a run.
 * Answers how many bookings the run has to anonymise.
 */
export async function makeRetentionBacklog(db: Kysely<Database>, clubs: number): Promise<number> {
  let bookings = 0
  // A club at a time: one statement for them all outlasts the statement timeout at a platform's size.
  for (let c = 1; c <= clubs; c++) {
    const club = db.selectFrom('clubs').select('id').where('slug', '=', `scale-${String(c)}`)
    const result = await db.updateTable('bookings').set({ booker_name: 'Guest', booker_email: 'guest@example.org', anonymised_at: null })
      .where('club_id', '=', club).where('anonymised_at', 'is not', null).executeTakeFirst()
    bookings += Number(result.numUpdatedRows)
  }
  await db.deleteFrom('job_runs').execute()
  return bookings
}
