/**
 * The benchmark: `npm run bench [-- --quick]`.
 *
 * Seeds a fresh SQLite database (embedded default), starts the real server as a separate process
 * (as `npm start` runs it), and drives each scenario from this process over loopback. In the same
 * run, for every scenario, a bare node:http server (its own process) answers the exact bytes —
 * status, headers, body — that the service returned for that request, under the same load: each
 * result is a ratio to that baseline, with the absolute figures beside it. Service and baseline
 * alternate `--rounds` times and the best round of each counts, which filters out most of the noise
 * of a shared machine. After a scenario that queued mail (the bookings), the next waits until the
 * server has delivered it, and the table notes how long that took. Then the miss scenario again
 * with the response cache off, and scale-out mode (PostgreSQL + Redis, two workers) when both are
 * reachable.
 *
 * --quick: 20 clubs, one 2 s round per scenario and a Node.js load generator, to prove the benchmark
 * works (CI). The full run: 1,000 clubs and one 10× club, the best of 3 × 5 s, and wrk (installed
 * from Debian's packages when missing), with Lua scripts for the scenarios whose requests vary.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { readConfig } from '../config.js'
import { createContext } from '../context.js'
import type { AppContext } from '../context.js'
import { addDays, localDateOf, localToInstant } from '../domain/zoned-time.js'
import type { ImportDocument } from '../schemas/import.js'
import { createApiKey } from '../services/api-keys.js'
import { createClub } from '../services/clubs.js'
import { loadSqliteDriver } from '../db/sqlite-driver.js'
import { importClubData } from '../services/import.js'
import { freePort } from './free-port.js'

const { values } = parseArgs({ options: {
  quick: { type: 'boolean', default: false },
  seconds: { type: 'string' },
  connections: { type: 'string', default: '50' },
  /** Service and baseline alternate this many times; the best round of each counts (the machine is shared). */
  rounds: { type: 'string' },
  out: { type: 'string', default: 'bench-results.json' },
  /** Run only the scenarios whose name contains this text (or one of several, separated by `|`). */
  only: { type: 'string' },
  /** Write the server's CPU profile (node --cpu-prof) to this directory. */
  profile: { type: 'string' },
  clubs: { type: 'string' },
} })
const quick = values.quick
const seconds = Number(values.seconds ?? (quick ? '2' : '5'))
const rounds = Number(values.rounds ?? (quick ? '1' : '3'))
const connections = Number(values.connections)
const clubs = Number(values.clubs ?? (quick ? '20' : '1000'))

interface Request { method: string, path: string, headers: Record<string, string>, body?: string }
interface Scenario {
  name: string
  /** The next request, for the Node.js generator (--quick) and for the sample the baseline replays. */
  requests: () => Request
  /** wrk: the sample request every time ('fixed'), or the requests of a Lua script ('script'). */
  wrk?: 'fixed' | 'script'
  lua?: string
}
interface Result { req_s: number, p50_ms: number, p99_ms: number, errors: number, gc?: Collections }
/** The service's garbage collections during a round, from its /metrics (V8's kinds: minor, major, incremental, weakcb). */
interface Collections { ms: Record<string, number>, count: Record<string, number> }

