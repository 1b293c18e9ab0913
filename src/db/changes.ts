/**
 * What the response caches ask before serving a stored answer: has anything in this scope changed
 * since? The triggers of migration 0004 record every change against a scope (`groups:<club id>`,
 * `courts:<club id>`, `clubs`, …), whichever process or path made it.
 *
 * A version is a number that changes whenever the scope's data may have changed. An answer read
 * from the database (`read`) is filed under the version of what it read, so a change that commits
 * while the query runs is never filed under the old version: on SQLite the counter of the read's
 * own snapshot, on PostgreSQL the version if it was the same before and after the read.
 *
 * - SQLite: the committed counter in data_versions, read with one prepared statement. A read and
 *   its counter run in one read transaction while this process's only connection is held, so no
 *   transaction of this process is half-way through, and the counter is that of the snapshot the
 *   read saw; another process's uncommitted writes are invisible (WAL).
 *   A scope's counter, once read, holds for the rest of the event loop's turn: the requests
 *   answered in one turn arrived together, so a change another process commits while they are
 *   being answered is concurrent with them. Every statement of this process that writes starts
 *   afresh (`wrote`), so its own changes show at once. Reading the counter takes a lock of the
 *   database's shared memory (system calls): under load a turn answers dozens of requests.
 * - PostgreSQL: a connection LISTENing on club_platform_changes; each notification (sent at commit)
 *   moves its scope to a new version. While that connection is down, `version` is undefined and
 *   nothing is served from or filed into a cache; after a reconnect every earlier version is void.
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type pg from 'pg'
import { CHANGE_CHANNEL } from './change-scopes.js'
import { loadPostgresDriver } from './postgres-driver.js'
import type { Database } from './schema.js'

export interface ChangeFeed {
  /**
   * True when `version` reflects every change committed before the call (SQLite reads the committed
   * counter); false when changes arrive as notifications shortly after their commit (PostgreSQL).
   */
  readonly synchronous: boolean
  /** Starts observing (PostgreSQL: connects and LISTENs; a failure is retried in the background). */
  start(): Promise<void>
  /**
   * Records a change this process has just committed, so that its own next request sees it even
   * before the database's notification arrives (SQLite: already visible).
   */
  changedHere(scope: string): void
  /** The scope's version now, or undefined when changes cannot be observed (caches must not be used). */
  version(scope: string): number | undefined
  /**
   * Runs a read and says under which version its result may be cached: undefined when the scope
   * changed during the read or changes cannot be observed. The query learns the version it runs
   * under, to combine its result with other values cached under that version.
   */
  read<T>(db: Kysely<Database>, scope: string, query: ReadQuery<T>): Promise<Versioned<T>>
  /**
   * Resolves once every change committed before the call has been seen. SQLite sees them at once;
   * PostgreSQL delivers pending notifications before the answer to a query on the listening
   * connection, so this costs one round trip there.
   */
  settle(): Promise<void>
  close(): Promise<void>
}

export type ReadQuery<T> = (db: Kysely<Database>, version: number | undefined) => Promise<T>

export interface Versioned<T> {
  readonly value: T
  readonly version: number | undefined
}

export class SqliteChangeFeed implements ChangeFeed {
  readonly synchronous = true
  private statement: BetterSqlite3.Statement<[string], number | undefined> | undefined
  private available = true
  /** Begins and ends the read transaction of `read` (prepared on first use). */
  private snapshot: { readonly begin: BetterSqlite3.Statement, readonly end: BetterSqlite3.Statement } | undefined
  /** The counters read in this turn of the event loop (src/db/dialect.ts calls `wrote` before every write). */
  private turn: Map<string, number> | undefined
  private readonly endTurn = () => {
    this.turn = undefined
  }

  constructor(private readonly database: BetterSqlite3.Database) {}

  /** A statement of this process is about to write: counters are read again. */
  wrote(): void {
    this.turn?.clear()
  }

  start(): Promise<void> {
    return Promise.resolve()
  }

  changedHere(): void {
    // The committed counter already says so.
  }

  version(scope: string): number | undefined {
    return this.counter(scope, false)
  }

  /**
   * The counter and the read run in one read transaction, on the connection held for them: one
   * snapshot, so the counter is the version of exactly what the read saw (a change another process
   * commits meanwhile is not in it, and moves the counter past it), and the database's shared
   * memory is locked once for all their statements instead of once each. `db` is the root, never a
   * transaction: the transaction begun here is the read's own.
   */
  async read<T>(db: Kysely<Database>, scope: string, query: ReadQuery<T>): Promise<Versioned<T>> {
    return db.connection().execute(async (connection) => {
      this.snapshot ??= { begin: this.database.prepare('begin'), end: this.database.prepare('commit') }
      const { begin, end } = this.snapshot
      begin.run()
      try {
        const version = this.counter(scope, true)
        return { value: await query(connection, version), version }
      } finally {
        end.run()
      }
    })
  }

