/**
 * Retention as the server runs it, in real server processes: a backlog is worked in batches; SIGTERM
 * in the middle of it ends the process within its grace period, and the next start finishes the
 * work; a start after a finished run waits for the next run's time; two processes started together
 * on one database run it once. In-process: one run at a time under the lease, on both databases,
 * the command line's run included.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { AppContext } from '../../src/context.js'
import type { Database } from '../../src/db/schema.js'
import { createClub } from '../../src/services/clubs.js'
import { PeriodicJob } from '../../src/services/periodic-job.js'
import { retentionJob } from '../../src/services/retention.js'
import { importClubData } from '../../src/services/import.js'
import { cli } from '../helpers/cli.js'
import { openContext } from '../helpers/context.js'
import { createTestDatabase, describeEachDatabase, describePostgres } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { exitOf, startServer, stopServer } from '../helpers/server-process.js'
import { testNow } from '../helpers/today.js'

const DAY = 86_400_000
const GRACE_MS = 5_000

/**
 * A club with `count` bookings (ten minutes each, one after the other) that ended more than 260 days
 * ago and still hold their guests' data.
 */
async function seedBacklog(db: Kysely<Database>, context: AppContext, count: number): Promise<void> {
  const club = await createClub(db, context.clock, { slug: `backlog-${randomUUID().slice(0, 8)}`, name: 'Backlog', timezone: 'UTC' })
  const court = idFor(`backlog:${club.id}`)
  await importClubData(db, context.clock, club.id, { courts: [{ id: court, name: 'Court 1' }] })
  const past = testNow() - 400 * DAY
  for (let i = 0; i < count; i += 500) {
    await db.insertInto('bookings').values(Array.from({ length: Math.min(500, count - i) }, (_, j) => {
      const starts = past + (i + j) * 600_000
      return { id: randomUUID(), club_id: club.id, court_id: court, starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + 600_000).toISOString(), booker_name: 'Old Guest', booker_email: `old${String(i + j)}@example.org`,
        created_at: new Date(starts - DAY).toISOString() }
    })).execute()
  }
}

const waiting = async (db: Kysely<Database>) => Number((await db.selectFrom('bookings')
  .select((eb) => eb.fn.countAll<number | string>().as('n')).where('anonymised_at', 'is', null).executeTakeFirstOrThrow()).n)
const lastRun = (db: Kysely<Database>) => db.selectFrom('job_runs').selectAll().where('name', '=', 'retention').executeTakeFirst()

async function until(condition: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!await condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${String(ms)} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describeEachDatabase('retention in a server process', (dialect) => {
  let database: TestDatabase
  let context: AppContext
  const BACKLOG = 20_000

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    context = await openContext(database, { migrate: true })
    await seedBacklog(context.db, context, BACKLOG)
  }, 120_000)
  afterAll(async () => {
    await context.close()
    await database.drop()
  })

  it('stops within the grace period when SIGTERM comes mid-run, and the next start finishes the work', async () => {
    const env = { ...database.env, DATABASE_URL: database.env.DATABASE_URL ?? '', RETENTION_BATCH_SIZE: '20',
      SHUTDOWN_GRACE_MS: String(GRACE_MS) }
    const first = await startServer(env)
    try {
      // Mid-run: some of the backlog done, not all.
      await until(async () => await waiting(context.db) < BACKLOG, 'the run to begin')
      expect(await waiting(context.db)).toBeGreaterThan(0)
      const exit = exitOf(first.child)
      const signalled = Date.now()
      first.child.kill('SIGTERM')
      expect(await exit).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(GRACE_MS)
    } finally {
      first.child.kill('SIGKILL')
    }
    const left = await waiting(context.db)
    expect(left).toBeGreaterThan(0)
    expect(first.logs.join('\n')).toContain('retention run stopped before its work was done')
    // The run did not finish: its time is not recorded, and the lease was given back.
    expect(await lastRun(context.db)).toMatchObject({ last_finished_at: null, holder: null })

    const second = await startServer({ ...env, RETENTION_BATCH_SIZE: '1000' })
    try {
      await until(async () => (await lastRun(context.db))?.last_finished_at != null, 'the next run to finish')
      expect(await waiting(context.db)).toBe(0)
      const line = second.logs.find((log) => log.includes('"msg":"retention run finished"'))
      expect(JSON.parse(line ?? '{}')).toMatchObject({ job: 'retention', complete: true, rows: left,
        retention: { bookingsAnonymised: left } })
    } finally {
      await stopServer(second)
    }

    // A start within the hour after a finished run waits for the next run's time.
    const finished = await lastRun(context.db)
    const third = await startServer(env)
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect((await lastRun(context.db))?.last_started_at).toEqual(finished?.last_started_at)
      expect(third.logs.join('\n')).not.toContain('retention run')
      const metrics = await (await fetch(`${third.url}/metrics`)).text()
      expect(metrics).toMatch(/job_last_run_rows\{job="retention"\} \d+/)
      expect(metrics).toMatch(/job_last_finished_timestamp_seconds\{job="retention"\} \d+/)
    } finally {
      await stopServer(third)
    }
  }, 180_000)
})

