/**
 * Everything that differs between SQLite and PostgreSQL lives here: how a connection is opened,
 * column types used by migrations, how booleans and limits are bound, and which driver errors mean
 * "the database is unavailable" rather than "the query is wrong".
 */
import fs from 'node:fs'
import path from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import {
  CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, SqliteDriver as KyselySqliteDriver, SqliteQueryCompiler,
  sql,
} from 'kysely'
import type {
  LogEvent, SqliteDatabase, SqliteDialectConfig, Transaction, DatabaseConnection, Driver, LimitNode, QueryCompiler,
} from 'kysely'
import type pg from 'pg'
import type { DatabaseSettings } from '../config.js'
import { loadPostgresDriver } from './postgres-driver.js'
import { loadSqliteDriver } from './sqlite-driver.js'
import { declareJsonFunctions } from './json-pages.js'
import { BACKSTOP_PAGES, WalCheckpoints } from '../speed/wal-checkpoints.js'
import type { WalCheckpointsOptions } from '../speed/wal-checkpoints.js'
import type { Database } from './schema.js'
import { PostgresChangeFeed, SqliteChangeFeed } from './changes.js'
import type { ChangeFeed } from './changes.js'

export type DialectName = 'sqlite' | 'postgres'

/**
 * The page cache of every SQLite connection opened here, in KiB: SQLite's own default. The driver is built with
 * 16 MB a connection instead, which the server's connection and each list reader thread's fill
 * under a stream of misses, and which malloc keeps after a reader thread has ended: some 30 MiB of
 * the process's memory, for no throughput measured on the misses or the bookings (the database
 * file's pages are in the system's cache anyway).
 */
export const PAGE_CACHE_KIB = 2_000

export interface OpenDatabaseOptions {
  /** Called after every query; tests use it to prove that a request touched no table. */
  readonly onQuery?: (event: LogEvent) => void
  readonly poolSize?: number
  /** SQLite: open the file read-only, as it is (a reader thread's connection; the server's own connection set it up). */
  readonly readonly?: boolean
  /**
   * SQLite in a file: checkpoint the write-ahead log on a thread, not on the connection's commits
   * (the server does; src/speed/wal-checkpoints.ts).
   */
  readonly checkpoints?: WalCheckpointsOptions
}

export interface PoolStats {
  readonly total: number
  readonly idle: number
  readonly waiting: number
}

export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly dialect: DialectName
  /** The driver in use, for the start-up log line: `better-sqlite3-napi 13.2.0`, `pg`. */
  readonly driver: string
  /** Which data changed since a cached answer was read (src/db/changes.ts). */
  readonly changes: ChangeFeed
  /** Connection pool use (PostgreSQL); SQLite has one connection and no pool. */
  poolStats(): PoolStats | undefined
  /** SQLite: a consistent copy of the live database (online backup API). PostgreSQL: use pg_dump. */
  backup?(file: string): Promise<void>
  /** SQLite, when asked for: the log's checkpoints on a thread. */
  readonly checkpoints?: WalCheckpoints
  close(): Promise<void>
}

const PG_OID_DATE = 1082
const PG_OID_INT8 = 20

