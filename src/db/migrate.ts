import { inspect } from 'node:util'
import { Migrator, sql } from 'kysely'
import type { Kysely } from 'kysely'
import { migrations } from './migrations/index.js'

export interface MigrationOutcome {
  readonly applied: readonly string[]
}

/**
 * The database records migrations this version of the service does not have: a newer version
 * migrated it. Running on it could misread or damage data the newer schema holds.
 */
export class SchemaTooNew extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(`the database was migrated by a newer version of Club Platform (${unknown.join(', ')} `
      + `${unknown.length === 1 ? 'is' : 'are'} unknown to this version); run that version, or restore a backup taken before the upgrade`)
    this.name = 'SchemaTooNew'
  }
}

export function createMigrator<DB>(db: Kysely<DB>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } })
}

export interface MigrationState {
  /** Migrations of this version not yet applied, in order. */
  readonly pending: readonly string[]
  /** Migrations recorded in the database that this version does not know (a newer one applied them), in order. */
  readonly unknown: readonly string[]
}

/** Compares the migrations recorded in the database with this version's: one look at the tables, one read. */
export async function migrationState<DB>(db: Kysely<DB>): Promise<MigrationState> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true })
  const recorded = tables.some((table) => table.name === 'kysely_migration')
    ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name)
    : []
  const applied = new Set(recorded)
  return {
    pending: Object.keys(migrations).filter((name) => !applied.has(name)),
    unknown: recorded.filter((name) => !Object.hasOwn(migrations, name)).sort(),
  }
}

/**
 * Brings the schema up to date; safe to run from several processes at once (Kysely locks).
 * Refuses a database that a newer version has migrated (SchemaTooNew).
 */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<MigrationOutcome> {
  const { unknown } = await migrationState(db)
  if (unknown.length > 0) throw new SchemaTooNew(unknown)
  const { error, results } = await createMigrator(db).migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${error instanceof Error ? error.message : inspect(error)}`,
      { cause: error })
  }
  return { applied: (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName) }
}
