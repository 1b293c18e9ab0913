/**
 * The scale run: `npm run bench -- --scale [--databases postgres,sqlite]` (docs/performance.md,
 * "The scale run"). For each database, a small one (10 clubs) and a large one (PostgreSQL: 10,000
 * clubs, 5 million bookings, 300,000 rows of each log; SQLite: 2,000 clubs, 1.5 million bookings)
 * with the same data per club, and on each the same measurements: start-up until ready and the
 * retention run with nothing to remove; courts listings and the read API's lists with the response
 * cache off, then with it on (pages it holds, and every club with its hit rate); the dashboard's day
 * and search; bookings, then the mail they queued; the exit after SIGTERM, idle and during a
 * retention backlog. Prints each figure's growth from the small database and the targets it meets.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sessionCookieName } from '../../http/dashboard-access.js'
import { wrk } from './measure.js'
import { clubs, connections, seconds, values } from './options.js'
import { prepareScaleData } from './scale-data.js'
import type { ScaleData, ScaleDatabase } from './scale-data.js'
import { reportScale } from './scale-report.js'
import type { SizeFigures } from './scale-report.js'
import { bookableSlots, scaleScenarios } from './scale-scenarios.js'
import type { ScaleScenario, ScaleTargets } from './scale-scenarios.js'
import { startBenchServer, waitFor } from './server.js'
import { smtpSink } from './smtp-sink.js'

const SMALL_CLUBS = 10
/** The clubs whose anonymised bookings get their guests back for the exit during a retention backlog. */
const BACKLOG_CLUBS = 500

async function metrics(base: string): Promise<string> {
  return fetch(`${base}/metrics`).then((response) => response.text())
}

function metric(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels === '' ? ' ' : `{${labels}} `}`))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 600_000): Promise<T> {
  const started = performance.now()
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (performance.now() - started > limitMs) throw new Error(`${what}: not within ${String(limitMs / 1000)} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A server as `npm start` runs it, timed from its start until /readyz answers 200. */
async function started(env: Record<string, string>) {
  const began = performance.now()
  const server = await startBenchServer(env)
  try {
    await waitFor(`${server.base}/readyz`)
  } catch (error) {
    await server.stop()
    throw error
  }
  return { server, readySeconds: (performance.now() - began) / 1000 }
}

const serving = (running: Awaited<ReturnType<typeof started>>) => ({ base: running.server.base,
  pid: running.server.child.pid ?? 0 })

async function stopped(server: { stop(): Promise<void> }): Promise<number> {
  const began = performance.now()
  await server.stop()
  return (performance.now() - began) / 1000
}

async function sessionsOf(base: string, invitations: [string, string][]): Promise<[string, string][]> {
  const cookie = sessionCookieName(new URL(base))
  return Promise.all(invitations.map(async ([slug, token]) => {
    const response = await fetch(`${base}/api/admin/v1/invitations/accept`, { method: 'POST', body: JSON.stringify({ token }),
      headers: { 'content-type': 'application/json', 'origin': base } })
    const value = response.headers.getSetCookie().map((line) => new RegExp(`^${cookie}=([^;]+)`).exec(line)?.[1]).find(Boolean)
    if (value === undefined) throw new Error(`accepting the invitation of ${slug}: ${String(response.status)} ${await response.text()}`)
    return [slug, value] as [string, string]
  }))
}

/** The mail the bookings queued: due when the load ended, still due 10 s later, and when all had gone. */
async function mailAfter(base: string) {
  const pending = async () => metric(await metrics(base), 'mail_outbox_pending') ?? 0
  const atEnd = await pending()
  const began = performance.now()
  let after10s: number | undefined
  let left = atEnd
  while (left > 0 && performance.now() - began < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    left = await pending()
    if (after10s === undefined && performance.now() - began >= 10_000) after10s = left
  }
  const drainedSeconds = left === 0 ? (performance.now() - began) / 1000 : null
  return { pendingAtEnd: atEnd, pendingAfter10s: after10s ?? 0, drainedSeconds }
}

/** --only: the scenarios whose name contains its text (or one of several, separated by `|`). */
const wanted = (scenario: ScaleScenario) => values.only === undefined || values.only.split('|').some((part) => scenario.name.includes(part))

/** CPU time so far (ms) of a process, and of every PostgreSQL process (its backends included), from /proc. */
function cpuMs(pid: number): { service: number, database: number } {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  }
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8')
    } catch {
      return ''
    }
  }
  let database = 0
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = read(`/proc/${entry}/stat`)
    if (stat.includes('(postgres)')) database += ticks(stat)
  }
  // Clock ticks of 10 ms (USER_HZ, 100 on Linux).
  return { service: ticks(read(`/proc/${String(pid)}/stat`)) * 10, database: database * 10 }
}

/** Asks for every path once, eight at a time, and fails unless each was answered 200. */
async function fill(base: string, paths: readonly string[]): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let path = paths[next++]; path !== undefined; path = paths[next++]) {
      const response = await fetch(`${base}${path}`)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`filling the cache: ${path} answered ${String(response.status)}`)
    }
  }))
}

