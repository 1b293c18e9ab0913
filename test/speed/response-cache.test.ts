/**
 * The response cache may save work but never change an answer: every change — from another
 * process, from this one, or by the clock alone (scheduled news) — shows on the next request.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { CHANGE_FEED_APPLICATION } from '../../src/db/changes.js'
import { openDatabase } from '../../src/db/dialect.js'
import { listGroups } from '../../src/db/repositories/listings.js'
import { ResponseCache } from '../../src/speed/response-cache.js'
import { importClubData } from '../../src/services/import.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { clubFixture, idFor } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { LIST_PATHS } from '../helpers/list-endpoints.js'

const run = promisify(execFile)

/** The command line as the operator runs it: a process of its own, with its own connection. */
async function commandLine(h: Harness, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['bin/club-platform.js', ...args],
    { env: { ...process.env, DATABASE_URL: '', ...h.database.env, LOG_LEVEL: 'silent' } })
  // PostgreSQL tells this process of the command's commit by a notification, which arrives shortly after it
  // (docs/operations.md): the next request is the one after it arrived. On SQLite this waits for nothing.
  await h.context.changes.settle()
  return stdout
}

interface Listing { data: { id: string, name?: string, title?: string }[], meta: { total: number } }
interface Courts { courts: { court_id: string, start_time: string, status: string }[] }

