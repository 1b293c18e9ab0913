/**
 * The benchmark: `npm run bench [-- --quick]`.
 *
 * Seeds a fresh SQLite database (embedded default), starts the real server as a separate process,
 * and drives each scenario from this process over loopback. In the same run, for every scenario,
 * a bare node:http server (its own process) answers the exact bytes — status, headers, body — that
 * the service returned for that request, under the same load: each result is a ratio to that
 * baseline, with the absolute figures beside it. --quick: a small data set and 2 s per scenario,
 * to prove the benchmark works; the full run: 1,000 clubs and one 10× club, 10 s per scenario, and
 * wrk (installed from Debian's packages when missing) as the load generator where it can be.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { readConfig } from '../config.js'
import { createContext } from '../context.js'
import type { AppContext } from '../context.js'
import { addDays, localDateOf, localToInstant } from '../domain/zoned-time.js'
import type { ImportDocument } from '../schemas/import.js'
import { createApiKey } from '../services/api-keys.js'
import { createClub } from '../services/clubs.js'
import { importClubData } from '../services/import.js'
import { freePort } from './free-port.js'

const { values } = parseArgs({ options: {
  quick: { type: 'boolean', default: false },
  seconds: { type: 'string' },
  connections: { type: 'string', default: '50' },
  out: { type: 'string', default: 'bench-results.json' },
  /** Run only the scenarios whose name contains this text. */
  only: { type: 'string' },
  /** Write the server's CPU profile (node --cpu-prof) to this directory. */
  profile: { type: 'string' },
  clubs: { type: 'string' },
} })
const quick = values.quick
const seconds = Number(values.seconds ?? (quick ? '2' : '10'))
const connections = Number(values.connections)
const clubs = Number(values.clubs ?? (quick ? '20' : '1000'))

interface Request { method: string, path: string, headers: Record<string, string>, body?: string }
interface Scenario { name: string, requests: () => Request, wrkable: boolean }
interface Result { req_s: number, p50_ms: number, p99_ms: number, errors: number }

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

