/**
 * The one object that builds every dependency from the configuration: the database and the
 * authenticator, and the clock they share. Chosen once here; nothing below reads the environment.
 */
import type { Kysely, LogEvent } from 'kysely'
import { systemClock } from './clock.js'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import { openDatabase } from './db/dialect.js'
import type { DialectName } from './db/dialect.js'
import { migrateToLatest } from './db/migrate.js'
import type { Database } from './db/schema.js'
import { ApiKeyAuthenticator } from './services/api-keys.js'
import type { AuthenticatorOptions } from './services/api-keys.js'

export interface AppContext {
  readonly config: Config
  readonly db: Kysely<Database>
  readonly dialect: DialectName
  readonly clock: Clock
  readonly apiKeys: ApiKeyAuthenticator
  close(): Promise<void>
}

export interface ContextOptions {
  readonly clock?: Clock
  readonly onQuery?: (event: LogEvent) => void
  readonly authenticator?: AuthenticatorOptions
  /** Apply pending migrations before returning (the server does; the command line's `migrate` does it explicitly). */
  readonly migrate?: boolean
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock
  const database = openDatabase(config.database, options.onQuery ? { onQuery: options.onQuery } : {})
  try {
    if (options.migrate === true) await migrateToLatest(database.db)
  } catch (error) {
    await database.close()
    throw error
  }
  const apiKeys = new ApiKeyAuthenticator(database.db, clock, options.authenticator)
  return {
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    apiKeys,
    async close() {
      await apiKeys.flush()
      await database.close()
    },
  }
}