/** One scenario's wrk run, with the response cache's hit rate and the CPU per request of the server and of PostgreSQL. */
async function measureOne(kind: ScaleDatabase, server: { base: string, pid: number }, scenario: ScaleScenario,
  figures: SizeFigures) {
  const { base } = server
  process.stderr.write(`${kind}, ${String(figures.clubs)} clubs: ${scenario.name}\n`)
  const lookups = async () => {
    const text = await metrics(base)
    return { hit: metric(text, 'response_cache_lookups_total', 'outcome="hit"') ?? 0,
      miss: metric(text, 'response_cache_lookups_total', 'outcome="miss"') ?? 0 }
  }
  if (scenario.fill !== undefined) await fill(base, scenario.fill)
  const before = await lookups()
  const cpuBefore = cpuMs(server.pid)
  const result = wrk(base, { method: 'GET', path: '/', headers: {} }, seconds, { file: scenario.lua, run: 0, runs: 1 })
  const cpuAfter = cpuMs(server.pid)
  const after = await lookups()
  const hits = after.hit - before.hit
  const all = hits + after.miss - before.miss
  const requests = Math.max(1, result.req_s * seconds)
  const cpu = { service_ms: (cpuAfter.service - cpuBefore.service) / requests,
    database_ms: kind === 'postgres' ? (cpuAfter.database - cpuBefore.database) / requests : 0 }
  figures.scenarios[scenario.name] = { ...result, bounded: scenario.bounded, cpu, ...(all === 0 ? {} : { hit_rate: hits / all }) }
}

async function measureSize(kind: ScaleDatabase, count: number, prepared: ScaleData, dir: string, smtpUrl: string):
Promise<SizeFigures> {
  const figures: SizeFigures = { clubs: count, seedSeconds: prepared.seedSeconds, scenarios: {} }
  // Every server delivers its mail over SMTP to the run's relay, with MAIL_CONNECTIONS at its default or BENCH_MAIL_CONNECTIONS.
  const mailConnections = process.env.BENCH_MAIL_CONNECTIONS
  const data = { ...prepared, env: { ...prepared.env, SMTP_URL: smtpUrl,
    ...mailConnections === undefined ? {} : { MAIL_CONNECTIONS: mailConnections } } }

  // With the response cache off: start-up, the start-up retention run, every listing a miss.
  const cold = await started({ ...data.env, RESPONSE_CACHE_MB: '0' })
  let targets: ScaleTargets
  let warmScenarios: ScaleScenario[]
  try {
    figures.readySeconds = cold.readySeconds
    figures.retentionSeconds = await until('the start-up retention run', async () => {
      const text = await metrics(cold.server.base)
      return (metric(text, 'job_runs_total', 'job="retention",outcome="complete"') ?? 0) > 0
        ? metric(text, 'job_last_run_duration_seconds', 'job="retention"')
        : undefined
    })
    const sessions = await sessionsOf(cold.server.base, data.invitations)
    targets = { clubs: count, keys: data.keys, sessions, courts: data.courts, now: Date.now() }
    const scenarios = scaleScenarios(targets, dir, sessionCookieName(new URL(cold.server.base)))
    warmScenarios = scenarios.warm.filter(wanted)
    for (const scenario of scenarios.cold.filter(wanted)) await measureOne(kind, serving(cold), scenario, figures)
  } finally {
    figures.exitSeconds = await stopped(cold.server)
  }

  const warm = await started(data.env)
  try {
    for (const scenario of warmScenarios) await measureOne(kind, serving(warm), scenario, figures)
    figures.bookableSlots = bookableSlots(targets)
    figures.mail = await mailAfter(warm.server.base)
  } finally {
    await warm.server.stop()
  }

  const backlog = await data.backlog(Math.min(count, BACKLOG_CLUBS))
  const busy = await started(data.env)
  let running = false
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    running = (metric(await metrics(busy.server.base), 'job_runs_total', 'job="retention",outcome="complete"') ?? 0) === 0
  } finally {
    figures.backlogExit = { bookings: backlog, stillRunning: running, seconds: await stopped(busy.server) }
  }
  return figures
}

export async function runScale(): Promise<void> {
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const large = { postgres: clubs, sqlite: Math.round(clubs / 5) }
  const perClub = { postgres: 500, sqlite: 750 }
  const kinds = (values.databases ?? 'postgres').split(',').map((name) => name.trim())
  if (kinds.length === 0 || kinds.some((name) => name !== 'postgres' && name !== 'sqlite')) {
    throw new Error(`--databases: postgres, sqlite or both (postgres,sqlite), not ${String(values.databases)}`)
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-scale-lua-'))
  const figures: Partial<Record<ScaleDatabase, { small: SizeFigures, large: SizeFigures }>> = {}
  const relay = await smtpSink()
  try {
    for (const kind of kinds as ScaleDatabase[]) {
      const sizes: SizeFigures[] = []
      for (const count of [SMALL_CLUBS, large[kind]]) {
        process.stderr.write(`${kind}: seeding ${String(count)} clubs, ${String(perClub[kind])} bookings each…\n`)
        const shape = { clubs: count, bookingsPerClub: perClub[kind], logRowsPerClub: 30, now: Date.now() }
        const data = await prepareScaleData(kind, shape, postgresUrl)
        process.stderr.write(`${kind}: seeded in ${data.seedSeconds.toFixed(0)} s\n`)
        try {
          const measured = await measureSize(kind, count, data, dir, relay.url)
          process.stderr.write(`${kind}, ${String(count)} clubs: ${JSON.stringify(measured)}\n`)
          sizes.push(measured)
        } finally {
          await data.drop()
        }
      }
      const [small, big] = sizes
      if (small !== undefined && big !== undefined) figures[kind] = { small, large: big }
    }
  } finally {
    relay.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  reportScale(figures, { seconds, connections })
}
