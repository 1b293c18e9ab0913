/**
 * better-sqlite3, loaded when a SQLite database is first opened (as node-postgres is, src/db/postgres-driver.ts),
 * in a module of its own so that a thread that needs only the driver (the checkpoints of
 * src/db/checkpoint-connection.ts) loads nothing else.
 */
import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

export interface SqliteDriver {
  readonly Database: typeof BetterSqlite3
  /** The package loaded and its version, e.g. `better-sqlite3-napi 13.2.0`. */
  readonly description: string
}

let sqliteDriver: SqliteDriver | undefined

/**
 * better-sqlite3, in the version that runs safely on this Node.js. Version 12 (compiled at install)
 * runs on Node.js 20, but compiled against Node.js 24.19 or later it aborts the process when V8
 * collects a statement outside a JavaScript context (`RemoveEnvironmentCleanupHook … (env) !=
 * nullptr`, nodejs/node#65446). Version 13 uses Node-API with prebuilt binaries and has no such
 * hook, but needs Node.js 22. package.json installs 13 as the optional dependency
 * `better-sqlite3-napi`, which npm skips where its engines do not match (Node.js 20).
 */
export function loadSqliteDriver(): SqliteDriver {
  if (sqliteDriver !== undefined) return sqliteDriver
  const require = createRequire(import.meta.url)
  const name = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3'
  let Database: typeof BetterSqlite3
  try {
    Database = require(name) as typeof BetterSqlite3
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND' || name !== 'better-sqlite3-napi') throw error
    throw new Error(`Node.js ${process.versions.node} needs better-sqlite3 13, installed as the optional dependency `
      + 'better-sqlite3-napi, which is missing: install again without --omit=optional', { cause: error })
  }
  const { version } = require(`${name}/package.json`) as { version: string }
  sqliteDriver = { Database, description: `${name} ${version}` }
  return sqliteDriver
}
