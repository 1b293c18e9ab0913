/**
 * Load and soak run against a scale-out deployment on this machine: a fresh PostgreSQL database,
 * Redis under a prefix of its own, `WORKERS=2`, mixed traffic on loopback for a bounded time.
 * Reports errors (anything but the intended 400/401/404/429 and booking conflicts), p50/p99
 * latency, and each process's RSS at start and end. Exits 1 on errors or runaway memory.
 *
 *   npm run soak -- [--seconds 60] [--concurrency 16]
 *   TEST_POSTGRES_URL / TEST_REDIS_URL choose the services (defaults: the local ones).
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Redis } from 'ioredis'
import pg from 'pg'
import { readConfig } from '../config.js'
import { createContext } from '../context.js'
import { addDays, localDateOf, localToInstant } from '../domain/zoned-time.js'
import { createApiKey } from '../services/api-keys.js'
import { demoDocument } from '../services/demo.js'
import { createClub } from '../services/clubs.js'
import { importClubData } from '../services/import.js'
import { freePort } from './free-port.js'
import { listCourts } from '../db/repositories/courts.js'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, concurrency: { type: 'string', default: '16' } } })
const seconds = Number(values.seconds)
const concurrency = Number(values.concurrency)
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const dbName = `cp_soak_${randomBytes(4).toString('hex')}`
const prefix = `cp-soak-${randomBytes(4).toString('hex')}:`

function rssKb(pid: number): number {
  try {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim())
  } catch {
    return 0
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)]).toString().trim().split(/\s+/)
      .filter((child) => child !== '').map(Number)
  } catch {
    // ps exits 1 when there are none yet.
    return []
  }
}

/** Waits until the service answers and the supervisor has its workers; returns their pids. */
async function waitForWorkers(supervisor: number, base: string, count: number): Promise<number[]> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const children = childrenOf(supervisor)
    const healthy = await fetch(`${base}/healthz`).then((response) => response.ok, () => false)
    if (healthy && children.length >= count) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      return children
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('timed out')
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(query)
  } finally {
    await client.end()
  }
}

