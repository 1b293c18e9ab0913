/**
 * Two real server processes on one PostgreSQL database: of 50 simultaneous booking requests for
 * one slot, split between them, exactly one succeeds. Then both stop cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readConfig } from '../src/config.js'
import { createContext } from '../src/context.js'
import { addDays, localDateOf, localToInstant } from '../src/domain/zoned-time.js'
import { createClub } from '../src/services/clubs.js'
import { importClubData } from '../src/services/import.js'
import { COURT } from './helpers/courts.js'
import { createTestDatabase, describePostgres } from './helpers/databases.js'
import type { TestDatabase } from './helpers/databases.js'

describePostgres('two server processes', () => {
  let database: TestDatabase
  let dataDir = ''
  const servers: { process: ChildProcess, url: string }[] = []

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-multi-'))
    const context = await createContext(readConfig({ ...database.env, LOG_LEVEL: 'silent' }), { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'twin', name: 'Twin', timezone: 'Europe/Berlin' })
    await importClubData(context.db, context.clock, club.id, { courts: [{ id: COURT.a, name: 'Court A' }] })
    await context.close()
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, ['dist/server.js'], {
        env: { ...process.env, ...database.env, DATA_DIR: path.join(dataDir, String(i)), PORT: '0', LOG_LEVEL: 'info',
          BOOKING_RATE_CAPACITY: '1000' },
      })
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
          if (match?.[1] !== undefined) resolve(match[1])
        })
        child.on('exit', (code) => {
          reject(new Error(`server exited with ${String(code)}: ${output}`))
        })
      })
      servers.push({ process: child, url })
    }
  }, 60_000)

  afterAll(async () => {
    for (const server of servers) server.process.kill('SIGKILL')
    await database.drop()
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  it('lets exactly one of 50 simultaneous requests split across both processes book the slot', async () => {
    const tomorrow = addDays(localDateOf(Date.now(), 'Europe/Berlin'), 1)
    const start = new Date(localToInstant(tomorrow, 10 * 60, 'Europe/Berlin')).toISOString()
    const end = new Date(localToInstant(tomorrow, 11 * 60, 'Europe/Berlin')).toISOString()
    const responses = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const server = servers[i % 2]
      const response = await fetch(`${server?.url ?? ''}/api/v1/public/twin/courts/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ court_id: COURT.a, start_time: start, end_time: end, booker_name: `Racer ${String(i)}`,
          booker_email: `racer${String(i)}@example.org` }),
      })
      return { status: response.status, body: await response.json() as { type?: string } }
    }))
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1)
    const conflicts = responses.filter((response) => response.status === 400)
    expect(conflicts).toHaveLength(49)
    for (const conflict of conflicts) expect(conflict.body.type).toBe('/api/v1/problems/slot-conflict')
  })

  it('stops both processes with exit code 0 on SIGTERM', async () => {
    const exits = servers.map((server) => new Promise<number | null>((resolve) => server.process.on('exit', resolve)))
    for (const server of servers) server.process.kill('SIGTERM')
    expect(await Promise.all(exits)).toEqual([0, 0])
  })
})