export function openDatabase(settings: DatabaseSettings, options: OpenDatabaseOptions = {}): DatabaseHandle {
  const log = options.onQuery
  if (settings.kind === 'sqlite') {
    if (settings.file !== ':memory:') fs.mkdirSync(path.dirname(settings.file), { recursive: true })
    const driver = loadSqliteDriver()
    const database = new driver.Database(settings.file, { readonly: options.readonly === true })
    if (options.readonly !== true) {
      database.pragma('journal_mode = WAL')
      database.pragma('synchronous = NORMAL')
      database.pragma('foreign_keys = ON')
    }
    // Writers from other processes (the command line) wait instead of failing at once.
    database.pragma('busy_timeout = 5000')
    database.pragma(`cache_size = -${String(PAGE_CACHE_KIB)}`)
    declareJsonFunctions(database)
    const checkpoints = options.checkpoints === undefined || options.readonly === true || settings.file === ':memory:'
      ? undefined
      : new WalCheckpoints(settings.file, options.checkpoints)
    if (checkpoints !== undefined) database.pragma(`wal_autocheckpoint = ${String(BACKSTOP_PAGES)}`)
    const changes = new SqliteChangeFeed(database)
    const db = new Kysely<Database>({
      dialect: new TurnTakingSqliteDialect({ database: withStatementCache(database, changes, checkpoints) }),
      ...(log ? { log } : {}),
    })
    return {
      db,
      dialect: 'sqlite',
      driver: driver.description,
      changes,
      poolStats: () => undefined,
      backup: async (file) => {
        await database.backup(file)
      },
      ...(checkpoints === undefined ? {} : { checkpoints }),
      close: async () => {
        await checkpoints?.close()
        await changes.close()
        await db.destroy()
      },
    }
  }
  const { Pool, types } = loadPostgresDriver()
  const pool = new Pool({
    connectionString: settings.url,
    max: options.poolSize ?? 10,
    // Fail fast instead of queueing requests behind a database that does not answer.
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5_000,
    // The server-side timeout cannot help when the server or the network hangs; this one can.
    query_timeout: 6_000,
    types: { getTypeParser: typeParserOver(types) as typeof pg.types.getTypeParser },
  })
  // A client losing its connection must not crash the process: idle ones report on the pool, busy
  // ones on themselves (their query fails and becomes a 503); the pool replaces them either way.
  pool.on('error', () => undefined)
  pool.on('connect', (client) => {
    client.on('error', () => undefined)
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) })
  // Connects on first use: the command line never asks.
  const changes = new PostgresChangeFeed({ connectionString: settings.url })
  return {
    db,
    dialect: 'postgres',
    driver: 'pg',
    changes,
    // pg-pool queues every request while a client is idle too, and hands it the idle client on the
    // next tick: only the requests beyond the idle clients are waiting for a connection.
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: Math.max(0, pool.waitingCount - pool.idleCount) }),
    close: async () => {
      await changes.close()
      await db.destroy()
    },
  }
}

/** Distinct SQL texts kept prepared; multi-row inserts of every length would otherwise fill it. */
const MAX_PREPARED_STATEMENTS = 256

/**
 * Kysely prepares every query anew; preparing costs more than running the small indexed queries
 * of the read paths. This keeps the prepared statements of recent SQL texts (one connection, used
 * by one query at a time, so a statement is never run twice at once).
 *
 * better-sqlite3 cannot bind booleans: each statement binds `true` and `false` as 1 and 0, so that
 * the rest of the code writes `where('active', '=', true)` on both databases. (A Kysely plugin did
 * this by rebuilding every query's tree: 4 % of a booking's time, for a pass over its parameters.)
 */
function withStatementCache(database: BetterSqlite3.Database, changes: SqliteChangeFeed,
  checkpoints: WalCheckpoints | undefined): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    // Kysely runs the statement as soon as it has it (synchronously): one that writes (`insert … returning` too) or begins,
    // commits or rolls back is about to change what the change feed has read in this turn.
    prepare: (text: string) => {
      let statement = statements.get(text)
      if (statement === undefined) {
        // What changes rows tells the checkpoints, once it has: transaction control and statements that changed nothing
        // (the workers' polls) do not, so that an idle server's checkpoint thread ends.
        const changed = checkpoints === undefined || TRANSACTION_CONTROL.test(text)
          ? undefined
          : () => {
              checkpoints.wrote()
            }
        statement = bindingBooleans(database.prepare(text), changed)
        if (statements.size >= MAX_PREPARED_STATEMENTS) {
          const oldest = statements.keys().next()
          if (oldest.done !== true) statements.delete(oldest.value)
        }
        statements.set(text, statement)
      }
      if (statement.writes) changes.wrote()
      return statement
    },
  }
}

interface SqliteStatement {
  readonly reader: boolean
  /** Writes, or might (`insert … returning` reads and writes; transaction control counts). */
  readonly writes: boolean
  all(parameters: readonly unknown[]): unknown[]
  run(parameters: readonly unknown[]): { changes: number | bigint, lastInsertRowid: number | bigint }
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i

/** `changed`: called after a writing statement changed a row (run, it reported changes; or it returned rows). */
function bindingBooleans(statement: BetterSqlite3.Statement, changed?: () => void): SqliteStatement {
  const writes = !statement.reader || !statement.readonly
  const onChange = writes ? changed : undefined
  return {
    reader: statement.reader,
    writes,
    all: (parameters) => {
      const rows = statement.all(integers(parameters))
      if (onChange !== undefined && rows.length > 0) onChange()
      return rows
    },
    run: (parameters) => {
      const result = statement.run(integers(parameters))
      if (onChange !== undefined && result.changes > 0) onChange()
      return result
    },
    iterate: (parameters) => {
      onChange?.()
      return statement.iterate(integers(parameters))
    },
  }
}

function integers(parameters: readonly unknown[]): unknown[] {
  let bound: unknown[] | undefined
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i]
    if (typeof value === 'boolean') {
      bound ??= [...parameters]
      bound[i] = value ? 1 : 0
    }
  }
  return bound ?? (parameters as unknown[])
}

