/**
 * List pages missing from the response cache are read on threads (src/speed/list-readers.ts).
 * The module as built, on a real SQLite file: no read waits for a thread to start (the caller
 * reads on the event loop meanwhile); a page is read under the version of its own snapshot, sees
 * what another connection committed before it began, counts the total only when the one it was
 * given is not of that version; reads spread over the threads, which end when idle and start
 * again; a thread that dies fails only the reads in hand; a thread that cannot start is not
 * started again before the next check. A harness whose threads fail still answers every page (the
 * route reads it on the event loop). The server process says how many threads it reads on (none
 * on PostgreSQL) and counts their reads in /metrics. That the threads answer exactly as the event
 * loop does is test/speed/fast-path.test.ts, whose server reads its misses on them.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ManualClock } from '../../src/clock.js'
import type { AppContext } from '../../src/context.js'
import type * as ListReadersModule from '../../src/speed/list-readers.js'
import type { ListReaders, PageRead, PageReadResult } from '../../src/speed/list-readers.js'
import { etagOf } from '../../src/http/etag.js'
import { MISSES_TO_START } from '../../src/speed/list-readers.js'
import type { ListArea } from '../../src/speed/list-reads.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import { importClubData } from '../../src/services/import.js'
import { openContext } from '../helpers/context.js'
import { createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { clubFixture } from '../helpers/fixtures.js'
import { START, startHarness } from '../helpers/harness.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import { testNow } from '../helpers/today.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'

// The threads run built JavaScript: the module is loaded from dist/, as the server loads it.
const load = async () => await import(pathToFileURL(path.resolve('dist/speed/list-readers.js')).href) as typeof ListReadersModule

interface Body { data: { id: string, description?: string | null }[], meta: { limit: number, offset: number, total: number } }

describe('list reader threads, as built', () => {
  let database: TestDatabase
  let context: AppContext
  let clubId = ''
  let file = ''
  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    context = await openContext(database, { migrate: true })
    clubId = (await createClub(context.db, context.clock, { slug: 'readers', name: 'Readers', timezone: 'UTC' })).id
    await importClubData(context.db, context.clock, clubId, clubFixture('readers', START))
    file = database.settings.kind === 'sqlite' ? database.settings.file : ''
  })
  afterAll(async () => {
    await context.close()
    await database.drop()
  })

  const pageRead = (area: ListArea, offset = 0, known?: PageRead['known']): PageRead =>
    ({ area, scope: `${area}:${clubId}`, clubId, limit: 5, offset, now: START, known })

  /** Readers whose threads are all ready: the first read finds none ready and starts them. */
  const readyReaders = async (count: number) => {
    const readers = new (await load()).ListReaders(file, count, { startAfter: 1 })
    expect(readers.read(pageRead('groups'))).toBeUndefined()
    expect(readers.threads).toHaveLength(count)
    await expect.poll(() => readers.ready, { timeout: 10_000 }).toBe(count)
    return readers
  }

  /** The page's text; its slot is given back. */
  const textOf = (result: PageReadResult) => {
    const text = typeof result.body === 'string' ? result.body : result.body.toString('utf8')
    result.release()
    return text
  }

  const readOn = (readers: ListReaders, read: PageRead) => {
    const reading = readers.read(read)
    if (reading === undefined) throw new Error('no thread was ready')
    return reading
  }

  it('reads under the version of its snapshot, sees a change committed before it, and counts only what it must', async () => {
    const readers = await readyReaders(2)
    try {
      const first = await readOn(readers, pageRead('groups'))
      expect(first.etag).toBe(etagOf(first.body))
      const body = JSON.parse(textOf(first)) as Body
      expect(body.data).toHaveLength(5)
      expect(body.meta).toEqual({ limit: 5, offset: 0, total: 9 })
      expect(first.version).toEqual(expect.any(Number))
      expect(first.counted).toEqual({ version: first.version, validUntil: Number.POSITIVE_INFINITY, total: 9 })

      // A total counted under the snapshot's version is used as it is: a wrong one shows that it was not counted again.
      const known = { version: first.version ?? -1, validUntil: Number.POSITIVE_INFINITY, total: 99 }
      const next = await readOn(readers, pageRead('groups', 5, known))
      expect(JSON.parse(textOf(next))).toMatchObject({ meta: { limit: 5, offset: 5, total: 99 } })
      expect(next.counted).toBeUndefined()

      // Another connection commits a change: the next read sees it, under a new version, and counts again.
      await context.db.updateTable('groups').set({ description: 'changed' }).where('club_id', '=', clubId).execute()
      const changed = await readOn(readers, pageRead('groups', 5, known))
      expect(changed.version).not.toBe(first.version)
      expect((JSON.parse(textOf(changed)) as Body).data.map((group) => group.description)).toEqual(Array(4).fill('changed'))
      expect(changed.counted?.total).toBe(9)

      // News scheduled for later: the page is good until the next publication.
      const news = await readOn(readers, pageRead('news'))
      news.release()
      const next_ = await context.db.selectFrom('news').select('published_at').where('club_id', '=', clubId)
        .where('published_at', '>', new Date(START).toISOString()).orderBy('published_at').executeTakeFirstOrThrow()
      expect(news.validUntil).toBe(Date.parse(String(next_.published_at)))
      expect(readers.counts).toEqual({ read: 4, asText: 0, failed: 0 })
    } finally {
      await readers.close()
    }
  })

  it('starts its threads only once misses come often, counting them afresh each second of its clock', async () => {
    const module = await load()
    const clock = new ManualClock(START)
    const readers = new module.ListReaders(file, 2, { clock })
    try {
      const misses = (count: number) => {
        for (let i = 0; i < count; i++) expect(readers.read(pageRead('groups', i))).toBeUndefined()
      }
      // One short of the default within a second: every miss is left to the event loop, and no thread starts.
      misses(module.MISSES_TO_START - 2)
      clock.advance(999)
      misses(1)
      expect(readers.threads).toHaveLength(0)
      // The next second counts from nothing: as many again start nothing either.
      clock.advance(1)
      misses(module.MISSES_TO_START - 1)
      expect(readers.threads).toHaveLength(0)
      // The last one of the second's quota starts them (it is still read on the event loop).
      misses(1)
      expect(readers.threads).toHaveLength(2)
      await expect.poll(() => readers.ready, { timeout: 10_000 }).toBe(2)
      // Threads that run read every miss, however rare.
      clock.advance(5_000)
      expect((JSON.parse(textOf(await readOn(readers, pageRead('groups')))) as Body).data).toHaveLength(5)
      expect(readers.counts).toEqual({ read: 1, asText: 0, failed: 0 })
    } finally {
      await readers.close()
    }
  })

  it('spreads reads over its threads, lets them go when idle, and starts them again', async () => {
    const readers = await readyReaders(2)
    try {
      const threads = readers.threads
      const used = new Set<number>()
      for (const thread of threads) thread.on('message', () => used.add(thread.threadId))
      await Promise.all([readOn(readers, pageRead('events')), readOn(readers, pageRead('competition_results'))])
      expect(used.size).toBe(2)
      // A read came since the last check: not idle yet.
      readers.check()
      expect(readers.threads).toHaveLength(2)
      const ended = threads.map((thread) => new Promise((resolve) => thread.once('exit', resolve)))
      readers.check()
      expect(readers.threads).toHaveLength(0)
      expect(await Promise.all(ended)).toEqual([0, 0])

      // The next read finds none ready and starts them again.
      expect(readers.read(pageRead('events'))).toBeUndefined()
      await expect.poll(() => readers.ready, { timeout: 10_000 }).toBe(2)
      expect(readers.threads.map((thread) => thread.threadId).filter((id) => threads.some((old) => old.threadId === id)))
        .toEqual([])
      expect((JSON.parse(textOf(await readOn(readers, pageRead('events')))) as Body).data).toHaveLength(5)
    } finally {
      await readers.close()
    }
  })

  it('fails the reads in hand when a thread dies, and the next read starts another', async () => {
    const readers = await readyReaders(1)
    const reported: Error[] = []
    readers.reportTo((error) => reported.push(error))
    try {
      // The thread is told to stop first, so that it cannot answer the read before it dies.
      const [thread] = readers.threads
      const terminated = thread?.terminate()
      const inHand = readOn(readers, pageRead('groups'))
      await terminated
      await expect(inHand).rejects.toThrow(/^a list reader thread stopped \(exit code \d+\)$/)
      expect(readers.threads).toHaveLength(0)
      expect(reported.map((error) => error.message)).toEqual([expect.stringMatching(/^a list reader thread stopped/)])

      // The next read starts another (and is read elsewhere meanwhile).
      expect(readers.read(pageRead('groups'))).toBeUndefined()
      await expect.poll(() => readers.ready, { timeout: 10_000 }).toBe(1)
      const after = await readOn(readers, pageRead('groups'))
      expect((JSON.parse(textOf(after)) as Body).data).toHaveLength(5)
      expect(readers.threads[0]?.threadId).not.toBe(thread?.threadId)
      expect(readers.counts).toEqual({ read: 1, asText: 0, failed: 1 })
      // Closing waits for the threads to end, so that none opens the database's files after it.
      const running = readers.threads
      await readers.close()
      expect(running.map((worker) => worker.threadId)).toEqual([-1])
    } finally {
      await readers.close()
    }
  })

  it('does not start a thread again before the next check when one ended before it was ready', async () => {
    // A thread that ends as it starts, as one whose database cannot be opened would.
    const readers = new (await load()).ListReaders(file, 2, { module: new URL('data:text/javascript,process.exit(3)'), startAfter: 1 })
    const reported: Error[] = []
    readers.reportTo((error) => reported.push(error))
    try {
      expect(readers.read(pageRead('groups'))).toBeUndefined()
      await expect.poll(() => readers.threads, { timeout: 10_000 }).toHaveLength(0)
      expect(reported.map((error) => error.message)).toEqual(Array(2).fill('a list reader thread stopped (exit code 3)'))
      expect(readers.read(pageRead('groups'))).toBeUndefined()
      expect(readers.threads).toHaveLength(0)
      readers.check()
      expect(readers.read(pageRead('groups'))).toBeUndefined()
      expect(readers.threads).toHaveLength(2)
    } finally {
      await readers.close()
    }
  })

  it('hands each page over in a slot of shared memory, which no read uses again until the page is released', async () => {
    const { BODY_SLOTS, BODY_SLOT_BYTES } = await load()
    const readers = await readyReaders(1)
    try {
      const held = await readOn(readers, pageRead('groups'))
      expect(Buffer.isBuffer(held.body)).toBe(true)
      const heldText = held.body.toString('utf8')
      expect(held.etag).toBe(etagOf(heldText))
      // Twice as many reads as slots, each released: every page is whole, and the held one is untouched.
      for (let i = 0; i < 2 * BODY_SLOTS; i++) {
        const area = LIST_ENDPOINTS[i % LIST_ENDPOINTS.length]?.listing ?? 'groups'
        const result = await readOn(readers, pageRead(area, i % 3))
        expect(typeof result.body).not.toBe('string')
        expect(result.etag).toBe(etagOf(result.body))
        expect((JSON.parse(textOf(result)) as Body).meta).toMatchObject({ limit: 5, offset: i % 3 })
      }
      expect(held.body.toString('utf8')).toBe(heldText)
      // Every other slot taken and not released: the next page comes as text.
      const taken = await Promise.all(Array.from({ length: BODY_SLOTS - 1 }, () => readOn(readers, pageRead('events'))))
      expect(taken.every((result) => Buffer.isBuffer(result.body))).toBe(true)
      const overflow = await readOn(readers, pageRead('events'))
      expect(overflow.body).toBe(taken[0]?.body.toString('utf8'))
      expect(overflow.etag).toBe(taken[0]?.etag)
      // Released twice, a slot is freed once: one more read has a slot, the next none again.
      held.release()
      held.release()
      const [again, none] = await Promise.all([readOn(readers, pageRead('groups')), readOn(readers, pageRead('groups'))])
      expect(Buffer.isBuffer(again.body)).toBe(true)
      expect(none.body).toBe(heldText)
      for (const result of [...taken, again]) result.release()

      // A page larger than a slot comes as text.
      await context.db.updateTable('news').set({ content: 'ä'.repeat(BODY_SLOT_BYTES / 2) }).where('club_id', '=', clubId).execute()
      const large = await readOn(readers, pageRead('news'))
      expect(typeof large.body).toBe('string')
      expect(Buffer.byteLength(large.body)).toBeGreaterThan(BODY_SLOT_BYTES)
      expect(large.etag).toBe(etagOf(large.body))
      expect((JSON.parse(textOf(large)) as Body).data.length).toBeGreaterThan(0)
      const small = await readOn(readers, pageRead('groups'))
      expect(Buffer.isBuffer(small.body)).toBe(true)
      expect(textOf(small)).toBe(heldText)
    } finally {
      await readers.close()
    }
  })
})