describePostgres('retention across processes', () => {
  it('runs once when two processes start together on one database', async () => {
    const database = await createTestDatabase('postgres')
    const context = await openContext(database, { migrate: true })
    try {
      await seedBacklog(context.db, context, 2_000)
      const server = await startServer({ ...database.env, WORKERS: '2', REDIS_URL: inject('redisUrl') ?? '', RETENTION_BATCH_SIZE: '50',
        REDIS_KEY_PREFIX: `cp-test-retention-${String(process.pid)}:` }, 2)
      try {
        await until(async () => (await lastRun(context.db))?.last_finished_at != null, 'the run to finish')
        expect(await waiting(context.db)).toBe(0)
        // Both processes have looked (each reads the last run when it starts); one ran.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const runs = server.logs.filter((line) => line.includes('"msg":"retention run finished"'))
        expect(runs).toHaveLength(1)
        const pids = new Set(server.logs.filter((line) => line.includes('"msg":"serving"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid))
        expect(pids.size).toBe(2)
      } finally {
        await stopServer(server)
      }
    } finally {
      await context.close()
      await database.drop()
    }
  }, 120_000)
})

describeEachDatabase('the retention job\'s lease', (dialect) => {
  let database: TestDatabase
  let context: AppContext

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    context = await openContext(database, { migrate: true })
  })
  afterAll(async () => {
    await context.close()
    await database.drop()
  })

  it('lets one of two processes run at a time, and a run that was due once run once', async () => {
    await seedBacklog(context.db, context, 300)
    const settings = { intervalMs: 3_600_000, batchSize: 10 }
    const one = new PeriodicJob(context.db, context.clock, retentionJob(context.db, context.clock, settings))
    const two = new PeriodicJob(context.db, context.clock, retentionJob(context.db, context.clock, settings))
    // Side by side: one holds the lease for the whole run, the other finds it held.
    const outcomes = await Promise.all([one.runOnce(true), two.runOnce(true)])
    // Which of the two takes the lease is a race: `one`'s own count follows from its outcome here.
    const oneRan = outcomes[0] === 'complete'
    expect([...outcomes].sort()).toEqual(['complete', 'skipped'])
    expect(await waiting(context.db)).toBe(0)
    // Just after: the run is not due again, for either.
    expect(await one.runOnce(true)).toBe('skipped')
    expect(await two.runOnce(true)).toBe('skipped')
    // Asked for at once (the command line's way), it runs.
    expect(await two.runOnce()).toBe('complete')
    // A process that died holding the lease: it expires, and another takes over.
    await context.db.updateTable('job_runs').set({ holder: 'gone', lease_until: new Date(context.clock.now() - 1).toISOString() })
      .where('name', '=', 'retention').execute()
    expect(await one.runOnce()).toBe('complete')
    await context.db.updateTable('job_runs').set({ holder: 'alive', lease_until: new Date(context.clock.now() + 60_000).toISOString() })
      .where('name', '=', 'retention').execute()
    expect(await one.runOnce()).toBe('skipped')
    expect(one.figures.runs).toEqual(oneRan
      ? { complete: 2, stopped: 0, failed: 0, skipped: 2 }
      : { complete: 1, stopped: 0, failed: 0, skipped: 3 })
  })

  it('runs from the command line under the same lease: not while another run holds it, and recorded as the last run', async () => {
    const lease = (holder: string, until: number) => context.db.updateTable('job_runs')
      .set({ holder, lease_until: new Date(until).toISOString() }).where('name', '=', 'retention').execute()
    await context.retention.runOnce()
    await seedBacklog(context.db, context, 40)
    await lease('alive', context.clock.now() + 60_000)
    const held = await cli(database.env, ['retention', '--json'], context.clock)
    expect(held.code, held.stderr).toBe(0)
    expect(held.json()).toEqual({ outcome: 'skipped', bookings_anonymised: 0, mails_deleted: 0, idempotency_records_deleted: 0,
      webhook_deliveries_deleted: 0, webhook_messages_deleted: 0, waiting_list_entries_deleted: 0 })
    expect(await waiting(context.db)).toBe(40)
    await lease('gone', context.clock.now() - 1)
    const ran = await cli(database.env, ['retention'], context.clock)
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).toContain('Anonymised 40 bookings')
    expect(await waiting(context.db)).toBe(0)
    expect(await lastRun(context.db)).toMatchObject({ holder: null, last_rows: 40 })
  })
})
