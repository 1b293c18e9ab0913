/**
 * What a booking costs: `count` bookings of free hours, `concurrency` at a time, through the
 * service's HTTP handling (app.inject, in this process) on SQLite or PostgreSQL. Prints bookings a
 * second and this process's CPU per booking (PostgreSQL's own is not in it).
 *
 *   npm run build && node scripts/booking-cost.js [DATABASE_URL] [count] [concurrency]
 *
 * For comparing versions and settings on one machine, run after run; the benchmark (npm run bench)
 * is the service's measure.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import process from 'node:process'
import { buildApp } from '../dist/app.js'
import { readConfig } from '../dist/config.js'
import { createContext } from '../dist/context.js'
import { createClub } from '../dist/services/clubs.js'
import { importClubData } from '../dist/services/import.js'

const [databaseUrl = '', count = '2000', concurrency = '32'] = process.argv.slice(2)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-booking-cost-'))
const config = readConfig({ DATA_DIR: dir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', BOOKING_RATE_CAPACITY: '1000000',
  BOOKING_RATE_PER_MINUTE: '60000000', PUBLIC_RATE_CAPACITY: '1000000', BOOKING_MAX_OPEN_PER_EMAIL: '1000',
  BOOKING_MAX_PER_ADDRESS_PER_DAY: '100000' })
const clock = { now: () => Date.now() }
const context = await createContext(config, { clock, migrate: true, mailThread: true })
const app = await buildApp(context, { logDestination: fs.createWriteStream(path.join(dir, 'log')) })
const slug = `cost-${randomUUID().slice(0, 8)}`
const club = await createClub(context.db, clock, { slug, name: 'Cost', timezone: 'UTC' })
const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))
const courts = Array.from({ length: 10 }, () => randomUUID())
await importClubData(context.db, clock, club.id, { courts: courts.map((id, i) => ({ id, name: `Court ${String(i + 1)}`,
  opening_hours: hours, booking_horizon_days: 366 })) })
const first = Math.ceil(Date.now() / 3_600_000 + 2) * 3_600_000
/** @param {number} n */
const book = (n) => app.inject({ method: 'POST', url: `/api/v1/public/${slug}/courts/book`,
  headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
  payload: JSON.stringify({ court_id: courts[n % courts.length],
    start_time: new Date(first + Math.floor(n / courts.length) * 3_600_000).toISOString(),
    end_time: new Date(first + (Math.floor(n / courts.length) + 1) * 3_600_000).toISOString(),
    booker_name: 'Cost', booker_email: `cost${String(n % 500)}@example.org` }) })
for (let n = 0; n < 50; n++) await book(Number(count) + n)
let next = 0
/** @type {Map<number, number>} */
const statuses = new Map()
const cpu = process.cpuUsage()
const started = performance.now()
await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
  for (let n = next++; n < Number(count); n = next++) {
    const { statusCode } = await book(n)
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1)
  }
}))
const seconds = (performance.now() - started) / 1000
const used = process.cpuUsage(cpu)
process.stdout.write(`${databaseUrl === '' ? 'SQLite' : 'PostgreSQL'}: ${count} bookings, ${concurrency} at a time, in ${seconds.toFixed(2)} s: `
  + `${(Number(count) / seconds).toFixed(0)} a second, ${((used.user + used.system) / 1000 / Number(count)).toFixed(2)} ms of this `
  + `process's CPU each (answers: ${JSON.stringify(Object.fromEntries(statuses))})\n`)
await app.close()
await context.close()
fs.rmSync(dir, { recursive: true, force: true })
