/**
 * How the service opens a SQLite connection (src/db/dialect.ts): the server's own and a list reader
 * thread's read-only one keep SQLite's own page cache, not the 16 MB a connection the driver is
 * built with (which the server's connection and each reader's filled, and malloc kept after a
 * reader ended: docs/performance.md, step 29); and a LIMIT is taken as the statement runs, not
 * compiled into it (step 42).
 */
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PAGE_CACHE_KIB, openDatabase } from '../../src/db/dialect.js'
import type { DatabaseHandle } from '../../src/db/dialect.js'
import { loadSqliteDriver } from '../../src/db/sqlite-driver.js'
import { createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'

describe('a SQLite connection as the service opens it', () => {
  let database: TestDatabase
  let file = ''
  const handles: DatabaseHandle[] = []
  beforeEach(async () => {
    database = await createTestDatabase('sqlite')
    file = database.settings.kind === 'sqlite' ? database.settings.file : ''
  })
  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close()
    await database.drop()
  })

  const cacheSize = async (handle: DatabaseHandle) =>
    (await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db)).rows[0]?.cache_size

  it('keeps a page cache of SQLite\'s default size, read-write and read-only, where the driver alone gives 16 MB', async () => {
    const driver = loadSqliteDriver()
    const plain = new driver.Database(file)
    const builtWith = plain.pragma('cache_size', { simple: true })
    plain.close()
    // The driver's build default, which the service must not keep.
    expect(builtWith).toBe(-16_000)
    expect(PAGE_CACHE_KIB).toBe(2_000)

    const server = openDatabase({ kind: 'sqlite', file })
    handles.push(server)
    expect(await cacheSize(server)).toBe(-PAGE_CACHE_KIB)
    const reader = openDatabase({ kind: 'sqlite', file }, { readonly: true })
    handles.push(reader)
    expect(await cacheSize(reader)).toBe(-PAGE_CACHE_KIB)
  })

  it('writes a LIMIT as a cast, which SQLite reads as the statement runs, and limits and offsets pages right', async () => {
    // SQLite compiles a bare `limit ?` with the bound value as a constant, and expires the statement whenever it is bound
    // again: every run. The cast keeps the value a parameter read at run time.
    const statements: string[] = []
    const handle = openDatabase({ kind: 'sqlite', file }, { onQuery: (event) => statements.push(event.query.sql) })
    handles.push(handle)
    await sql`create table numbers (n integer primary key)`.execute(handle.db)
    await sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < 30) insert into numbers select n from s`
      .execute(handle.db)
    const db = handle.db.withTables<{ numbers: { n: number } }>()
    const numbers = async (limit: number, offset: number) =>
      (await db.selectFrom('numbers').select('n').orderBy('n').limit(limit).offset(offset).execute()).map((row) => row.n)
    const all = Array.from({ length: 30 }, (_, i) => i + 1)
    for (const [limit, offset] of [[5, 0], [3, 7], [0, 2], [50, 25], [1, 29], [4, 30]] as const) {
      expect(await numbers(limit, offset)).toEqual(all.slice(offset, offset + limit))
    }
    const limited = statements.filter((text) => /\blimit\b/i.test(text))
    expect(limited).toHaveLength(6)
    for (const text of limited) expect(text).toMatch(/limit cast\(\? as integer\) offset \?$/)
  })
})
