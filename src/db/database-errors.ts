/** Which driver errors mean "the database is unavailable" or a conflict, rather than "the query is wrong". */
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

/**
 * Every connection of the pool is in use and as many requests as may wait for one are waiting
 * (DATABASE_POOL_QUEUE), or a request waited for one longer than it may (DATABASE_POOL_WAIT_MS):
 * the service is busy, and the request is refused for now (503, Retry-After), having changed nothing.
 */
export class DatabaseBusy extends Error {
  readonly code = 'CLUB_PLATFORM_DATABASE_BUSY'
}

export function isDatabaseBusy(error: unknown): boolean {
  return error instanceof DatabaseBusy
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