describeEachDatabase('response cache', (dialect) => {
  let key = ''
  const slug = 'cached'
  const fixture = clubFixture(slug, START)
  const harness = useHarness(dialect, async (h) => {
    const { clubId } = await setUpCourts(h, slug)
    await importClubData(h.context.db, h.clock, clubId, fixture)
    key = (await h.createKey(clubId)).key
    // On PostgreSQL the set-up's own changes arrive as notifications; one arriving after a first read would void its answer.
    await h.context.changes.settle()
  }, { env: { RATE_LIMIT_CAPACITY: '10000', DAILY_QUOTA: '1000000' } })
  const get = (url: string) => harness.current.request({ url, key })

  it('answers an unchanged list without a query, with the same bytes and tag', async () => {
    const h = harness.current
    for (const url of LIST_PATHS) {
      const first = await get(url)
      h.statements.length = 0
      const second = await get(url)
      expect(h.statements.map((statement) => statement.sql), url).toEqual([])
      expect(second.body).toBe(first.body)
      expect(second.headers.etag).toBe(first.headers.etag)
    }
  })

  it('shows a change made by the command line in another process on the next request', async () => {
    const h = harness.current
    const before = (await get('/api/v1/groups')).json<Listing>()
    const group = fixture.groups[0]
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'cache-import-')), 'club.json')
    await fs.writeFile(file, JSON.stringify({ groups: [{ ...group, name: 'Renamed by the command line' },
      { id: idFor('cached:group:new'), name: 'A new group', sport: 'tennis' }] }))
    await commandLine(h, ['import', '--club', slug, file])
    const after = (await get('/api/v1/groups')).json<Listing>()
    expect(after.meta.total).toBe(before.meta.total + 1)
    expect(after.data.find((item) => item.id === group?.id)?.name).toBe('Renamed by the command line')
    expect(after.data.map((item) => item.name)).toContain('A new group')
    await fs.rm(path.dirname(file), { recursive: true, force: true })
  })

  it('shows a hold added by the command line in the courts listing on the next request', async () => {
    const h = harness.current
    const url = `/api/v1/public/${slug}/courts?date=${TUESDAY}`
    const slotAt = (body: Courts, start: string) =>
      body.courts.find((slot) => slot.court_id === COURT.allDay && slot.start_time === start)?.status
    expect(slotAt((await h.request({ url })).json<Courts>(), `${TUESDAY}T03:00:00+02:00`)).toBe('available')
    await commandLine(h, ['courts', 'hold', '--club', slug, '--court', COURT.allDay, '--kind', 'block',
      '--from', `${TUESDAY}T03:00:00+02:00`, '--to', `${TUESDAY}T04:00:00+02:00`])
    expect(slotAt((await h.request({ url })).json<Courts>(), `${TUESDAY}T03:00:00+02:00`)).toBe('blocked')
  })

  it('shows a booking made through this process in the courts listing at once', async () => {
    const h = harness.current
    const url = `/api/v1/public/${slug}/courts?date=${TUESDAY}`
    const start = `${TUESDAY}T05:00:00+02:00`
    const status = async () => (await h.request({ url })).json<Courts>().courts
      .find((slot) => slot.court_id === COURT.allDay && slot.start_time === start)?.status
    expect(await status()).toBe('available')
    const booked = await h.request({ method: 'POST', url: `/api/v1/public/${slug}/courts/book`, payload: {
      court_id: COURT.allDay, start_time: start, end_time: `${TUESDAY}T06:00:00+02:00`, booker_name: 'Quick Reader',
      booker_email: 'quick@example.org' } })
    expect(booked.status).toBe(201)
    expect(await status()).toBe('booked')
  })

  it('publishes news scheduled a minute ahead when the clock passes it, not when an entry expires', async () => {
    const h = harness.current
    const clubId = (await h.context.db.selectFrom('clubs').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id
    const due = h.clock.now() + 60_000
    await importClubData(h.context.db, h.clock, clubId, { news: [{ id: idFor('cached:news:scheduled'), title: 'Scheduled',
      content: 'Appears in a minute.', published_at: new Date(due).toISOString() }] })
    await h.context.changes.settle()
    const titles = async () => (await get('/api/v1/news?limit=100')).json<Listing>().data.map((item) => item.title)
    try {
      expect(await titles()).not.toContain('Scheduled')
      h.clock.advance(59_999)
      h.statements.length = 0
      expect(await titles()).not.toContain('Scheduled')
      // (The key is looked up again: its cache lasts a second.)
      expect(h.statements.filter((statement) => /news/.test(statement.sql)), 'still served from the cache a moment before').toEqual([])
      h.clock.advance(1)
      expect(await titles()).toContain('Scheduled')
    } finally {
      h.clock.set(START)
    }
  })

  it('files nothing read while the data changed underneath', async () => {
    const h = harness.current
    const clubId = (await h.context.db.selectFrom('clubs').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id
    const other = openDatabase(h.database.settings)
    try {
      const scope = `groups:${clubId}`
      const read = await h.context.changes.read(h.context.db, scope, async (db) => {
        const page = await listGroups(db, clubId, { limit: 5, offset: 0 })
        // Another connection commits a change after the page was read, before the read ends.
        await other.db.updateTable('groups').set({ description: 'changed meanwhile' }).where('club_id', '=', clubId).execute()
        await h.context.changes.settle()
        return page
      })
      // The next turn of the event loop reads the counter afresh.
      await new Promise((resolve) => setImmediate(resolve))
      // Filed under no version (PostgreSQL: the version moved during the read), or under the version of the
      // snapshot it read (SQLite), which the change has left: either way, what was read is never served as current.
      expect(read.version === undefined || read.version !== h.context.changes.version(scope)).toBe(true)
      if (dialect === 'sqlite') expect(read.value.rows.every((group) => group.description !== 'changed meanwhile')).toBe(true)
      const unchanged = await h.context.changes.read(h.context.db, scope, (db) => listGroups(db, clubId, { limit: 5, offset: 0 }))
      expect(unchanged.version).toBe(h.context.changes.version(scope))
    } finally {
      await other.close()
    }
  })

  if (dialect === 'postgres') {
    it('serves nothing from the cache while it cannot hear changes, and voids what it held after reconnecting', async () => {
      const h = harness.current
      await get('/api/v1/groups')
      h.statements.length = 0
      await get('/api/v1/groups')
      expect(h.statements).toEqual([])
      const terminated = await sql<{ pid: number }>`select pg_terminate_backend(pid) as pid from pg_stat_activity
        where datname = current_database() and application_name = ${CHANGE_FEED_APPLICATION}`.execute(h.context.db)
      expect(terminated.rows).toHaveLength(1)
      for (let i = 0; i < 100 && h.context.changes.version('groups:x') !== undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      h.statements.length = 0
      await get('/api/v1/groups')
      expect(h.statements.length, 'read from the database while not listening').toBeGreaterThan(0)
      for (let i = 0; i < 300 && h.context.changes.version('groups:x') === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(h.context.changes.version('groups:x')).toBeDefined()
      h.statements.length = 0
      await get('/api/v1/groups')
      expect(h.statements.length, 'entries from before the reconnect are void').toBeGreaterThan(0)
    })
  }
})

describe('response cache bounds', () => {
  it('keeps at most its byte budget, oldest out first, and refuses what it cannot hold', () => {
    const cache = new ResponseCache(10_000)
    const body = 'x'.repeat(3_000)
    for (const key of ['a', 'b', 'c', 'd', 'd']) cache.set(key, 1, Number.POSITIVE_INFINITY, body)
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000)
    expect(cache.get('a', 1, 0)).toBeUndefined()
    expect(String(cache.get('d', 1, 0)?.body)).toBe(body)
    expect(cache.get('d', 2, 0), 'another version').toBeUndefined()
    expect(cache.get('d', 1, 0), 'a stale entry is dropped').toBeUndefined()
    cache.set('e', 1, 100, body)
    expect(cache.get('e', 1, 99)).toBeDefined()
    expect(cache.get('e', 1, 100), 'due at validUntil').toBeUndefined()
    const huge = cache.set('huge', 1, Number.POSITIVE_INFINITY, 'y'.repeat(20_000))
    expect(huge.etag).toMatch(/^"/)
    expect(cache.get('huge', 1, 0)).toBeUndefined()
    expect(new ResponseCache(0).enabled).toBe(false)
  })

  it('keeps a filed page as its UTF-8 bytes, counted once however often it is served, and answers an unfiled one as its string', () => {
    const cache = new ResponseCache(10_000)
    // 3,000 bytes of UTF-8 in 2,000 characters: the bound counts bytes.
    const body = `${'é'.repeat(1_000)}${'x'.repeat(1_000)}`
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, Number.POSITIVE_INFINITY, body)
    const filed = cache.get('a', 1, 0)
    expect(Buffer.isBuffer(filed?.body), 'filed as bytes').toBe(true)
    expect(filed?.body).toEqual(Buffer.from(body, 'utf8'))
    expect(filed?.bytes).toBe(3_000)
    expect(cache.size.bytes).toBe(3 * (3_000 + 1 + 256))
    // Served again and again, the three stay, and the count does not grow.
    for (let i = 0; i < 3; i++) for (const key of ['a', 'b', 'c']) expect(cache.get(key, 1, 0), key).toBeDefined()
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * (3_000 + 1 + 256) })
    // The full cache's first miss of a page: answered as the serialiser's string, with the tag of the same bytes.
    const once = cache.set('d', 1, Number.POSITIVE_INFINITY, body)
    expect(once.body).toBe(body)
    expect(once.bytes).toBe(3_000)
    expect(once.etag).toBe(filed?.etag)
  })

  it('files every page while it has room, and once full a page on its second miss only', () => {
    const cache = new ResponseCache(10_000)
    const body = 'x'.repeat(3_000)
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, Number.POSITIVE_INFINITY, body)
    expect(cache.size.entries, 'filed at once while there is room').toBe(3)
    expect(['a', 'b', 'c'].map((key) => String(cache.get(key, 1, 0)?.body))).toEqual([body, body, body])
    const once = cache.set('d', 1, Number.POSITIVE_INFINITY, body)
    expect(once.body, 'a page not filed is answered all the same').toBe(body)
    expect(cache.get('d', 1, 0), 'a first miss of a full cache').toBeUndefined()
    expect(cache.size.entries, 'and it pushed out nothing').toBe(3)
    expect(String(cache.get('a', 1, 0)?.body)).toBe(body)
    cache.set('d', 1, Number.POSITIVE_INFINITY, body)
    expect(String(cache.get('d', 1, 0)?.body), 'its second miss').toBe(body)
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000)
    // A stream of pages asked for once: the doorkeeper forgets them, and none is filed.
    for (let i = 0; i < 40_000; i++) cache.set(`once ${String(i)}`, 1, Number.POSITIVE_INFINITY, body)
    expect(cache.get('once 39999', 1, 0)).toBeUndefined()
    expect(cache.get('d', 1, 0), 'the page asked for again is still there').toBeDefined()
    // A page missed again after more than two generations of other misses counts as a first miss again.
    cache.set('once 0', 1, Number.POSITIVE_INFINITY, body)
    expect(cache.get('once 0', 1, 0)).toBeUndefined()
    cache.set('once 39999', 1, Number.POSITIVE_INFINITY, body)
    expect(String(cache.get('once 39999', 1, 0)?.body), 'missed again within the window').toBe(body)
  })
})
