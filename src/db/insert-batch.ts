/**
 * The rows a change appends, sent together. A unit of work collects its inserts (a booking, its
 * idempotency record, its mail, its webhook message and deliveries, its audit entries) and writes
 * them at the end of its transaction: on PostgreSQL as one statement, each insert a data-modifying
 * `WITH` query of it, so one round trip instead of one per row; SQLite, in the process, runs them
 * one by one, in the order they were collected.
 *
 * The inserts of one statement see the same snapshot and none sees another's rows; constraints are
 * checked as for separate statements (a unique or exclusion violation fails the statement, foreign
 * keys are checked at its end, so a mail may reference the booking inserted beside it). Only
 * inserts are combined: two changes of one row in one statement would be undefined.
 */
import { CompiledQuery } from 'kysely'
import type { Kysely } from 'kysely'
import { insertsTogether } from './dialect.js'
import { namePrepared, preparedName } from './prepared-names.js'
import type { Database } from './schema.js'

/** PostgreSQL takes at most 65,535 parameters per statement; a batch beyond this many is split. */
const MAX_PARAMETERS = 30_000

/** Runs the inserts in one statement on PostgreSQL (or a few, for very many parameters), one by one on SQLite. */
export async function insertTogether(db: Kysely<Database>, inserts: readonly CompiledQuery[]): Promise<void> {
  if (!insertsTogether(db)) {
    for (const insert of inserts) await db.executeQuery(insert)
    return
  }
  for (const group of groups(inserts)) {
    await db.executeQuery(group.length === 1 && group[0] !== undefined ? group[0] : combined(group))
  }
}

function groups(inserts: readonly CompiledQuery[]): CompiledQuery[][] {
  const result: CompiledQuery[][] = []
  let current: CompiledQuery[] = []
  let parameters = 0
  for (const insert of inserts) {
    if (!/^insert\s/i.test(insert.sql)) throw new Error(`only inserts are sent together, not: ${insert.sql.slice(0, 40)}`)
    if (current.length > 0 && parameters + insert.parameters.length > MAX_PARAMETERS) {
      result.push(current)
      current = []
      parameters = 0
    }
    current.push(insert)
    parameters += insert.parameters.length
  }
  if (current.length > 0) result.push(current)
  return result
}

/**
 * `with "w1" as (insert …), "w2" as (insert …) insert …`, each part's `$n` moved past the parameters
 * of the parts before it. Named as a prepared statement when every part is one (compiled once): the
 * combinations a service writes are few, so the named statements stay a fixed set.
 */
function combined(parts: readonly CompiledQuery[]): CompiledQuery {
  const texts: string[] = []
  const parameters: unknown[] = []
  for (const part of parts) {
    texts.push(renumbered(part.sql, parameters.length))
    parameters.push(...part.parameters)
  }
  const last = texts.pop() ?? ''
  const text = `with ${texts.map((part, i) => `"w${String(i + 1)}" as (${part})`).join(', ')} ${last}`
  if (parts.every((part) => preparedName(part.sql) !== undefined)) namePrepared(text)
  return CompiledQuery.raw(text, parameters)
}

/** The statement with each parameter `$n` as `$(n + offset)`; quoted strings and names are left as they are. */
export function renumbered(text: string, offset: number): string {
  if (offset === 0) return text
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) =>
    n === undefined ? match : `$${String(Number(n) + offset)}`)
}
