/**
 * Everything that differs between SQLite and PostgreSQL lives here: how a connection is opened,
 * column types used by migrations, how booleans and limits are bound, and which driver errors mean
 * "the database is unavailable" rather than "the query is wrong".
 */
import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely'
import type { LogEvent, RawBuilder, SelectQueryBuilder, Transaction } from 'kysely'
import type pg from 'pg'
import type { DatabaseSettings } from './settings.js'
import { preparedName } from './prepared-names.js'
import { DatabaseBusy } from './database-errors.js'
import { loadPostgresDriver } from './postgres-driver.js'
import { loadSqliteDriver } from './sqlite-driver.js'
import { declareJsonFunctions } from './json-pages.js'
import type { Database } from './schema.js'
import { PostgresChangeFeed, SqliteChangeFeed } from './changes.js'
import { ConnectionTurns, TurnTakingSqliteDialect, withStatementCache } from './sqlite-turns.js'
import type { ChangeFeed } from './changes.js'
import { CHANGE_CHANNEL } from './change-scopes.js'

export type DialectName = 'sqlite' | 'postgres'

/**
 * The page cache of every SQLite connection opened here, in KiB: SQLite's own default. The driver is built with
 * 16 MB a connection instead, which the server's connection and each list reader thread's fill
 * under a stream of misses, and which malloc keeps after a reader thread has ended: some 30 MiB of
 * the process's memory, for no throughput measured on the misses or the bookings (the database
 * file's pages are in the system's cache anyway).
 */
export const PAGE_CACHE_KIB = 2_000

/** What checkpoints a SQLite file's write-ahead log beside its connection (src/speed/wal-checkpoints.ts). */
export interface Checkpointer {
  /** The connection changed rows. */
  wrote(): void
  close(): Promise<void>
}

/** Opens the checkpointer of a file, and says when the connection must checkpoint by itself. */
export interface CheckpointerFactory<C extends Checkpointer> {
  /** The log's size in pages at which the connection checkpoints on its commit, as a backstop. */
  readonly backstopPages: number
  /** `turns`: the connection's, which the checkpoints may take to hold it still. */
  open(file: string, turns: ConnectionTurns): C
}

export interface OpenDatabaseOptions<C extends Checkpointer = Checkpointer> {
  /** Called after every query; tests use it to prove that a request touched no table. */
  readonly onQuery?: (event: LogEvent) => void
  /** PostgreSQL: connections, how long a query waits for one, and how many may wait (Config.databasePool). */
  readonly pool?: { readonly size: number, readonly waitMs: number, readonly queue: number }
  /** SQLite: open the file read-only, as it is (a reader thread's connection; the server's own connection set it up). */
  readonly readonly?: boolean
  /**
   * SQLite in a file: checkpoint the write-ahead log on a thread, not on the connection's commits
   * (the server does; src/speed/wal-checkpoints.ts).
   */
  readonly checkpoints?: CheckpointerFactory<C>
}

export interface PoolStats {
  readonly total: number
  readonly idle: number
  readonly waiting: number
}

export interface DatabaseHandle<C extends Checkpointer = Checkpointer> {
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
  readonly checkpoints?: C
  close(): Promise<void>
}

const PG_OID_DATE = 1082
const PG_OID_INT8 = 20

export function openDatabase<C extends Checkpointer = Checkpointer>(settings: DatabaseSettings,
  options: OpenDatabaseOptions<C> = {}): DatabaseHandle<C> {
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
    const factory = options.readonly === true || settings.file === ':memory:' ? undefined : options.checkpoints
    const turns = new ConnectionTurns()
    const checkpoints = factory?.open(settings.file, turns)
    if (factory !== undefined) database.pragma(`wal_autocheckpoint = ${String(factory.backstopPages)}`)
    const changes = new SqliteChangeFeed(database)
    const db = new Kysely<Database>({
      dialect: new TurnTakingSqliteDialect({ database: withStatementCache(database, changes, checkpoints) }, turns),
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
  const bounds = options.pool ?? { size: 10, waitMs: 2_000, queue: 1_000 }
  const pool = new Pool({
    connectionString: settings.url,
    max: bounds.size,
    // Fail fast instead of queueing requests behind a database that does not answer, or behind too many others.
    connectionTimeoutMillis: bounds.waitMs,
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
    preparing(client)
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: boundedQueue(pool, bounds) }), ...(log ? { log } : {}) })
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

/**
 * Runs the statements compiled once (compiled.ts) as named prepared statements on this connection:
 * Kysely sends every statement as text with its values, which PostgreSQL would parse and plan anew.
 */
function preparing(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof text === 'string' ? preparedName(text) : undefined
    if (name === undefined || !Array.isArray(values)) return query(text, values, callback)
    return query({ name, text, values }, callback)
  }) as typeof client.query
}