/**
 * The one SQLite connection, handed to waiters in the order they asked, one waiter per event-loop
 * turn. libuv accepts one new connection per turn, and a turn reads every client that has sent a
 * request: if one turn ran every waiting query (Kysely's own lock wakes all its waiters at once),
 * a turn of fifty bookings would last 30 ms, and a client connecting to a busy server would wait
 * fifty such turns, over a second, before its first request was even read. With one query or
 * transaction per turn, a turn lasts about a millisecond under load, and connections are accepted
 * and cached answers are served between queries. A query finding the connection free in a turn
 * in which no other has had it takes it at once.
 */
class ConnectionTurns {
  private taken = false
  private readonly waiting: Array<() => void> = []

  async take(): Promise<void> {
    if (!this.taken) {
      this.taken = true
      return
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  /**
   * The connection is free again, for the next turn: after the event loop has polled again. Freed
   * at once, it would go to the request read next in this turn, and the next, and every request
   * that arrived together would again be answered in one turn.
   */
  give(): void {
    setImmediate(this.nextTurn)
  }

  private readonly nextTurn = (): void => {
    const next = this.waiting.shift()
    if (next === undefined) this.taken = false
    else next()
  }
}

class TurnTakingSqliteDialect extends SqliteDialect {
  private readonly config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.config = config
  }

  override createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.config)
  }

  override createQueryCompiler(): QueryCompiler {
    return new RunTimeLimitCompiler()
  }
}

/**
 * LIMIT as `cast(? as integer)`, its value taken as the statement runs. SQLite compiles a bare
 * `limit ?` with the bound value as a constant of the statement's program, and so makes the
 * statement expire whenever that parameter is bound again: better-sqlite3 binds every parameter on
 * every run, and every run of a statement with a LIMIT was parsed, planned and compiled anew
 * (10–18 µs of a listing's page of 30–130, a seventh of a list reader thread's time).
 * The planner then does not know the limit, which the listings'
 * plans do not need (test/db/query-plans.test.ts). PostgreSQL plans `limit $1` once per execution
 * anyway and keeps Kysely's form.
 */
class RunTimeLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit cast(')
    this.visitNode(node.limit)
    this.append(' as integer)')
  }
}

class TurnTakingSqliteDriver extends KyselySqliteDriver {
  private readonly turns = new ConnectionTurns()

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take()
    return super.acquireConnection()
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection()
    this.turns.give()
  }

  /**
   * Every transaction takes the database's write lock as it begins. Begun deferred, a transaction
   * that read and then wrote failed (SQLITE_BUSY_SNAPSHOT) when another process (the command
   * line) had committed in between; begun immediate, a writer in another process waits for it, and
   * it for them (busy_timeout). This process has one connection and runs one transaction at a time
   * anyway.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

type TextParser = (value: string) => unknown

/**
 * node-postgres's parsers, but DATE stays 'YYYY-MM-DD' (the default makes a local-midnight Date) and
 * bigint counts become numbers.
 */
function typeParserOver(types: typeof pg.types): (oid: number) => TextParser {
  const defaultTypeParser = types.getTypeParser.bind(types) as (oid: number, format: 'text') => TextParser
  return (oid) => {
    if (oid === PG_OID_DATE) return (value) => value
    if (oid === PG_OID_INT8) return Number
    return defaultTypeParser(oid, 'text')
  }
}

export function dialectOf<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Column types for migrations, so that one set of migrations serves both databases. */
export function columnTypes(dialect: DialectName) {
  const pg = dialect === 'postgres'
  return {
    uuid: pg ? sql`uuid` : sql`text`,
    timestamp: pg ? sql`timestamptz` : sql`text`,
    date: pg ? sql`date` : sql`text`,
    bool: pg ? sql`boolean` : sql`integer`,
    /** Text ordered by code point on both databases, so that listings page identically. */
    sortableText: pg ? sql`text collate "C"` : sql`text`,
    double: pg ? sql`double precision` : sql`real`,
  }
}

/**
 * A boolean as a SQL literal in the form each dialect stores it. Partial indexes are matched only
 * against literal terms of a query (SQLite requires the very same term), so an index predicate and
 * the queries that should use it both write booleans through here.
 */