function id(n: number, kind: string, club: number): string {
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
    courts: Array.from({ length: 12 }, (_, i) => ({ id: id(i, hex('f6'), c), name: `Court ${String(i + 1).padStart(2, '0')}`,
      booking_horizon_days: 14 })),
    court_holds: [{ id: id(0, hex('a7'), c), court_id: id(0, hex('f6'), c), kind: 'reservation', weekday: 'tue', start_time: '17:00',
      end_time: '19:00' }],
  }
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer`)
}

/** A closed-loop load generator: `connections` keep-alive connections, each sending the next request on an answer. */
async function drive(base: string, scenario: Scenario, duration: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const latencies: number[] = []
  let errors = 0
  const until = performance.now() + duration * 1000
  const one = (request: Request) => new Promise<void>((resolve) => {
    const started = performance.now()
    const req = http.request(`${base}${request.path}`, { method: request.method, headers: request.headers, agent }, (res) => {
      res.resume()
      res.on('end', () => {
        latencies.push(performance.now() - started)
        resolve()
      })
    })
    req.on('error', () => {
      errors++
      resolve()
    })
    req.end(request.body)
  })
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) await one(scenario.requests())
  }))
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
  return { req_s: latencies.length / duration, p50_ms: q(0.5), p99_ms: q(0.99), errors }
}

/** wrk's threads: two, for two cores. */
const WRK_THREADS = 2

/**
 * One wrk run. A script gets the run's number within its scenario and the scenario's number of runs
 * (`-- run runs`): the bookings' script gives each run and thread a range of slots of its own.
 */
function wrk(base: string, request: Request, duration: number, script?: { file: string, run: number, runs: number }): Result {
  const args = [`-t${String(WRK_THREADS)}`, `-c${String(connections)}`, `-d${String(duration)}s`, '--latency',
    ...(script === undefined
      ? Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
      : ['-s', script.file]),
    `${base}${request.path}`, ...(script === undefined ? [] : ['--', String(script.run), String(script.runs)])]
  const text = execFileSync('wrk', args, { encoding: 'utf8' })
  const unit = (value: string, suffix: string) => Number(value) * (suffix === 'us' ? 0.001 : suffix === 's' ? 1000 : 1)
  const latency = (label: string) => {
    const match = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(text)
    return match === null ? 0 : unit(match[1] ?? '0', match[2] ?? 'ms')
  }
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text)
  return { req_s: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0), p50_ms: latency('50'), p99_ms: latency('99'),
    errors: errors === null ? 0 : Number(errors[1]) }
}

/** The baseline: a bare node:http process answering, for every request, the bytes the service gave. */
interface Answer { status: number, headers: Record<string, string>, body: Buffer }

async function baselineServer({ status, headers, body }: Answer): Promise<{ child: ChildProcess, base: string }> {
  const port = await freePort()
  // The body in a file of its own: a script argument has a size limit.
  const file = path.join(os.tmpdir(), `club-platform-bench-body-${randomUUID()}`)
  fs.writeFileSync(file, body)
  const script = `const http = require('node:http');
const body = require('node:fs').readFileSync(${JSON.stringify(file)});
require('node:fs').rmSync(${JSON.stringify(file)});
const headers = ${JSON.stringify(headers)};
http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(${String(status)}, headers); res.end(body) }) })
  .listen(${String(port)}, '127.0.0.1');`
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${String(port)}`
  for (let i = 0; i < 100; i++) {
    if (await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end()
        resolve(true)
      })
      socket.on('error', () => {
        resolve(false)
      })
    })) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, base }
}

