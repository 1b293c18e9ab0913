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
 *
 * --scale: the same service at a platform's size against a small database (src/tools/bench/scale.ts).
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { measure } from './bench/measure.js'
import type { Scenario } from './bench/measure.js'
import { clubs, quick, values } from './bench/options.js'
import { report } from './bench/report.js'
import { listScenario, missScenario, scenarios } from './bench/scenarios.js'
import { seedInto } from './bench/seed.js'
import { runScale } from './bench/scale.js'
import { reachable, settle, startBenchServer } from './bench/server.js'
import { sessionCookieName } from '../http/dashboard-access.js'

async function main(): Promise<void> {
  if (values.scale || !quick) ensureWrk()
  if (values.scale) {
    await runScale()
    return
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-bench-'))
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }
  const now = Date.now()
  process.stderr.write(`seeding ${String(clubs)} clubs and one 10× club…\n`)
  const seeded = await seedInto(env, clubs, now)
  const only = values.only
  const wanted = only?.split('|')
  const selected = (list: Scenario[]) => list.filter((scenario) => wanted === undefined
    || wanted.some((part) => scenario.name.includes(part)))
  const rows: Record<string, unknown>[] = []
  const rss: Record<string, number> = {}

  const embedded = await startBenchServer(env)
  try {
    const session = await dashboardSession(embedded.base, seeded.invitation)
    for (const scenario of selected(scenarios(seeded, now, dataDir, session))) {
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

  report(rows, rss)
}

/** The cookie header of a dashboard session: the invitation accepted over HTTP, as a browser does. */
async function dashboardSession(base: string, token: string): Promise<string> {
  const name = sessionCookieName(new URL(base))
  const response = await fetch(`${base}/api/admin/v1/invitations/accept`, { method: 'POST', body: JSON.stringify({ token }),
    headers: { 'content-type': 'application/json', 'origin': base } })
  const value = response.headers.getSetCookie().map((line) => new RegExp(`^${name}=([^;]+)`).exec(line)?.[1]).find(Boolean)
  if (value === undefined) throw new Error(`accepting the invitation: ${String(response.status)} ${await response.text()}`)
  return `${name}=${value}`
}

/** wrk, installed from Debian's packages when missing. */
function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
  } catch {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk'], { stdio: 'inherit' })
  }
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