  /** The scope's counter: as read earlier in this turn, or (`afresh`, or not read yet) as committed now, for the rest of it. */
  private counter(scope: string, afresh: boolean): number | undefined {
    if (!this.available) return undefined
    try {
      // Prepared on first use: the table exists only once the migrations have run.
      this.statement ??= this.database.prepare<[string], number | undefined>('select version from data_versions where scope = ?')
        .pluck()
      if (this.turn === undefined) {
        this.turn = new Map()
        setImmediate(this.endTurn)
      }
      const known = afresh ? undefined : this.turn.get(scope)
      if (known !== undefined) return known
      const version = this.statement.get(scope) ?? 0
      this.turn.set(scope, version)
      return version
    } catch {
      // The database is unreadable (closed, or the migration is missing): serve nothing cached.
      return undefined
    }
  }

  /** The counters are read again: a change another connection committed in this turn is seen. */
  settle(): Promise<void> {
    this.turn?.clear()
    return Promise.resolve()
  }

  close(): Promise<void> {
    this.available = false
    return Promise.resolve()
  }
}

export interface PostgresChangeFeedOptions {
  readonly connectionString: string
  /** Delay before reconnecting after the listening connection is lost. */
  readonly reconnectMs?: number
  readonly onError?: (error: unknown) => void
}

/** How the listening connection shows in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION = 'club-platform change feed'

export class PostgresChangeFeed implements ChangeFeed {
  readonly synchronous = false
  /** Every version handed out comes from this counter, so none is ever reused. */
  private counter = 0
  /** The version of every scope not notified since the connection was (re)established. */
  private baseline = 0
  private readonly versions = new Map<string, number>()
  private client: pg.Client | undefined
  private listening = false
  private closed = false
  private connecting: Promise<void> | undefined
  private retry: NodeJS.Timeout | undefined

  constructor(private readonly options: PostgresChangeFeedOptions) {}

  /** Starts listening (the first call of `version` does too); resolves when listening or when the attempt failed. */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined
    })
    return this.connecting
  }

  changedHere(scope: string): void {
    if (this.listening) this.changed(scope)
  }

  version(scope: string): number | undefined {
    if (!this.listening) {
      void this.start()
      return undefined
    }
    return this.versions.get(scope) ?? this.baseline
  }

  /** The read, filed under the scope's version only if it was the same before and after it. */
  async read<T>(db: Kysely<Database>, scope: string, query: ReadQuery<T>): Promise<Versioned<T>> {
    const before = this.version(scope)
    const value = await query(db, before)
    return { value, version: before === this.version(scope) ? before : undefined }
  }

  async settle(): Promise<void> {
    await this.start()
    await this.client?.query('select 1').catch(() => undefined)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    this.listening = false
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => undefined)
  }

  private async connect(): Promise<void> {
    if (this.client !== undefined || this.retry !== undefined) return
    const { Client } = loadPostgresDriver()
    const client = new Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 2_000,
      application_name: CHANGE_FEED_APPLICATION })
    this.client = client
    client.on('notification', (message) => {
      this.changed(message.payload ?? '*')
    })
    client.on('error', (error) => {
      this.lost(client, error)
    })
    client.on('end', () => {
      this.lost(client, undefined)
    })
    try {
      await client.connect()
      await client.query(`listen ${CHANGE_CHANNEL}`)
    } catch (error) {
      this.lost(client, error)
      return
    }
    if (this.client !== client) {
      // Closed (or replaced) while connecting.
      void client.end().catch(() => undefined)
      return
    }
    // Anything may have changed while nobody listened.
    this.versions.clear()
    this.baseline = ++this.counter
    this.listening = true
  }

  private changed(scope: string): void {
    if (scope === '*') {
      this.versions.clear()
      this.baseline = ++this.counter
      return
    }
    this.versions.set(scope, ++this.counter)
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return
    this.client = undefined
    this.listening = false
    if (error !== undefined) this.options.onError?.(error)
    void client.end().catch(() => undefined)
    if (this.closed) return
    this.retry = setTimeout(() => {
      this.retry = undefined
      void this.start()
    }, this.options.reconnectMs ?? 1_000)
    this.retry.unref()
  }
}
