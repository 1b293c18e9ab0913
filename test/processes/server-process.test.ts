/**
 * The real server process: several workers sharing a port, refusal where that cannot be correct,
 * and a graceful stop during a burst of requests.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import { localDateOf } from '../../src/domain/zoned-time.js'
import { openContext } from '../helpers/context.js'
import { createTestDatabase, describePostgres } from '../helpers/databases.js'
import { exitOf, startServer, stopServer } from '../helpers/server-process.js'

const run = promisify(execFile)

describe('WORKERS on the embedded defaults', () => {
  it('refuses to start several processes on SQLite or without Redis, saying why', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-workers-'))
    const failed = await run(process.execPath, ['dist/server.js'], { env: { ...process.env, WORKERS: '2', DATA_DIR: dataDir,
      DATABASE_URL: '', REDIS_URL: '' } }).catch((error: unknown) => error as { code: number, stderr: string })
    expect(failed).toMatchObject({ code: 1 })
    const stderr = (failed as { stderr: string }).stderr.trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^club-platform: WORKERS="2" is invalid: expected 1 unless DATABASE_URL \(PostgreSQL.*\)/)
    expect(stderr).toContain('and REDIS_URL')
    await fs.rm(dataDir, { recursive: true, force: true })
  })
})

describePostgres('WORKERS=2 on PostgreSQL and Redis', () => {
  it('runs two processes on one port, both answering, and stops them all on SIGTERM with exit 0', async () => {
    const database = await createTestDatabase('postgres')
    const context = await openContext(database, { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'cluster', name: 'Cluster', timezone: 'UTC' })
    const { key } = await createApiKey(context.db, context.clock, { clubId: club.id, name: 'c', scopes: ['read:groups'], expiresAt: null })
    await context.close()
    const server = await startServer({ ...database.env, WORKERS: '2', REDIS_URL: inject('redisUrl') ?? '',
      REDIS_KEY_PREFIX: `cp-test-cluster-${String(process.pid)}:` }, 2)
    try {
      const statuses = await Promise.all(Array.from({ length: 40 }, async () =>
        (await fetch(`${server.url}/api/v1/groups`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } })).status))
      expect(statuses.every((status) => status === 200)).toBe(true)
      const pids = new Set(server.logs.filter((line) => line.includes('"msg":"request"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid))
      expect(pids.size).toBe(2)
      const exit = exitOf(server.child)
      server.child.kill('SIGTERM')
      expect(await exit).toBe(0)
    } finally {
      server.child.kill('SIGKILL')
      await database.drop()
    }
  }, 60_000)
})

describe('SIGTERM during a burst', () => {
  it('gives every accepted request a complete response and exits 0 within the grace period', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-sigterm-'))
    const context = await createContext(readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'burst', name: 'Burst', timezone: 'UTC' })
    const { key } = await createApiKey(context.db, context.clock, { clubId: club.id, name: 'b', scopes: ['read:groups'], expiresAt: null,
      limits: { capacity: 1000 } })
    await context.close()
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', SHUTDOWN_GRACE_MS: '5000' })
    const exit = exitOf(server.child)
    let signalledAt = 0
    try {
      let signalled = false
      const outcomes = await Promise.all(Array.from({ length: 200 }, async () => {
        try {
          // One connection per request: a request is either accepted (and must be answered) or refused.
          const response = await fetch(`${server.url}/api/v1/groups`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } })
          // The first answer means the burst is in flight: stop the server now.
          if (!signalled) {
            signalled = true
            signalledAt = performance.now()
            server.child.kill('SIGTERM')
          }
          const body = await response.text()
          JSON.parse(body)
          return String(response.status)
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause
          return cause?.code === 'ECONNREFUSED' ? 'refused' : `broken: ${String(cause?.code ?? error)}`
        }
      }))
      expect(outcomes.filter((outcome) => outcome.startsWith('broken'))).toEqual([])
      expect(outcomes.every((outcome) => ['200', '503', 'refused'].includes(outcome))).toBe(true)
      expect(outcomes.filter((outcome) => outcome === '200').length).toBeGreaterThan(0)
      const counts = new Map<string, number>()
      for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1)
      console.info('SIGTERM during a burst:', [...counts].map(([outcome, n]) => `${outcome} × ${String(n)}`).join(', '))
      expect(await exit).toBe(0)
      // The configured grace period is 5 s; the stop must not take longer (a second of margin for process exit).
      expect(performance.now() - signalledAt).toBeLessThan(6_000)
    } finally {
      server.child.kill('SIGKILL')
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('CLOCK_OFFSET_SECONDS', () => {
  it('moves the server\'s clock, so that a club\'s today is that day, and the server says so when it starts', async () => {
    const database = await createTestDatabase('sqlite')
    const context = await openContext(database, { migrate: true })
    await createClub(context.db, context.clock, { slug: 'later', name: 'Later', timezone: 'Pacific/Kiritimati' })
    await context.close()
    const offsetDays = 40
    const server = await startServer({ ...database.env, DATABASE_URL: '', CLOCK_OFFSET_SECONDS: String(offsetDays * 86_400) })
    try {
      const today = await (await fetch(`${server.url}/api/v1/public/later/courts`)).json() as { date: string }
      const expected = (at: number) => localDateOf(at + offsetDays * 86_400_000, 'Pacific/Kiritimati')
      // The listing's date is read between the two instants; either side of a midnight at the club, it is one of their dates.
      expect([expected(Date.now() - 5_000), expected(Date.now())]).toContain(today.date)
      expect(server.logs.some((line) => line.includes('the clock is moved by CLOCK_OFFSET_SECONDS'))).toBe(true)
    } finally {
      await stopServer(server)
      await database.drop()
    }
  })
})