describe('reader threads that fail', () => {
  it('leave each page to the route, which reads it on the event loop', async () => {
    // Threads that say they are ready, and end at the first read.
    const h = await startHarness('sqlite', { readerThreads: new URL(`data:text/javascript,${encodeURIComponent(
      'import { parentPort } from "node:worker_threads"; parentPort.postMessage("ready"); parentPort.on("message", () => process.exit(3))')}`) })
    try {
      const club = await h.createClub('failing')
      await importClubData(h.context.db, h.clock, club.id, clubFixture('failing', START))
      const { key } = await createApiKey(h.context.db, h.clock, { clubId: club.id, name: 'site', expiresAt: null,
        scopes: ['read:groups', 'read:news'] })
      const readers = h.context.readers
      // The first request reads the key (the route answers it); the second misses and starts the threads.
      for (const url of ['/api/v1/groups?limit=3', '/api/v1/groups?limit=4']) expect((await h.request({ url, key })).status).toBe(200)
      await expect.poll(() => readers?.ready, { timeout: 10_000 }).toBe(2)
      // Each of these misses goes to a thread, which ends; the route reads it on the event loop.
      for (const url of ['/api/v1/news', '/api/v1/groups?limit=5']) {
        const response = await h.request({ url, key })
        expect(response.status, url).toBe(200)
        expect(response.json<Body>().data.length).toBeGreaterThan(0)
      }
      expect(readers?.counts).toEqual({ read: 0, asText: 0, failed: 2 })
    } finally {
      await h.close()
      await h.database.drop()
    }
  })
})

