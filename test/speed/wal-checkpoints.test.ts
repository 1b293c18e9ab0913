/**
 * The write-ahead log's checkpoints on a thread (src/speed/wal-checkpoints.ts), as built, on a real
 * SQLite file. The server's connection no longer checkpoints on its commits (the log grows past
 * SQLite's 1,000 pages) until the backstop; a checkpoint on the thread copies the whole log while
 * the connection stays free to write, after which the next write starts the log again; a changed
 * row schedules one (statements that change nothing do not), and a stream of writes keeps them
 * coming; when idle the log file is emptied and the thread ends; what was committed is in the
 * database file for a new connection whatever the thread did; a thread that cannot start fails
 * its checkpoint, and writing goes on; one that answers with a failure is told to end. The server
 * process counts its checkpoints in /metrics.
 */
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/dialect.js'
import type { DatabaseHandle } from '../../src/db/dialect.js'
import { loadSqliteDriver } from '../../src/db/sqlite-driver.js'
import { BACKSTOP_PAGES, RESTART_PAGES, walCheckpoints } from '../../src/speed/wal-checkpoints.js'
import type { WalCheckpoints } from '../../src/speed/wal-checkpoints.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { openContext } from '../helpers/context.js'
import { createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import { testNow } from '../helpers/today.js'

// The thread runs built JavaScript, as the server runs it.
const BUILT = pathToFileURL(path.resolve('dist/speed/wal-checkpoints.js'))
const PAGE = 4096

describe('checkpoints on a thread', () => {
  let database: TestDatabase
  let file = ''
  let handle: DatabaseHandle<WalCheckpoints> | undefined
  beforeEach(async () => {
    database = await createTestDatabase('sqlite')
    file = database.settings.kind === 'sqlite' ? database.settings.file : ''
  })
  afterEach(async () => {
    await handle?.close()
    handle = undefined
    await database.drop()
  })

  const open = (options: { module?: URL, delayMs?: number } = {}) => {
    handle = openDatabase({ kind: 'sqlite', file }, { checkpoints: walCheckpoints({ module: BUILT, ...options }) })
    return handle
  }
  /** Writes `pages` pages or so of rows in one transaction each of `perCommit`. */
  const write = async (db: DatabaseHandle['db'], pages: number, from = 0) => {
    const blob = 'x'.repeat(PAGE - 200)
    for (let i = from; i < from + pages; i++) await sql`insert into filler (n, body) values (${i}, ${blob})`.execute(db)
  }
  const walBytes = () => fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0
  /** The log's checkpoint sequence number (its header's bytes 12–15): one more each time the log starts again. */
  const walSequence = () => {
    const header = Buffer.alloc(16)
    const fd = fs.openSync(`${file}-wal`, 'r')
    try {
      fs.readSync(fd, header, 0, 16, 0)
    } finally {
      fs.closeSync(fd)
    }
    return header.readUInt32BE(12)
  }

  it('leaves the log to the thread: the connection checkpoints only at the backstop, the thread copies it all', async () => {
    // A delay no test waits for: only the explicit checkpoint runs.
    const { db, checkpoints } = open({ delayMs: 3_600_000 })
    if (checkpoints === undefined) throw new Error('no checkpoints')
    const pragma = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)
    expect(pragma.rows[0]?.wal_autocheckpoint).toBe(BACKSTOP_PAGES)
    await sql`create table filler (n integer primary key, body text not null)`.execute(db)
    await write(db, 1_500)
    // SQLite's own checkpoint would have started the log again at 1,000 pages; 1,500 inserts of a page each are in it.
    expect(walBytes()).toBeGreaterThan(1_500 * PAGE)

    const result = await checkpoints.checkpoint()
    expect(result?.busy).toBe(0)
    expect(result?.log).toBeGreaterThanOrEqual(1_500)
    expect(result?.checkpointed).toBe(result?.log)
    expect(checkpoints.counts).toEqual({ checkpoints: 1, pages: result?.checkpointed, held: 0, failed: 0 })
    // The database file holds every row: a new connection that ignores the log (read-only, log emptied) counts them.
    const size = fs.statSync(file).size
    expect(size).toBeGreaterThan(1_500 * PAGE)

    // The next write finds the log copied and starts it again from its beginning.
    await write(db, 1, 10_000)
    const again = await checkpoints.checkpoint()
    expect(again?.log).toBeLessThan(10)
  })

  it('follows writes with a checkpoint, keeps them coming under a stream of writes, and empties the log when idle', async () => {
    const { db, checkpoints } = open({ delayMs: 0 })
    if (checkpoints === undefined) throw new Error('no checkpoints')
    await sql`create table filler (n integer primary key, body text not null)`.execute(db)
    await expect.poll(() => checkpoints.scheduled, { timeout: 10_000 }).toBe(false)
    // Statements that change nothing, and transactions of them (an idle server's polls), ask for no checkpoint.
    await sql`update filler set body = 'y' where n < 0`.execute(db)
    await sql`delete from filler where n < 0 returning n`.execute(db)
    await db.transaction().execute(async (trx) => {
      await sql`select count(*) from filler`.execute(trx)
      await sql`update filler set body = 'y' where n < 0`.execute(trx)
    })
    expect(checkpoints.scheduled).toBe(false)
    // A row changed does.
    await write(db, 1, 20_000)
    expect(checkpoints.scheduled).toBe(true)
    await expect.poll(() => checkpoints.counts.checkpoints, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    expect(checkpoints.threadRunning).toBe(true)
    // While the checkpoints run, the connection goes on writing.
    const before = checkpoints.counts.checkpoints
    for (let round = 0; round < 20; round++) {
      await write(db, 50, round * 50)
      await new Promise((resolve) => setImmediate(resolve))
    }
    await expect.poll(() => checkpoints.counts.checkpoints, { timeout: 10_000 }).toBeGreaterThan(before + 1)
    expect(checkpoints.counts.failed).toBe(0)
    const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(db)
    expect(count.rows[0]?.n).toBe(1_001)

    // Idle: the last checkpoint empties the log file, and the thread ends.
    const emptied = await checkpoints.idle()
    expect(emptied).toEqual({ busy: 0, log: 0, checkpointed: 0 })
    expect(walBytes()).toBe(0)
    expect(checkpoints.threadRunning).toBe(false)
    const reader = new (loadSqliteDriver().Database)(file, { readonly: true })
    try {
      expect((reader.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(1_001)
    } finally {
      reader.close()
    }
    // The next write starts another thread.
    await write(db, 1, 5_000)
    await expect.poll(() => checkpoints.threadRunning, { timeout: 10_000 }).toBe(true)
    // Closing the database waits for the thread to end, so that no file of the log is opened after it.
    const worker = checkpoints.worker
    await handle?.close()
    handle = undefined
    expect(worker?.threadId).toBe(-1)
  })

  it('holds the connection still for the checkpoint after one that found a long log, and the next write starts the log again',
    async () => {
      // Checkpoints only when the test asks: the order of events is the test's, however busy the machine. (How far the
      // log grows under a stream of writes depends on the machine's speed; the benchmark measures it.)
      const { db, checkpoints } = open({ delayMs: 3_600_000 })
      if (checkpoints === undefined) throw new Error('no checkpoints')
      await sql`create table filler (n integer primary key, body text not null)`.execute(db)
      await write(db, RESTART_PAGES)
      const started = walSequence()
      // A checkpoint finds a log of RESTART_PAGES or more while writes go on: it leaves what they add.
      const during = Promise.all(Array.from({ length: 64 }, (_, i) => write(db, 1, RESTART_PAGES + i)))
      const first = await checkpoints.checkpoint()
      expect(first?.log).toBeGreaterThanOrEqual(RESTART_PAGES)
      // The next one began at once, holding the connection: asked for now, it is the one answered. Writes asked for
      // meanwhile wait for it, so it copies the whole log, and the first of them starts the log again.
      const after = Promise.all(Array.from({ length: 64 }, (_, i) => write(db, 1, RESTART_PAGES + 64 + i)))
      const held = await checkpoints.checkpoint()
      expect(checkpoints.counts.held).toBe(1)
      expect(held?.busy).toBe(0)
      expect(held?.checkpointed).toBe(held?.log)
      await Promise.all([during, after])
      expect(walSequence()).toBeGreaterThan(started)
      expect(checkpoints.counts.failed).toBe(0)
      const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(db)
      expect(count.rows[0]?.n).toBe(RESTART_PAGES + 128)
    })

  it('empties the log when idle after a checkpoint that starts the held one: it waits for that one, not joins it', async () => {
    const { db, checkpoints } = open({ delayMs: 3_600_000 })
    if (checkpoints === undefined) throw new Error('no checkpoints')
    await sql`create table filler (n integer primary key, body text not null)`.execute(db)
    await write(db, RESTART_PAGES)
    const during = Promise.all(Array.from({ length: 64 }, (_, i) => write(db, 1, RESTART_PAGES + i)))
    // Idle asked for while a checkpoint runs that finds a long log: the held one starts after it, and idle comes after that.
    const first = checkpoints.checkpoint()
    const emptied = checkpoints.idle()
    expect((await first)?.log).toBeGreaterThanOrEqual(RESTART_PAGES)
    await during
    expect(await emptied).toEqual({ busy: 0, log: 0, checkpointed: 0 })
    expect(checkpoints.counts.held).toBe(1)
    expect(walBytes()).toBe(0)
  })

  it('when its thread cannot start, fails the checkpoint and leaves the log to the backstop; writing goes on', async () => {
    const { db, checkpoints } = open({ module: new URL('data:text/javascript,process.exit(3)'), delayMs: 3_600_000 })
    if (checkpoints === undefined) throw new Error('no checkpoints')
    await sql`create table filler (n integer primary key, body text not null)`.execute(db)
    expect(await checkpoints.checkpoint()).toBeUndefined()
    expect(checkpoints.counts).toEqual({ checkpoints: 0, pages: 0, held: 0, failed: 1 })
    await write(db, 10)
    const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(db)
    expect(count.rows[0]?.n).toBe(10)
  })

  it('lets a thread go that answered with a failure', async () => {
    const failing = `data:text/javascript,${encodeURIComponent('import { parentPort } from "node:worker_threads"; parentPort.on('
      + '"message", (message) => { if (message === "close") process.exit(0); parentPort.postMessage({ id: message.id, failure: "disk I/O error" }) })')}`
    const { checkpoints } = open({ module: new URL(failing), delayMs: 3_600_000 })
    if (checkpoints === undefined) throw new Error('no checkpoints')
    const checkpoint = checkpoints.checkpoint()
    const worker = checkpoints.worker
    if (worker === undefined) throw new Error('no thread')
    const exited = once(worker, 'exit')
    expect(await checkpoint).toBeUndefined()
    expect(checkpoints.counts.failed).toBe(1)
    expect(checkpoints.threadRunning).toBe(false)
    // Told to close, it ends.
    expect(await exited).toEqual([0])
  })

  it('is not used for a read-only connection, an in-memory database, or unless asked for', async () => {
    // The schema first: a read-only connection needs the file to exist.
    const first = open()
    await sql`create table filler (n integer primary key, body text not null)`.execute(first.db)
    const readonly = openDatabase({ kind: 'sqlite', file }, { readonly: true, checkpoints: walCheckpoints({ module: BUILT }) })
    const memory = openDatabase({ kind: 'sqlite', file: ':memory:' }, { checkpoints: walCheckpoints({ module: BUILT }) })
    const plain = openDatabase({ kind: 'sqlite', file })
    try {
      expect([readonly.checkpoints, memory.checkpoints, plain.checkpoints]).toEqual([undefined, undefined, undefined])
      const pragma = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(plain.db)
      expect(pragma.rows[0]?.wal_autocheckpoint).toBe(1_000)
    } finally {
      await Promise.all([readonly.close(), memory.close(), plain.close()])
    }
  })
})

describe('the server process', () => {
  it('checkpoints on its thread after a booking, and counts the checkpoints in /metrics', async () => {
    const database = await createTestDatabase('sqlite')
    const court = randomUUID()
    const allDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))
    const context = await openContext(database, { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'checkpoints', name: 'Checkpoints', timezone: 'UTC' })
    await importClubData(context.db, context.clock, club.id, { courts: [{ id: court, name: 'Court 1', opening_hours: allDay }] })
    await context.close()
    const server = await startServer({ ...database.env, DATABASE_URL: '' })
    try {
      const done = async () => Number(/^sqlite_wal_checkpoints_total\{outcome="done"\} (\d+)$/m
        .exec(await (await fetch(`${server.url}/metrics`)).text())?.[1])
      // Its own writes at start-up may have been checkpointed already; the count settles once they are.
      await expect.poll(async () => (await done()) === (await done()), { timeout: 10_000 }).toBe(true)
      const before = await done()
      const start = Date.parse(`${new Date(testNow() + 86_400_000).toISOString().slice(0, 10)}T10:00:00Z`)
      const response = await fetch(`${server.url}/api/v1/public/checkpoints/courts/book`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ court_id: court,
          start_time: new Date(start).toISOString(), end_time: new Date(start + 3_600_000).toISOString(), booker_name: 'Cai',
          booker_email: 'cai@example.org' }) })
      expect(response.status).toBe(201)
      await expect.poll(done, { timeout: 10_000 }).toBeGreaterThan(before)
      expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^sqlite_wal_checkpoints_total\{outcome="failed"\} 0$/m)
    } finally {
      await stopServer(server)
      await database.drop()
    }
  })
})
