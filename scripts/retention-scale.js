/**
 * Retention at a platform's size, on PostgreSQL: 10,000 clubs with 6 courts each, about 2 million
 * bookings over two years (those ended more than 91 days ago already anonymised, as retention
 * leaves them), 300,000 notices and 300,000 audit entries, seeded with generate_series (about three
 * minutes); then three retention runs: the first anonymises what is due, the next have nothing to
 * remove. Prints each run's time and report.
 *
 *   npm run build && node scripts/retention-scale.js [postgres://…/postgres]
 *
 * It creates the database club_platform_retention_scale beside the one named (dropped first).
 */
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import process from 'node:process'
import { URL } from 'node:url'
import pg from 'pg'
import { readConfig } from '../dist/config.js'
import { createContext } from '../dist/context.js'
import { applyRetention } from '../dist/services/retention.js'

const adminUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const url = new URL(adminUrl)
url.pathname = '/club_platform_retention_scale'
const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
await admin.query('drop database if exists club_platform_retention_scale with (force)')
await admin.query('create database club_platform_retention_scale')
await admin.end()
const clock = { now: () => Date.now() }
const settings = readConfig({ DATA_DIR: os.tmpdir(), DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' })
await (await createContext(settings, { clock, migrate: true })).close()

/** @param {string} what */
const timed = (what) => {
  const started = performance.now()
  return () => {
    process.stdout.write(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
  }
}
const client = new pg.Client({ connectionString: url.toString() })
await client.connect()
let done = timed('10,000 clubs and 60,000 courts')
await client.query(`insert into clubs (id, slug, name, timezone, created_at)
  select gen_random_uuid(), 'club-' || i, 'Club ' || i, 'UTC', now() from generate_series(1, 10000) i`)
await client.query(`insert into courts (id, club_id, name, name_key, sport, active, slot_minutes, opening_hours, booking_horizon_days,
  max_slots_per_booking, created_at)
  select gen_random_uuid(), id, 'Court ' || k, 'court ' || k, 'tennis', true, 60, '{}', 14, 2, now() from clubs, generate_series(1, 6) k`)
done()
done = timed('1.98 million bookings')
await client.query(`insert into bookings (id, club_id, court_id, starts_at, ends_at, booker_name, booker_email, created_at, status,
  anonymised_at)
  select gen_random_uuid(), court.club_id, court.id, at, at + interval '1 hour',
    case when at < now() - interval '91 days' then '' else 'Guest' end,
    case when at < now() - interval '91 days' then '' else 'guest' || n || '@example.org' end, at - interval '1 day', 'confirmed',
    case when at < now() - interval '91 days' then at + interval '91 days' end
  from courts court, generate_series(0, 32) n,
    lateral (select date_trunc('hour', now() - interval '730 days') + (n * 22 + (hashtext(court.id::text) & 7)) * interval '1 day'
      + interval '10 hours' as at) slot`)
done()
done = timed('300,000 notices and 300,000 audit entries')
await client.query(`with numbered as (select id, row_number() over () - 1 as k from clubs)
  insert into mail_outbox (id, club_id, booking_id, message_id, recipient_name, recipient_email, subject, text_body, html_body, status,
    attempts, next_attempt_at, created_at, sent_at)
  select gen_random_uuid(), numbered.id, null, '<' || i || '@scale.example>', 'Guest', 'guest' || i || '@example.org', 'Notice',
    repeat('t', 1000), repeat('h', 1000), 'sent', 1, now(), now() - (i % 80) * interval '1 day', now()
  from generate_series(1, 300000) i join numbered on numbered.k = i % 10000`)
await client.query(`with numbered as (select id, row_number() over () - 1 as k from clubs)
  insert into audit_log (id, club_id, actor, action, kind, created_at)
  select gen_random_uuid(), numbered.id, 'owner@example.org', 'booking.cancelled', 'booking', now() - (i % 700) * interval '1 day'
  from generate_series(1, 300000) i join numbered on numbered.k = i % 10000`)
await client.query('analyze')
done()
await client.end()

const context = await createContext(settings, { clock })
for (let run = 1; run <= 3; run++) {
  done = timed(`retention run ${String(run)}`)
  const report = await applyRetention(context.db, clock.now())
  done()
  process.stdout.write(`  ${JSON.stringify(report)}\n`)
}
await context.close()