/**
 * The pool as Kysely takes connections from it: a request that would wait behind `queue` others, or
 * waited `waitMs` while every connection was in use, is refused as DatabaseBusy (503 with
 * Retry-After) rather than waiting without bound. A wait that timed out while connections were
 * free was a connection the database did not answer: that stays the database's unavailability.
 */
function boundedQueue(pool: pg.Pool, bounds: { readonly size: number, readonly queue: number }) {
  return {
    async connect() {
      // pg-pool counts a request that an idle client is about to take as waiting too (see poolStats).
      if (pool.waitingCount - pool.idleCount >= bounds.queue && pool.totalCount >= bounds.size) {
        throw new DatabaseBusy(`all ${String(bounds.size)} database connections are in use and ${String(bounds.queue)} requests wait`)
      }
      try {
        return await pool.connect()
      } catch (error) {
        const timedOut = error instanceof Error && /timeout exceeded when trying to connect/.test(error.message)
        if (timedOut && pool.totalCount >= bounds.size) {
          throw new DatabaseBusy(`no database connection came free in time (all ${String(bounds.size)} in use)`, { cause: error })
        }
        throw error
      }
    },
    end: () => pool.end(),
  }
}

/**
 * node-postgres's parsers, but DATE stays 'YYYY-MM-DD' (the default makes a local-midnight Date) and
 * bigint counts become numbers.
 */
type TextParser = (value: string) => unknown

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
 * Whether a change's inserts are sent as one statement (src/db/insert-batch.ts): on PostgreSQL each
 * statement is a round trip over the network; SQLite runs in the process, a statement costs no trip.
 */
export function insertsTogether(db: Kysely<Database>): boolean {
  return dialectOf(db) === 'postgres'
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

/**
 * A court's row read for a booking: on PostgreSQL locked until the transaction ends, so that the
 * court's bookings and holds are checked and written one transaction at a time (as
 * lockCourtForBooking); SQLite has one writer.
 */
export function lockedForBooking<DB, TB extends keyof DB, O>(db: Kysely<Database>,
  query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'postgres' ? query.forUpdate() : query
}

/** The aggregate of text values joined by line breaks (null for no rows): `string_agg` or `group_concat`. */
export function joinedLines(db: Kysely<Database>, value: RawBuilder<string>): RawBuilder<string | null> {
  return dialectOf(db) === 'postgres' ? sql<string | null>`string_agg(${value}, chr(10))` : sql<string | null>`group_concat(${value}, char(10))`
}

/**
 * Serialises the changes of one row's dependants (one person's sign-in links, one club's team)
 * until the transaction ends: PostgreSQL locks the row; SQLite has one writer.
 */
export async function lockRow(trx: Kysely<Database>, table: 'admins' | 'clubs', id: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute()
}

/**
 * A claim's select of due rows: PostgreSQL locks the rows it returns and skips those another
 * instance's claim holds; SQLite has one writer, whose transaction holds them all.
 */
export function claiming<DB, TB extends keyof DB, O>(db: Kysely<Database>,
  query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked() : query
}

export { DatabaseBusy, describeConnectionError, isDatabaseBusy, isDatabaseUnavailable, isExclusionViolation, isTransientConflict,
  isUniqueViolation } from './database-errors.js'

/**
 * Records a change of a scope in the writing transaction, as the migrations' triggers record a change
 * of a listed table: for a change the triggers do not see (a club's setting that a listing shows).
 * SQLite: the scope's counter in data_versions, committed with the change; PostgreSQL: a notification
 * on the change channel, delivered at commit.
 */
export async function recordChange(trx: Kysely<Database>, scope: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${scope})`.execute(trx)
    return
  }
  await sql`insert into data_versions (scope, version) values (${scope}, 1)
    on conflict (scope) do update set version = version + 1`.execute(trx)
}
