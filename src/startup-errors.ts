/**
 * Why the service or a command could not start, in one line that names the setting to look at:
 * a port in use, a host that does not resolve, a database that cannot be reached, refuses, or was
 * migrated by a newer version. Anything else is reported by its message; its stack trace only at
 * LOG_LEVEL=debug or trace.
 */
import path from 'node:path'
import { ConfigError, redactUrl } from './config.js'
import type { Config } from './config.js'
import { describeConnectionError } from './db/dialect.js'
import { SchemaTooNew } from './db/migrate.js'

/** A failure already explained in words for the operator. */
export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'StartupError'
  }
}

const HOST_CHOICES = 'use 127.0.0.1, 0.0.0.0 for all interfaces, or one of its own addresses'

/** What `listen` failing means, naming PORT or HOST. */
export function listenFailure(error: unknown, config: Pick<Config, 'port' | 'host'>): Error {
  const code = (error as { code?: unknown } | null)?.code
  const at = `PORT=${String(config.port)} HOST=${config.host}`
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(`${at}: port ${String(config.port)} is already in use on ${config.host} by another process; `
        + 'stop it or choose another PORT', { cause: error })
    case 'EACCES':
      return new StartupError(`${at}: this user may not listen on port ${String(config.port)} (ports below 1024 need privileges); `
        + 'choose a PORT from 1024 up and put a proxy in front', { cause: error })
    case 'EADDRNOTAVAIL':
      return new StartupError(`HOST=${config.host}: not an address of this machine (${HOST_CHOICES})`, { cause: error })
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return new StartupError(`HOST=${config.host}: the name does not resolve to an address of this machine (${HOST_CHOICES})`,
        { cause: error })
    default:
      return error instanceof Error ? error : new Error(String(error))
  }
}

/** The setting that chose the database, as an operator would write it (passwords hidden). */
export function databaseSetting(config: Pick<Config, 'database' | 'dataDir'>): string {
  const database = config.database
  if (database.kind === 'postgres') return `DATABASE_URL=${redactUrl(database.url)}`
  return database.file === path.join(config.dataDir, 'club-platform.sqlite')
    ? `DATA_DIR=${config.dataDir}`
    : `DATABASE_URL=sqlite:${database.file}`
}

/**
 * One line for an operator; at LOG_LEVEL=debug or trace, the stack of an error nobody explained
 * follows it. `config` is undefined when the settings themselves could not be read.
 */
export function describeFailure(error: unknown, config: Pick<Config, 'database' | 'dataDir' | 'logLevel'> | undefined): string {
  if (error instanceof ConfigError || error instanceof StartupError) return error.message
  if (config !== undefined) {
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof SchemaTooNew) return `${databaseSetting(config)}: ${cause.message}`
      const reason = describeConnectionError(cause)
      if (reason !== undefined) return `${databaseSetting(config)}: ${reason}`
    }
  }
  const verbose = config?.logLevel === 'debug' || config?.logLevel === 'trace'
  const message = redactUrl(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
  if (verbose && error instanceof Error && error.stack !== undefined) return `${message}\n${error.stack}`
  return `${message}${verbose ? '' : ' (LOG_LEVEL=debug shows where)'}`
}
