/**
 * node-postgres, loaded when a PostgreSQL database is first opened (as better-sqlite3 is loaded
 * when a SQLite one is, src/db/dialect.ts): a server on SQLite, and each of its reader threads,
 * does without its 3 MiB of heap.
 */
import { createRequire } from 'node:module'
import type pg from 'pg'

let driver: typeof pg | undefined

export function loadPostgresDriver(): typeof pg {
  driver ??= createRequire(import.meta.url)('pg') as typeof pg
  return driver
}
