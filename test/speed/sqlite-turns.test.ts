/**
 * The one SQLite connection is handed to waiting queries one per event-loop turn, in the order
 * they asked (ConnectionTurns in src/db/dialect.ts), so that a server busy with queued queries
 * still accepts connections and answers between them. Its transactions take the write lock as
 * they begin, so that another process's commit cannot fail them halfway.
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/dialect.js'
import { loadSqliteDriver } from '../../src/db/sqlite-driver.js'
import type { DatabaseHandle } from '../../src/db/dialect.js'

describe('the SQLite connection, taken in turns', () => {
  let handle: DatabaseHandle
  beforeEach(() => {
    handle = openDatabase({ kind: 'sqlite', file: ':memory:' })
  })
  afterEach(async () => {
    await handle.close()
  })

  const query = (n: number) => handle.db.selectNoFrom(sql<number>`${n}`.as('n')).executeTakeFirstOrThrow()

  it('serves waiting queries in the order they asked, one per turn of the event loop', async () => {
    const order: string[] = []
    const queries = [1, 2, 3].map(async (n) => {
      const row = await query(n)
      order.push(`query ${String(row.n)}`)
    })
    setImmediate(() => order.push('next turn'))
    await Promise.all(queries)
    // The first query found the connection free; the second waited for the next turn.
    expect(order).toEqual(['query 1', 'next turn', 'query 2', 'query 3'])
  })

  it('lets a transaction hold the connection for all its statements, and the queries queued behind it run after', async () => {
    const order: string[] = []
    const transaction = handle.db.transaction().execute(async (trx) => {
      for (const n of [1, 2, 3]) {
        const row = await trx.selectNoFrom(sql<number>`${n}`.as('n')).executeTakeFirstOrThrow()
        order.push(`transaction ${String(row.n)}`)
      }
    })
    const after = query(4).then((row) => order.push(`query ${String(row.n)}`))
    await Promise.all([transaction, after])
    expect(order).toEqual(['transaction 1', 'transaction 2', 'transaction 3', 'query 4'])
  })

  it('lets the server accept a new connection while dozens of queries wait', async () => {
    const server = net.createServer()
    const events: string[] = []
    server.on('connection', (socket) => {
      events.push('accepted')
      socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as net.AddressInfo).port
      // On the loopback the kernel completes the connection within the connect call: the event
      // loop's next poll accepts it. Queries that all ran in this turn, as under a plain lock, would
      // keep it waiting until the last one had run.
      const client = net.connect(port, '127.0.0.1')
      client.on('error', () => undefined)
      const queries = Array.from({ length: 30 }, async (_, n) => {
        await query(n)
        events.push(`query ${String(n)}`)
      })
      await Promise.all(queries)
      client.destroy()
      expect(events).toContain('accepted')
      expect(events.indexOf('accepted')).toBeLessThan(events.indexOf('query 29'))
      expect(events.indexOf('accepted')).toBeLessThan(10)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('a SQLite transaction', () => {
  it('holds the write lock from its first statement: another connection cannot commit between its read and its write', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-immediate-'))
    const file = path.join(directory, 'db.sqlite')
    const handle = openDatabase({ kind: 'sqlite', file })
    const other = new (loadSqliteDriver().Database)(file)
    try {
      other.pragma('busy_timeout = 0')
      await sql`create table counter (n integer not null)`.execute(handle.db)
      await sql`insert into counter values (0)`.execute(handle.db)
      const attempts: string[] = []
      await handle.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx)
        // Another writer (the command line, say) tries to commit in between, and is refused at once: the lock is held.
        try {
          other.prepare('update counter set n = n + 100').run()
          attempts.push('committed')
        } catch (error) {
          attempts.push((error as { code?: string }).code ?? 'failed')
        }
        await sql`update counter set n = ${(rows[0]?.n ?? 0) + 1}`.execute(trx)
      })
      expect(attempts).toEqual(['SQLITE_BUSY'])
      // Begun deferred, the other connection's commit would have gone through, and this transaction's write would have
      // failed with SQLITE_BUSY_SNAPSHOT.
      expect(other.prepare('select n from counter').get()).toEqual({ n: 1 })
    } finally {
      other.close()
      await handle.close()
      fs.rmSync(directory, { recursive: true, force: true })
    }
  })
})
