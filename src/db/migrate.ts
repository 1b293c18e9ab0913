import { inspect } from 'node:util'
import { Migrator } from 'kysely'
import type { Kysely } from 'kysely'
import { migrations } from './migrations/index.js'

export interface MigrationOutcome {
  readonly applied: readonly string[]
}

export function createMigrator<DB>(db: Kysely<DB>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } })
}

/** Brings the schema up to date; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<MigrationOutcome> {
  const { error, results } = await createMigrator(db).migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${error instanceof Error ? error.message : inspect(error)}`,
      { cause: error })
  }
  return { applied: (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName) }
}