/** One answer as it came over the wire (node:http: fetch would decode a compressed body). */
async function sample(base: string, request: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${request.path}`, { method: request.method, headers: request.headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = String(value)
        }
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
      })
    })
    req.on('error', reject)
    req.end(request.body)
  })
}

/** The server's collections so far (nodejs_gc_duration_seconds from its /metrics), in milliseconds and counts by kind. */
async function collections(base: string): Promise<Collections> {
  const text = (await sample(base, { method: 'GET', path: '/metrics', headers: {} })).body.toString()
  const ms: Record<string, number> = {}
  const count: Record<string, number> = {}
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const [, part = '', kind = '', value = '0'] = match
    if (part === 'sum') ms[kind] = Number(value) * 1000
    else count[kind] = Number(value)
  }
  return { ms, count }
}

/** What a run did between two readings of collections. */
function collectionsBetween(before: Collections, after: Collections): Collections {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([kind, value]) => [kind, Math.round((value - (b[kind] ?? 0)) * 10) / 10]))
  return { ms: minus(after.ms, before.ms), count: minus(after.count, before.count) }
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
  const large = await context.db.selectFrom('clubs').select('id').where('slug', '=', 'large').executeTakeFirstOrThrow()
  const exhausted = (await createApiKey(context.db, context.clock, { clubId: large.id, name: 'exhausted', expiresAt: null,
    scopes: ['read:groups'], limits: { capacity: 1, perMinute: 1 } })).key
  return { keys, slugs, exhausted }
}

interface Seeded { keys: string[], slugs: string[], exhausted: string }

const auth = (key: string) => ({ authorization: `Bearer ${key}` })
/** How many items each list of an average club has: misses read pages anywhere in them. */
const LISTS = [['groups', 40], ['events', 200], ['news', 500], ['competition-results', 2_000]] as const

function listScenario(path: string, key: string, name = `GET ${path}`): Scenario {
  return { name, wrk: 'fixed', requests: () => ({ method: 'GET', path, headers: auth(key) }) }
}

/** wrk's setup hook for a Lua script: each thread's state gets its number (1, 2, …) as `thread_number`. */
const NUMBERED_THREADS = `local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end`

/** Every request a random club, list and offset: with 1,000 clubs the response cache holds almost none of them. */
function missScenario(seeded: Seeded, dir: string, name: string): Scenario {
  const keys = seeded.keys.slice(1)
  const lua = path.join(dir, `miss-${randomUUID()}.lua`)
  fs.writeFileSync(lua, `local keys = {${keys.map((key) => `"${key}"`).join(',')}}
local lists = {${LISTS.map(([list, size]) => `{"${list}", ${String(size)}}`).join(',')}}
${NUMBERED_THREADS}
-- Each thread's Lua state starts with the same random seed: unseeded, both threads would ask for the same pages.
function init()
  math.randomseed(thread_number * 7919 + os.time())
end
request = function()
  local list = lists[math.random(#lists)]
  local path = "/api/v1/" .. list[1] .. "?offset=" .. math.random(0, list[2] - 1)
  return wrk.format("GET", path, { Authorization = "Bearer " .. keys[math.random(#keys)] })
end
`)
  return { name, wrk: 'script', lua, requests: () => {
    const [list, size] = LISTS[Math.floor(Math.random() * LISTS.length)] ?? LISTS[0]
    return { method: 'GET', path: `/api/v1/${list}?offset=${String(Math.floor(Math.random() * size))}`,
      headers: auth(keys[Math.floor(Math.random() * keys.length)] ?? '') }
  } }
}

/**
 * Distinct free one-hour slots: 11 courts × 14 hours × 13 days per club, club after club. Court 01
 * is left out: its weekly reservation (Tuesdays 17:00–19:00) made 2 of its slots per Tuesday a
 * slot conflict, the ~22 non-201 answers of a full round. Every booking of the scenario is free,
 * so any non-2xx answer it reports is a defect.
 */
const BOOKABLE_COURTS = 11

function bookingScenario(seeded: Seeded, now: number, dir: string): Scenario {
  const tomorrow = addDays(localDateOf(now, 'Europe/Berlin'), 1)
  const days = Array.from({ length: 13 }, (_, d) => addDays(tomorrow, d))
  const at = (day: string, minutes: number) => new Date(localToInstant(day, minutes, 'Europe/Berlin')).toISOString()
  const perClub = BOOKABLE_COURTS * 14 * days.length
  const slot = (n: number) => {
    const c = 1 + (Math.floor(n / perClub) % (seeded.slugs.length - 1))
    const s = n % perClub
    const day = days[Math.floor(s / (BOOKABLE_COURTS * 14))] ?? tomorrow
    const minutes = (8 + (Math.floor(s / BOOKABLE_COURTS) % 14)) * 60
    return { c, court: id(1 + (s % BOOKABLE_COURTS), 'f6000000', c), start: at(day, minutes), end: at(day, minutes + 60) }
  }
  const body = (n: number) => {
    const { court, start, end } = slot(n)
    return JSON.stringify({ court_id: court, start_time: start, end_time: end, booker_name: 'Bench',
      booker_email: `b${String(n)}@example.org` })
  }
  let next = 0
  // wrk's Lua has no time zones: it gets the instants of every slot hour of the 13 days, computed here.
  const lua = path.join(dir, `book-${randomUUID()}.lua`)
  const hours = days.flatMap((day) => Array.from({ length: 14 }, (_, h) => `{"${at(day, (8 + h) * 60)}","${at(day, (9 + h) * 60)}"}`))
  // The script leaves the first club to the requests sent from here (the warm-up and the baseline's sample).
  fs.writeFileSync(lua, `local slugs = {${seeded.slugs.slice(2).map((slug) => `"${slug}"`).join(',')}}
local hours = {${hours.join(',')}}
local n = 0
${NUMBERED_THREADS}
local perClub = ${String(BOOKABLE_COURTS)} * #hours
-- The slots are split between the threads, and each thread's share between the runs (args: this
-- run's number, the number of runs): no two runs of a scenario ask for the same slot, whatever the
-- number of clubs (a share must outlast a round: some 5,000 bookings with 200 clubs or more).
function init(args)
  local perThread = math.floor(#slugs * perClub / ${String(WRK_THREADS)})
  local perRun = math.floor(perThread / tonumber(args[2] or "1"))
  n = perThread * (thread_number - 1) + perRun * tonumber(args[1] or "0")
end
request = function()
  n = n + 1
  local c = math.floor(n / perClub) % #slugs
  local s = n % perClub
  local hour = hours[math.floor(s / ${String(BOOKABLE_COURTS)}) + 1]
  local court = string.format("f6000000-0000-4000-8000-%012x", 1 + (s % ${String(BOOKABLE_COURTS)}) + (c + 2) * 1000003)
  local body = '{"court_id":"' .. court .. '","start_time":"' .. hour[1] .. '","end_time":"' .. hour[2]
    .. '","booker_name":"Bench","booker_email":"w' .. n .. '@example.org"}'
  return wrk.format("POST", "/api/v1/public/" .. slugs[c + 1] .. "/courts/book", { ["Content-Type"] = "application/json" }, body)
end
`)
  return { name: 'POST /api/v1/public/{club}/courts/book (distinct free slots)', wrk: 'script', lua, requests: () => {
    const n = next++
    return { method: 'POST', path: `/api/v1/public/${seeded.slugs[slot(n).c] ?? ''}/courts/book`,
      headers: { 'content-type': 'application/json' }, body: body(n) }
  } }
}

function scenarios(seeded: Seeded, now: number, dir: string): Scenario[] {
  const average = seeded.keys[1] ?? ''
  const large = seeded.keys[0] ?? ''
  const tomorrow = addDays(localDateOf(now, 'Europe/Berlin'), 1)
  return [
    ...LISTS.map(([list]) => listScenario(`/api/v1/${list}`, average)),
    missScenario(seeded, dir, 'GET lists, every request a different club and offset (cache misses)'),
    listScenario('/api/v1/competition-results?offset=0', large, 'GET /api/v1/competition-results?offset=0 (10× club)'),
    listScenario('/api/v1/competition-results?offset=10000', large, 'GET /api/v1/competition-results?offset=10000 (10× club)'),
    listScenario('/api/v1/groups', large, 'GET /api/v1/groups (10× club)'),
    { ...listScenario('/api/v1/groups', seeded.exhausted), name: 'GET /api/v1/groups with an exhausted key (429)' },
    { name: 'GET /api/v1/public/{club}/courts (12 courts, a full day)', wrk: 'fixed',
      requests: () => ({ method: 'GET', path: `/api/v1/public/${seeded.slugs[1] ?? ''}/courts?date=${tomorrow}`, headers: {} }) },
    bookingScenario(seeded, now, dir),
    ...staticScenarios(),
  ]
}

/** The booking widget and the dashboard's script, as a browser fetches them: brotli, from the precompressed copies. */
function staticScenarios(): Scenario[] {
  const browser = { 'accept-encoding': 'gzip, deflate, br' }
  const script = fs.readdirSync('dist/dashboard/assets').find((name) => name.endsWith('.js'))
  return [
    { name: 'GET /widget/v1/club-booking.js (brotli)', wrk: 'fixed',
      requests: () => ({ method: 'GET', path: '/widget/v1/club-booking.js', headers: browser }) },
    ...(script === undefined
      ? []
      : [{ name: 'GET /dashboard/assets/index-….js (brotli)', wrk: 'fixed' as const,
          requests: () => ({ method: 'GET', path: `/dashboard/assets/${script}`, headers: browser }) }]),
  ]
}

async function seedInto(env: Record<string, string>, count: number, now: number): Promise<Seeded> {
  const context = await createContext(readConfig(env), { migrate: true, role: 'admin' })
  try {
    return await seed(context, now, count)
  } finally {
    await context.close()
  }
}

/** Limits raised so that the limiter runs on every request but never refuses one. */
const RAISED_LIMITS = { RATE_LIMIT_CAPACITY: '1000000', RATE_LIMIT_PER_MINUTE: '60000000', DAILY_QUOTA: '1000000000',
  PUBLIC_RATE_CAPACITY: '1000000', PUBLIC_RATE_PER_MINUTE: '60000000', BOOKING_RATE_CAPACITY: '1000000',
  BOOKING_RATE_PER_MINUTE: '60000000', BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '100000' }

interface RunningServer { base: string, child: ChildProcess, stop(): Promise<void>, rssMiB(): number[] }

/**
 * What `npm start` runs, read from package.json's start script (`[NAME=value …] node <flags>
 * dist/server.js`): its environment and Node.js flags, so that the server is measured as it is run.
 */
function startCommand(): { env: Record<string, string>, flags: string[] } {
  const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts?: Record<string, string> }
  const words = (manifest.scripts?.start ?? '').trim().split(/\s+/)
  const node = words.indexOf('node')
  const assignments = words.slice(0, Math.max(node, 0)).map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
  if (node < 0 || words.at(-1) !== 'dist/server.js' || assignments.some((match) => match === null)) {
    throw new Error(`package.json's start script is not "[NAME=value …] node <flags> dist/server.js": ${manifest.scripts?.start ?? '(none)'}`)
  }
  return { env: Object.fromEntries(assignments.map((match) => [match?.[1] ?? '', match?.[2] ?? ''])), flags: words.slice(node + 1, -1) }
}

async function startBenchServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort()
  const profile = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`]
  const start = startCommand()
  const child = spawn(process.execPath, [...start.flags, ...profile, 'dist/server.js'], { stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...start.env, ...env, ...RAISED_LIMITS, PORT: String(port), LOG_LEVEL: 'warn' } })
  const base = `http://127.0.0.1:${String(port)}`
  await waitFor(`${base}/healthz`)
  return {
    base,
    child,
    // With WORKERS, the processes that serve are the supervisor's children.
    rssMiB: () => {
      const pid = String(child.pid ?? 0)
      const ps = (args: string[]) => spawnSync('ps', args, { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter((field) => field !== '')
      const children = ps(['-o', 'pid=', '--ppid', pid])
      return (children.length > 0 ? children : [pid]).map((process) => Number(ps(['-o', 'rss=', '-p', process])[0] ?? 0) / 1024)
    },
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.on('exit', resolve))
    },
  }
}

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.end()
      resolve(true)
    })
    socket.on('error', () => {
      resolve(false)
    })
  })
}