function wrk(base: string, request: Request, duration: number): Result {
  const args = ['-t2', `-c${String(connections)}`, `-d${String(duration)}s`, '--latency',
    ...Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), `${base}${request.path}`]
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
  const script = `const http = require('node:http');
const body = Buffer.from(${JSON.stringify(body.toString('base64'))}, 'base64');
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

async function sample(base: string, request: Request): Promise<Answer> {
  const response = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }) })
  const body = Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value
  })
  return { status: response.status, headers, body }
}

async function seed(context: AppContext, now: number) {
  const keys: string[] = []
  const slugs: string[] = []
  for (let c = 0; c <= clubs; c++) {
    const slug = c === 0 ? 'large' : `club-${String(c)}`
    const club = await createClub(context.db, context.clock, { slug, name: `Club ${String(c)}`, timezone: 'Europe/Berlin' })
    await importClubData(context.db, context.clock, club.id, clubDocument(c, c === 0 ? 10 : 1, now))
    keys.push((await createApiKey(context.db, context.clock, { clubId: club.id, name: 'bench', expiresAt: null,
      scopes: ['read:groups', 'read:events', 'read:news', 'read:competition_results'] })).key)
    slugs.push(slug)
    if (c % 100 === 0) process.stderr.write(`seeded ${String(c + 1)} of ${String(clubs + 1)} clubs\n`)
  }
  const large = await context.db.selectFrom('clubs').select('id').where('slug', '=', 'large').executeTakeFirstOrThrow()
  const exhausted = (await createApiKey(context.db, context.clock, { clubId: large.id, name: 'exhausted', expiresAt: null,
    scopes: ['read:groups'], limits: { capacity: 1, perMinute: 1 } })).key
  return { keys, slugs, exhausted }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-bench-'))
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }
  const context = await createContext(readConfig(env), { migrate: true, role: 'admin' })
  const now = Date.now()
  process.stderr.write(`seeding ${String(clubs)} clubs and one 10× club…\n`)
  const { keys, slugs, exhausted } = await seed(context, now)
  await context.close()
  if (!quick) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    } catch {
      execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk'], { stdio: 'inherit' })
    }
  }

  const port = await freePort()
  // Limits raised so that the limiter runs on every request but never refuses one.
  const profile = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`]
  const server = spawn(process.execPath, [...profile, 'dist/server.js'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env,
    PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_CAPACITY: '1000000', RATE_LIMIT_PER_MINUTE: '60000000', DAILY_QUOTA: '1000000000',
    PUBLIC_RATE_CAPACITY: '1000000', PUBLIC_RATE_PER_MINUTE: '60000000', BOOKING_RATE_CAPACITY: '1000000',
    BOOKING_RATE_PER_MINUTE: '60000000', BOOKING_MAX_OPEN_PER_EMAIL: '1000' } })
  const base = `http://127.0.0.1:${String(port)}`
  await waitFor(`${base}/healthz`)

  const auth = (key: string) => ({ authorization: `Bearer ${key}` })
  const average = keys[1] ?? ''
  const tomorrow = addDays(localDateOf(now, 'Europe/Berlin'), 1)
  let booking = 0
  const list = (path: string, key = average): Scenario => ({ name: `GET ${path}`, wrkable: true,
    requests: () => ({ method: 'GET', path, headers: auth(key) }) })
  const scenarios: Scenario[] = [
    list('/api/v1/groups'),
    list('/api/v1/events'),
    list('/api/v1/news'),
    list('/api/v1/competition-results'),
    { name: 'GET lists, every request a different club and offset (cache misses)', wrkable: false, requests: () => {
      const c = 1 + Math.floor(Math.random() * clubs)
      const endpoint = ['groups', 'events', 'news', 'competition-results'][c % 4] ?? 'groups'
      return { method: 'GET', path: `/api/v1/${endpoint}?offset=${String(Math.floor(Math.random() * 20))}`, headers: auth(keys[c] ?? '') }
    } },
    list('/api/v1/competition-results?offset=0', keys[0]),
    list('/api/v1/competition-results?offset=10000', keys[0]),
    list('/api/v1/groups?limit=50', keys[0]),
    { name: 'GET /api/v1/groups with an exhausted key (429)', wrkable: true,
      requests: () => ({ method: 'GET', path: '/api/v1/groups', headers: auth(exhausted) }) },
    { name: 'GET /api/v1/public/{club}/courts', wrkable: true,
      requests: () => ({ method: 'GET', path: `/api/v1/public/${slugs[1] ?? ''}/courts?date=${tomorrow}`, headers: {} }) },
    { name: 'POST /api/v1/public/{club}/courts/book (distinct free slots)', wrkable: false, requests: () => {
      const n = booking++
      const c = 1 + (Math.floor(n / (12 * 14 * 13)) % clubs)
      const slot = n % (12 * 14 * 13)
      const day = addDays(tomorrow, Math.floor(slot / (12 * 14)))
      const minutes = (8 + (Math.floor(slot / 12) % 14)) * 60
      return { method: 'POST', path: `/api/v1/public/${slugs[c] ?? ''}/courts/book`, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ court_id: id(slot % 12, 'f6000000', c), start_time: new Date(localToInstant(day, minutes, 'Europe/Berlin')).toISOString(),
          end_time: new Date(localToInstant(day, minutes + 60, 'Europe/Berlin')).toISOString(), booker_name: 'Bench',
          booker_email: `${randomUUID()}@example.org` }) }
    } },
  ]

  const rows: Record<string, unknown>[] = []
  for (const scenario of scenarios.filter((candidate) => values.only === undefined || candidate.name.includes(values.only))) {
    // One request first: it warms the path, and uses up the exhausted key's only token.
    await sample(base, scenario.requests())
    const example = scenario.requests()
    const answer = await sample(base, example)
    const useWrk = !quick && scenario.wrkable
    const service = useWrk ? wrk(base, example, seconds) : await drive(base, scenario, seconds)
    const bare = await baselineServer(answer)
    const baseline = useWrk
      ? wrk(bare.base, example, seconds)
      : await drive(bare.base, { ...scenario, requests: () => example }, seconds)
    bare.child.kill()
    rows.push({ scenario: scenario.name, status: answer.status, bytes: answer.body.length, generator: useWrk ? 'wrk' : 'node',
      service, baseline, ratio: baseline.req_s === 0 ? 0 : service.req_s / baseline.req_s })
    process.stderr.write(`${scenario.name}: ${service.req_s.toFixed(0)} req/s vs ${baseline.req_s.toFixed(0)}\n`)
  }
  const rssMiB = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(server.pid ?? 0)]).toString().trim()) / 1024
  server.kill('SIGTERM')
  await new Promise((resolve) => server.on('exit', resolve))
  fs.rmSync(dataDir, { recursive: true, force: true })

  const table = ['| scenario | status | ratio | req/s | baseline req/s | p50 ms | p99 ms | errors |', '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const service = row.service as Result
      const baseline = row.baseline as Result
      return `| ${String(row.scenario)} | ${String(row.status)} | ${(row.ratio as number).toFixed(2)} | ${service.req_s.toFixed(0)} | `
        + `${baseline.req_s.toFixed(0)} | ${service.p50_ms.toFixed(2)} | ${service.p99_ms.toFixed(2)} | ${String(service.errors)} |`
    })].join('\n')
  const summary = { when: new Date().toISOString(), quick, seconds, connections, clubs, node: process.version,
    cpus: os.cpus().length,
    server_rss_mib_after: Math.round(rssMiB), rows }
  fs.writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
  process.stdout.write(`\n## Benchmark (${quick ? 'quick' : 'full'}: ${String(clubs)} clubs + one 10× club, ${String(seconds)} s per scenario, `
    + `${String(connections)} connections, embedded default)\n\n${table}\n\nServer RSS after the run: ${rssMiB.toFixed(0)} MiB. `
    + `JSON: ${values.out}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
