import path from 'node:path'

export type DatabaseSettings
  = | { readonly kind: 'sqlite', readonly file: string }
    | { readonly kind: 'postgres', readonly url: string }

export interface Config {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly database: DatabaseSettings
  readonly logLevel: LogLevel
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A setting that cannot be used; the message names the variable and the expected form. */
export class ConfigError extends Error {
  constructor(readonly variable: string, expected: string, value: string) {
    super(`${variable}=${JSON.stringify(redactUrl(value))} is invalid: expected ${expected}`)
    this.name = 'ConfigError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

/** Reads every setting once, from the environment shared by the server and the command line. */
export function readConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? './data')
  return {
    port: readPort(env.PORT),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir,
    database: readDatabase(env.DATABASE_URL, dataDir),
    logLevel: readLogLevel(env.LOG_LEVEL),
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function readPort(raw: string | undefined): number {
  const value = nonEmpty(raw)
  if (value === undefined) return 3000
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', 'an integer from 0 to 65535', value)
  }
  return Number(value)
}

function readDatabase(raw: string | undefined, dataDir: string): DatabaseSettings {
  const value = nonEmpty(raw)
  if (value === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'club-platform.sqlite') }
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value }
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\//, '')
    if (file !== '') return { kind: 'sqlite', file: path.resolve(file) }
  }
  throw new ConfigError('DATABASE_URL', 'a postgres://… URL, sqlite:PATH, or unset for SQLite in DATA_DIR', value)
}

function readLogLevel(raw: string | undefined): LogLevel {
  const value = nonEmpty(raw)?.toLowerCase()
  if (value === undefined) return 'info'
  const level = LOG_LEVELS.find((candidate) => candidate === value)
  if (level === undefined) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`, value)
  return level
}

/** Hides the password of a URL, so that settings can be echoed in messages and logs. */
export function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]+):[^@/]*@/i, '$1:***@')
}