/**
 * `server`: 'one' when one process serves (its /metrics are the server's collections); with
 * several (scale-out), each reading would come from whichever answered, so none is taken.
 */
async function measure(base: string, scenario: Scenario, server: 'one' | 'several' = 'one'): Promise<Record<string, unknown>> {
  // One request first: it warms the path, and uses up the exhausted key's only token.
  await sample(base, scenario.requests())
  const example = scenario.requests()
  const answer = await sample(base, example)
  const useWrk = !quick && scenario.wrk !== undefined
  const lua = scenario.wrk === 'script' ? scenario.lua : undefined
  const script = (run: number) => (lua === undefined ? undefined : { file: lua, run, runs: 2 * rounds })
  const bare = await baselineServer(answer)
  const best = (a: Result | undefined, b: Result) => (a === undefined || b.req_s > a.req_s ? b : a)
  let service: Result | undefined
  let baseline: Result | undefined
  for (let round = 0; round < rounds; round++) {
    const before = server === 'one' ? await collections(base) : undefined
    const result = useWrk ? wrk(base, example, seconds, script(2 * round)) : await drive(base, scenario, seconds)
    const collected = before === undefined ? undefined : collectionsBetween(before, await collections(base))
    service = best(service, collected === undefined ? result : { ...result, gc: collected })
    baseline = best(baseline, useWrk
      ? wrk(bare.base, example, seconds, script(2 * round + 1))
      : await drive(bare.base, { ...scenario, requests: () => example }, seconds))
  }
  bare.child.kill()
  if (service === undefined || baseline === undefined) throw new Error('--rounds must be at least 1')
  const gc = Object.entries(service.gc?.ms ?? {}).map(([kind, ms]) => `${kind} ${ms.toFixed(0)} ms × ${String(service.gc?.count[kind])}`)
  process.stderr.write(`${scenario.name}: ${service.req_s.toFixed(0)} req/s vs ${baseline.req_s.toFixed(0)}`
    + `${gc.length === 0 ? '' : ` (collections: ${gc.join(', ')})`}\n`)
  return { scenario: scenario.name, status: answer.status, bytes: answer.body.length, generator: useWrk ? 'wrk' : 'node',
    service, baseline, ratio: baseline.req_s === 0 ? 0 : service.req_s / baseline.req_s }
}