export function sqlBoolean(dialect: DialectName, value: boolean) {
  return dialect === 'postgres' ? sql.lit(value) : sql.lit(value ? 1 : 0)
}

/** `DESC NULLS LAST`: SQLite sorts NULL first ascending, so plain DESC already puts it last. */
export function descNullsLast(dialect: DialectName) {
  return dialect === 'postgres' ? sql`desc nulls last` : sql`desc`
}

/**
 * Serialises the bookings of one court, so that the overlap check and the insert see the same
 * state. PostgreSQL locks the court's row (other courts book in parallel; the exclusion constraint
 * bookings_no_overlap is the guarantee beneath). On SQLite the transaction holds the database's
 * write lock from its beginning (TurnTakingSqliteDriver): there is nothing more to take.
 */
export async function lockCourtForBooking(trx: Transaction<Database>, courtId: string): Promise<void> {
  if (dialectOf<Database>(trx) === 'postgres') {
    await trx.selectFrom('courts').select('id').where('id', '=', courtId).forUpdate().execute()
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** PostgreSQL's exclusion constraint refused an overlapping booking. */
export function isExclusionViolation(error: unknown): boolean {
  return errorCode(error) === '23P01'
}

/** A transaction aborted only because of a concurrent one (deadlock, serialization failure): running it again is safe. */
export function isTransientConflict(error: unknown): boolean {
  const code = errorCode(error)
  return code === '40P01' || code === '40001'
}

export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error)
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}

const PG_UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
  '57014', // query_canceled (statement timeout)
])
const NODE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'])

/** PostgreSQL's error classes that mean the server refused the session: connection, login, database, resources, state. */
const PG_REFUSAL_CLASSES = new Set(['08', '28', '3D', '53', '57'])

/** What each error code met while opening a database means, for the codes whose message alone would not say. */
const OPENING_FAILURES: Readonly<Record<string, string>> = {
  ETIMEDOUT: 'the database server cannot be reached (ETIMEDOUT)',
  EHOSTUNREACH: 'the database server cannot be reached (EHOSTUNREACH)',
  ENETUNREACH: 'the database server cannot be reached (ENETUNREACH)',
  ECONNRESET: 'the database server closed the connection (does it expect TLS, or limit who may connect?)',
  SQLITE_CANTOPEN: 'the SQLite file cannot be opened or created (does the directory exist, and may this user write to it?)',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_CORRUPT: 'the SQLite database is corrupt (restore a backup)',
  SQLITE_READONLY: 'the SQLite database is read-only for this user',
  SQLITE_PERM: 'access to the SQLite file is denied',
  SQLITE_AUTH: 'access to the SQLite file is denied',
  SQLITE_BUSY: 'the SQLite database is locked by another process',
  SQLITE_FULL: 'the disk holding the SQLite database is full',
}
const DIRECTORY_CODES = new Set(['EACCES', 'EPERM', 'ENOTDIR', 'EROFS', 'EEXIST'])

/**
 * Why a database could not be opened or reached, in words for an operator — or undefined when the
 * error is not about reaching the database (a bug, a failed migration statement).
 */
export function describeConnectionError(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined
  const code = errorCode(error)
  if (code === undefined) {
    return /timeout exceeded when trying to connect|connection timeout/i.test(error.message)
      ? 'the database server did not answer in time'
      : undefined
  }
  const { address, port, hostname } = error as { address?: unknown, port?: unknown, hostname?: unknown }
  if (code === 'ECONNREFUSED') {
    const where = typeof address === 'string' && typeof port === 'number' ? ` at ${address}:${String(port)}` : ''
    return `nothing accepts connections${where} (is the database server running, on that host and port?)`
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `the host name ${typeof hostname === 'string' ? `${hostname} ` : ''}does not resolve`
  }
  if (DIRECTORY_CODES.has(code)) return `its directory cannot be created: ${error.message}`
  const known = OPENING_FAILURES[code]
  if (known !== undefined) return known
  if (/^[0-9A-Z]{5}$/.test(code) && PG_REFUSAL_CLASSES.has(code.slice(0, 2))) return `the database server refused: ${error.message}`
  return undefined
}

/** True when the error means "try again later" (503), not a bug in the query (500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE_CODES.has(code) || NODE_NETWORK_CODES.has(code)) return true
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true
  }
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Query read timeout/i
    .test(error.message)
}
