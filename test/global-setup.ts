/**
 * Finds out once whether PostgreSQL is reachable. Suites that need it are skipped, loudly, when it
 * is not — unless CLUB_PLATFORM_REQUIRE_SERVICES=1 (as in CI), which turns that into a failure.
 * Gives the run a directory for the service's logs (every harness app logs there at info level)
 * and, at the end, fails the run if any line holds an API key.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { TEST_ZONE, resolveTestToday } from './helpers/today-setting.js'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string | null
    redisUrl: string | null
    serviceLogDir: string
    /** How far the run's "today" is moved from the real one (CLUB_PLATFORM_TEST_TODAY; test/helpers/today.ts). */
    testClockOffsetMs: number
  }
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'

async function redisReachable(url: string): Promise<string | undefined> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => undefined)
  try {
    await redis.connect()
    await redis.ping()
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    redis.disconnect()
  }
}

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test'

/** A whole key (the prefix and 38 characters of its alphabet, src/domain/api-key.ts) or dashboard token
 * (src/domain/secret-token.ts). */
const API_KEY = /cpk_[0-9A-Za-z]{38}|cp[lism]_[A-Za-z0-9_-]{43}/

/** Every log line of the run that holds an API key, as `file:line`. */
export function linesWithKeys(dir: string): string[] {
  const found: string[] = []
  for (const file of fs.readdirSync(dir)) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (API_KEY.test(line)) found.push(`${file}:${String(i + 1)}`)
    })
  }
  return found
}

export default async function setup(project: TestProject): Promise<() => void> {
  const testClockOffsetMs = resolveTestToday(process.env.CLUB_PLATFORM_TEST_TODAY, Date.now())
  project.provide('testClockOffsetMs', testClockOffsetMs)
  if (testClockOffsetMs !== 0) {
    const today = new Date(Date.now() + testClockOffsetMs)
    console.warn(`\n== CLUB_PLATFORM_TEST_TODAY=${String(process.env.CLUB_PLATFORM_TEST_TODAY)}: the suites on a real clock run on `
      + `${today.toLocaleDateString('en-GB', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: TEST_ZONE })} `
      + `(${TEST_ZONE}), ${String(testClockOffsetMs / 86_400_000)} days from today\n`)
  }
  if (process.env.CLUB_PLATFORM_TEST_DATABASES !== undefined) {
    console.warn(`\n== CLUB_PLATFORM_TEST_DATABASES=${process.env.CLUB_PLATFORM_TEST_DATABASES}: the data suites run on these alone\n`)
  }
  const serviceLogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-test-logs-'))
  project.provide('serviceLogDir', serviceLogDir)

  // Tests that run the real command line or server processes use the compiled code, /api/v1/docs
  // serves the page the build renders and /dashboard the app it bundles: build them once here, as
  // `npm run build` does — unless the last build is newer than every source (an install just built).
  // As an install builds: for production (the test runner's NODE_ENV=test would bundle Lit's and
  // Svelte's development builds, larger and louder than what the service serves).
  execFileSync(process.execPath, ['scripts/build-if-stale.js'], { stdio: 'inherit' })

  const url = process.env.TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_URL
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 })
  let reachable = false
  try {
    await client.connect()
    await client.query('select 1')
    reachable = true
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (process.env.CLUB_PLATFORM_REQUIRE_SERVICES === '1') {
      throw new Error(`PostgreSQL at ${url} is required (CLUB_PLATFORM_REQUIRE_SERVICES=1) but unreachable: ${reason}`)
    }
    const line = '!'.repeat(78)
    console.warn(`\n${line}\n!! PostgreSQL at ${url} is unreachable (${reason}).\n`
      + '!! Every PostgreSQL variant of the data tests is SKIPPED; only SQLite is tested.\n'
      + `!! Start PostgreSQL or set TEST_POSTGRES_URL to test both databases.\n${line}\n`)
  } finally {
    await client.end().catch(() => undefined)
  }
  project.provide('postgresAdminUrl', reachable ? url : null)

  const redisUrl = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL
  const redisProblem = await redisReachable(redisUrl)
  if (redisProblem !== undefined) {
    if (process.env.CLUB_PLATFORM_REQUIRE_SERVICES === '1') {
      throw new Error(`Redis at ${redisUrl} is required (CLUB_PLATFORM_REQUIRE_SERVICES=1) but unreachable: ${redisProblem}`)
    }
    console.warn(`\n${'!'.repeat(78)}\n!! Redis at ${redisUrl} is unreachable (${redisProblem}).\n`
      + `!! Every Redis variant of the rate-limit tests is SKIPPED.\n${'!'.repeat(78)}\n`)
  }
  project.provide('redisUrl', redisProblem === undefined ? redisUrl : null)

  return () => {
    const leaks = linesWithKeys(serviceLogDir)
    const files = fs.readdirSync(serviceLogDir).length
    if (leaks.length > 0) {
      throw new Error(`The service logged an API key (${String(leaks.length)} lines, kept in ${serviceLogDir}): ${leaks.slice(0, 5).join(', ')}`)
    }
    if (files === 0 && process.env.CLUB_PLATFORM_REQUIRE_SERVICES === '1') throw new Error('No service log was written by the run')
    fs.rmSync(serviceLogDir, { recursive: true, force: true })
  }
}
