/**
 * The SQLite connection as the service drives it: one connection that requests take in turns (a
 * transaction holds it from BEGIN to its end), statements kept prepared by SQL text, booleans
 * bound as 1 and 0, and a LIMIT read as the statement runs so that the statement stays compiled.
 */
import type BetterSqlite3 from 'better-sqlite3'
import { CompiledQuery, SqliteDialect, SqliteDriver as KyselySqliteDriver, SqliteQueryCompiler } from 'kysely'
import type { DatabaseConnection, Driver, LimitNode, QueryCompiler, SqliteDatabase, SqliteDialectConfig } from 'kysely'
import type { SqliteChangeFeed } from './changes.js'
import type { Checkpointer } from './dialect.js'
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
export function withStatementCache(database: BetterSqlite3.Database, changes: SqliteChangeFeed,
  checkpoints: Checkpointer | undefined): SqliteDatabase {
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
export class ConnectionTurns {
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
   * The next turn, ahead of every waiter: for the checkpoints (src/speed/wal-checkpoints.ts), which
   * hold the connection still while the log's last pages are copied, so that the next write starts
   * the log again. Behind the waiters it would find the pages of all their writes to copy.
   */
  async takeNext(): Promise<void> {
    if (!this.taken) {
      this.taken = true
      return
    }
    await new Promise<void>((resolve) => this.waiting.unshift(resolve))
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

export class TurnTakingSqliteDialect extends SqliteDialect {
  private readonly config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig, private readonly turns: ConnectionTurns) {
    super(config)
    this.config = config
  }

  override createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.config, this.turns)
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
  constructor(config: SqliteDialectConfig, private readonly turns: ConnectionTurns) {
    super(config)
  }

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