/** The mail a scenario left due: how many mails, how long they took to go out, whether all did. */
interface MailAfter { mails: number, seconds: number, drained: boolean }

/** How long a scenario's mail may take to go out before the next scenario starts anyway. */
const SETTLE_LIMIT_MS = 300_000

/**
 * Waits until the embedded server's mail outbox holds nothing to deliver (read from its SQLite
 * file, read-only, every 100 ms), and answers how many mails were due at first and how long they
 * took to go out; undefined when none was due. A scenario that queues mail (the bookings) leaves
 * thousands behind, which the server delivers over the next seconds: the next scenario, measured
 * meanwhile, would measure those deliveries too.
 */
async function settle(file: string): Promise<MailAfter | undefined> {
  const database = new (loadSqliteDriver().Database)(file, { readonly: true, fileMustExist: true })
  try {
    const due = database.prepare('select count(*) as n from mail_outbox where status in (\'pending\', \'sending\')')
    const count = () => (due.get() as { n: number }).n
    const mails = count()
    if (mails === 0) return undefined
    const started = performance.now()
    let left = mails
    while (left > 0 && performance.now() - started < SETTLE_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      left = count()
    }
    return { mails, seconds: (performance.now() - started) / 1000, drained: left === 0 }
  } finally {
    database.close()
  }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-bench-'))
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }
  const now = Date.now()
  process.stderr.write(`seeding ${String(clubs)} clubs and one 10× club…\n`)
  const seeded = await seedInto(env, clubs, now)
  if (!quick) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    } catch {
      execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk'], { stdio: 'inherit' })
    }
  }
  const only = values.only
  const wanted = only?.split('|')
  const selected = (list: Scenario[]) => list.filter((scenario) => wanted === undefined
    || wanted.some((part) => scenario.name.includes(part)))
  const rows: Record<string, unknown>[] = []
  const rss: Record<string, number> = {}

  const embedded = await startBenchServer(env)
  try {
    for (const scenario of selected(scenarios(seeded, now, dataDir))) {
      const row: Record<string, unknown> = { mode: 'embedded', ...await measure(embedded.base, scenario) }
      const settled = await settle(path.join(dataDir, 'club-platform.sqlite'))
      if (settled !== undefined) {
        row.mail_after = settled
        process.stderr.write(`after it, ${String(settled.mails)} mails ${settled.drained ? 'went out' : 'were still due'} `
          + `in ${settled.seconds.toFixed(1)} s\n`)
      }
      rows.push(row)
    }
  } finally {
    rss.embedded = Math.max(...embedded.rssMiB())
    await embedded.stop()
  }

  // Every request a miss, the counts too: the same data with the response cache off.
  const uncached = selected([missScenario(seeded, dataDir, 'GET lists, every request a different club and offset, cache off')])
  if (uncached.length > 0) {
    const server = await startBenchServer({ ...env, RESPONSE_CACHE_MB: '0' })
    try {
      for (const scenario of uncached) rows.push({ mode: 'embedded, cache off', ...await measure(server.base, scenario) })
    } finally {
      await server.stop()
    }
  }

  const scaleOut = selected([listScenario('/api/v1/groups', seeded.keys[1] ?? '', 'GET /api/v1/groups (scale-out: PostgreSQL + Redis, WORKERS=2)')])
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
  if (scaleOut.length > 0) {
    if (await reachable(postgresUrl) && await reachable(redisUrl)) {
      rows.push(...await runScaleOut(postgresUrl, redisUrl, scaleOut[0]?.name ?? '', now, rss))
    } else {
      process.stderr.write(`bench: scale-out mode skipped: PostgreSQL (${postgresUrl}) or Redis (${redisUrl}) is not reachable\n`)
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true })

  const table = ['| mode | scenario | status | ratio | req/s | baseline req/s | p50 ms | p99 ms | non-2xx/3xx |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const service = row.service as Result
      const baseline = row.baseline as Result
      return `| ${String(row.mode)} | ${String(row.scenario)} | ${String(row.status)} | ${(row.ratio as number).toFixed(2)} | `
        + `${service.req_s.toFixed(0)} | ${baseline.req_s.toFixed(0)} | ${service.p50_ms.toFixed(2)} | ${service.p99_ms.toFixed(2)} | `
        + `${String(service.errors)} |`
    })].join('\n')
  const mailNotes = rows.flatMap((row) => {
    const settled = row.mail_after as MailAfter | undefined
    return settled === undefined
      ? []
      : [`After "${String(row.scenario)}", ${String(settled.mails)} mails were due; ${settled.drained
          ? `they went out in ${settled.seconds.toFixed(1)} s (${(settled.mails / settled.seconds).toFixed(0)} a second)`
          : `some were still due after ${settled.seconds.toFixed(0)} s`}, before the next scenario.`]
  })
  const summary = { when: new Date().toISOString(), quick, seconds, rounds, connections, clubs, node: process.version,
    cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', server_rss_mib_after: rss, rows }
  fs.writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
  process.stdout.write(`\n## Benchmark (${quick ? 'quick' : 'full'}: ${String(clubs)} clubs + one 10× club, best of ${String(rounds)} × `
    + `${String(seconds)} s per scenario, `
    + `${String(connections)} connections)\n\n${table}\n\n${mailNotes.map((note) => `${note}\n\n`).join('')}Server RSS after the run (MiB, largest process): `
    + `${Object.entries(rss).map(([mode, mib]) => `${mode} ${mib.toFixed(0)}`).join(', ')}. JSON: ${values.out}\n`)
}

/** PostgreSQL + Redis, two workers: a database of its own (dropped afterwards), a key prefix of its own. */
async function runScaleOut(postgresUrl: string, redisUrl: string, name: string, now: number,
  rss: Record<string, number>): Promise<Record<string, unknown>[]> {
  const database = `club_platform_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${database}`)
  const url = new URL(postgresUrl)
  url.pathname = `/${database}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-bench-'))
  const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `${database}:` }
  try {
    const count = Math.min(clubs, quick ? 2 : 20)
    process.stderr.write(`seeding ${String(count)} clubs into PostgreSQL…\n`)
    const seeded = await seedInto(env, count, now)
    const server = await startBenchServer({ ...env, WORKERS: '2' })
    try {
      return [{ mode: 'scale-out', ...await measure(server.base, listScenario('/api/v1/groups', seeded.keys[1] ?? '', name), 'several') }]
    } finally {
      rss['scale-out'] = Math.max(...server.rssMiB())
      await server.stop()
    }
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`)
    await admin.end()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