describe('the server process', () => {
  it('says how many threads it reads on, and counts their reads in /metrics', async () => {
    const database = await createTestDatabase('sqlite')
    const context = await openContext(database, { migrate: true })
    const club = await createClub(context.db, context.clock, { slug: 'process', name: 'Process', timezone: 'UTC' })
    await importClubData(context.db, context.clock, club.id, clubFixture('process', testNow()))
    const { key } = await createApiKey(context.db, context.clock, { clubId: club.id, name: 'site', expiresAt: null,
      scopes: ['read:events'] })
    await context.close()
    // A bucket that holds the burst below.
    const server = await startServer({ ...database.env, DATABASE_URL: '', READER_THREADS: '3', RATE_LIMIT_CAPACITY: '1000' })
    try {
      const serving = () => server.logs.map((line) => JSON.parse(line) as { msg?: string, listReaderThreads?: number })
        .find((entry) => entry.msg === 'serving')?.listReaderThreads
      await expect.poll(serving).toBe(3)
      const events = (offset: number) => fetch(`${server.url}/api/v1/events?offset=${String(offset)}`,
        { headers: { authorization: `Bearer ${key}` } })
      // The first request reads the key (the route answers it); a lone miss is read on the event loop and starts no thread.
      for (const offset of [0, 1]) expect((await events(offset)).status).toBe(200)
      const metrics = async () => await (await fetch(`${server.url}/metrics`)).text()
      expect(await metrics()).toMatch(/^list_reader_threads 0$/m)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await metrics()).toMatch(/^list_reader_threads 0$/m)
      // A burst of misses starts them (twice the threshold: on a loaded machine the burst may straddle a second).
      const burst = await Promise.all(Array.from({ length: 2 * MISSES_TO_START }, (_, i) => events(100 + i)))
      expect(burst.map((response) => response.status)).toEqual(Array(2 * MISSES_TO_START).fill(200))
      await expect.poll(metrics, { timeout: 10_000 }).toMatch(/^list_reader_threads 3$/m)
      // Three misses, while the threads are ready: each read on one.
      const before = Number(/^list_reader_reads_total\{outcome="read"\} (\d+)$/m.exec(await metrics())?.[1])
      for (const offset of [2, 3, 4]) expect((await events(offset)).status).toBe(200)
      await expect.poll(metrics).toMatch(new RegExp(`^list_reader_reads_total\\{outcome="read"\\} ${String(before + 3)}$`, 'm'))
      expect(await metrics()).toMatch(/^list_reader_reads_total\{outcome="failed"\} 0$/m)
    } finally {
      await stopServer(server)
      await database.drop()
    }
  })

  it.skipIf(inject('postgresAdminUrl') === null)('reads on no thread with PostgreSQL, whatever READER_THREADS says', async () => {
    const database = await createTestDatabase('postgres')
    const server = await startServer({ ...database.env, READER_THREADS: '3' })
    try {
      const serving = () => server.logs.map((line) => JSON.parse(line) as { msg?: string, listReaderThreads?: number })
        .find((entry) => entry.msg === 'serving')?.listReaderThreads
      await expect.poll(serving).toBe(0)
      expect(await (await fetch(`${server.url}/metrics`)).text()).not.toMatch(/list_reader/)
    } finally {
      await stopServer(server)
      await database.drop()
    }
  })
})