async function main(): Promise<number> {
  await admin(`create database ${dbName}`)
  const url = new URL(adminUrl)
  url.pathname = `/${dbName}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-soak-'))
  const env = { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, DATA_DIR: dataDir }
  const context = await createContext(readConfig({ ...env, LOG_LEVEL: 'silent' }), { migrate: true, role: 'admin' })
  const club = await createClub(context.db, context.clock, { slug: 'soak', name: 'Soak TC', timezone: 'Europe/Berlin' })
  await importClubData(context.db, context.clock, club.id, demoDocument(Date.now()))
  const key = (await createApiKey(context.db, context.clock, { clubId: club.id, name: 'soak', expiresAt: null,
    scopes: ['read:groups', 'read:events', 'read:news', 'read:competition_results'],
    limits: { capacity: 1_000_000, perMinute: 6_000_000, dailyQuota: 1_000_000_000 } })).key
  const tiny = (await createApiKey(context.db, context.clock, { clubId: club.id, name: 'tiny', expiresAt: null, scopes: ['read:groups'],
    limits: { capacity: 1, perMinute: 1 } })).key
  const courts = await listCourts(context.db, club.id)
  await context.close()

  const port = await freePort()
  const base = `http://127.0.0.1:${String(port)}`
  const server = spawn(process.execPath, ['dist/server.js'], { env: { ...process.env, ...env, WORKERS: '2', PORT: String(port),
    LOG_LEVEL: 'warn', BOOKING_RATE_CAPACITY: '1000000', PUBLIC_RATE_CAPACITY: '1000000', BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '100000' } })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  server.stdout.on('data', collect)
  server.stderr.on('data', collect)
  const workers = await waitForWorkers(server.pid ?? 0, base, 2).catch((error: unknown) => {
    throw new Error(`server did not start (${String(error)}):\n${output}`)
  })
  const pids = [server.pid ?? 0, ...workers]
  const rssStart = pids.map(rssKb)

  const statuses = new Map<string, number>()
  const latencies: number[] = []
  const errors: string[] = []
  const tomorrow = addDays(localDateOf(Date.now(), 'Europe/Berlin'), 1)
  let slot = 0
  const requestOnce = async (): Promise<void> => {
    const pick = Math.random()
    let method = 'GET'
    let pathAndQuery = ''
    let headers: Record<string, string> = { authorization: `Bearer ${key}` }
    let body: string | undefined
    let expected = [200]
    if (pick < 0.6) {
      const list = ['groups', 'events', 'news', 'competition-results'][Math.floor(Math.random() * 4)] ?? 'groups'
      pathAndQuery = `/api/v1/${list}?limit=${String(1 + Math.floor(Math.random() * 100))}&offset=${String(Math.floor(Math.random() * 5))}`
    } else if (pick < 0.75) {
      pathAndQuery = `/api/v1/public/soak/courts?date=${tomorrow}`
      headers = {}
    } else if (pick < 0.82) {
      const hour = 7 + (slot++ % 15)
      const court = courts[slot % courts.length]?.id ?? randomUUID()
      method = 'POST'
      pathAndQuery = '/api/v1/public/soak/courts/book'
      headers = { 'content-type': 'application/json' }
      body = JSON.stringify({ court_id: court, start_time: new Date(localToInstant(tomorrow, hour * 60, 'Europe/Berlin')).toISOString(),
        end_time: new Date(localToInstant(tomorrow, hour * 60 + 30, 'Europe/Berlin')).toISOString(), booker_name: 'Soak',
        booker_email: `soak${String(slot)}@example.org` })
      expected = [201, 400]
    } else if (pick < 0.88) {
      pathAndQuery = '/api/v1/groups?limit=1000'
      expected = [400]
    } else if (pick < 0.94) {
      pathAndQuery = '/api/v1/groups'
      headers = { authorization: 'Bearer cpk_notakey' }
      expected = [401]
    } else {
      pathAndQuery = '/api/v1/groups'
      headers = { authorization: `Bearer ${tiny}` }
      expected = [200, 429]
    }
    const started = performance.now()
    try {
      const response = await fetch(`${base}${pathAndQuery}`, { method, headers, ...(body === undefined ? {} : { body }) })
      await response.arrayBuffer()
      latencies.push(performance.now() - started)
      const label = `${method} ${pathAndQuery.split('?')[0] ?? ''} ${String(response.status)}`
      statuses.set(label, (statuses.get(label) ?? 0) + 1)
      if (!expected.includes(response.status)) errors.push(label)
    } catch (error) {
      errors.push(`${method} ${pathAndQuery}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const until = Date.now() + seconds * 1000
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) await requestOnce()
  }))
  const rssEnd = pids.map(rssKb)

  server.kill('SIGTERM')
  const exitCode = await new Promise<number | null>((resolve) => server.on('exit', resolve))
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  const total = latencies.length + errors.filter((error) => error.includes(':')).length
  process.stdout.write(`\n## Soak: ${String(seconds)} s, ${String(concurrency)} connections, WORKERS=2 on PostgreSQL + Redis\n\n`
    + `requests: ${String(total)} (${(total / seconds).toFixed(0)}/s), errors: ${String(errors.length)}, `
    + `p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, server exit code ${String(exitCode)}\n\n`
    + '| process | RSS start (MiB) | RSS end (MiB) |\n|---|---|---|\n'
    + pids.map((pid, i) => `| ${i === 0 ? 'supervisor' : 'worker'} ${String(pid)} | ${((rssStart[i] ?? 0) / 1024).toFixed(1)} | `
      + `${((rssEnd[i] ?? 0) / 1024).toFixed(1)} |`).join('\n')
    + '\n\n| request | count |\n|---|---|\n'
    + [...statuses].sort().map(([label, count]) => `| ${label} | ${String(count)} |`).join('\n') + '\n')
  if (errors.length > 0) process.stdout.write(`\nerrors (first 10):\n  ${errors.slice(0, 10).join('\n  ')}\n`)

  await admin(`drop database if exists ${dbName} with (force)`)
  const redis = new Redis(redisUrl)
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length > 0) await redis.del(...keys)
  redis.disconnect()
  fs.rmSync(dataDir, { recursive: true, force: true })
  const grew = pids.some((_, i) => (rssEnd[i] ?? 0) > 2 * Math.max(rssStart[i] ?? 0, 60 * 1024))
  return errors.length === 0 && exitCode === 0 && !grew ? 0 : 1
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`soak: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  void admin(`drop database if exists ${dbName} with (force)`).finally(() => process.exit(1))
})
