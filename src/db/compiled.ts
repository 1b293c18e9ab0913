/**
 * Queries compiled once. Kysely builds a query's operation tree (copying it at every step) and
 * compiles it to SQL on every call: for the small indexed statements of a booking, a fifth of its
 * time on the event loop, two thirds of what SQLite takes to run them. `compiledOnce` builds the
 * query once per database kind, with a marker in the place of each argument, and from then on
 * runs that SQL with the call's values in the markers' places.
 *
 * The builder must not look at its arguments' values (no branch on them, no conversion): what it
 * returns must have one shape whatever they are. An argument that does not arrive in the
 * parameters as passed (converted, say) is refused when the query is first compiled; a builder
 * that branches on a value is caught by `test/speed/compiled.test.ts`, which holds every such query's
 * SQL and parameters equal to Kysely's own with strings, nulls and numbers in each place.
 *
 * On PostgreSQL each such statement is also a named prepared statement (`preparedName`): parsed and
 * planned once per connection, not on every call. They are a fixed set, the statements of this
 * module's callers, so the server's prepared statements stay few whatever the traffic.
 */
import { createQueryId } from 'kysely'
import type { Compilable, CompiledQuery, Kysely } from 'kysely'
import { dialectOf } from './dialect.js'
import type { DialectName } from './dialect.js'
import { namePrepared } from './prepared-names.js'
import type { Database } from './schema.js'

/** What a compiled query takes as an argument: values SQLite and PostgreSQL bind as they are. */
export type Argument = string | number | null

export interface CompiledOnce<Args extends readonly Argument[], Row> {
  /** Runs the query with these arguments on `db` (a transaction too). */
  execute(db: Kysely<Database>, ...args: Args): Promise<Row[]>
  /** The query with these arguments, as it runs. */
  compile(db: Kysely<Database>, ...args: Args): CompiledQuery<Row>
  /** The query as Kysely builds it from these arguments (for the tests). */
  reference(db: Kysely<Database>, ...args: Args): CompiledQuery<Row>
}

/** Every query compiled once in the process, with its number of arguments: the tests check each against Kysely. */
export const everyCompiledQuery: { readonly arity: number, readonly query: CompiledOnce<Argument[], unknown> }[] = []

interface Template<Row> {
  readonly query: CompiledQuery<Row>
  /** For each parameter, the argument it takes (its index), or -1: a constant of the query. */
  readonly slots: readonly number[]
}

/** `arity`: how many arguments follow `db` (given when `build` takes them as a rest parameter). */
export function compiledOnce<Args extends readonly Argument[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
  arity = build.length - 1,
): CompiledOnce<Args, Row> {
  const templates = new Map<DialectName, Template<Row>>()
  const compile = (db: Kysely<Database>, ...args: Args): CompiledQuery<Row> => {
    const dialect = dialectOf(db)
    let template = templates.get(dialect)
    if (template === undefined) {
      template = templateOf(args.length, (markers) => build(db, ...(markers as unknown as Args)).compile())
      templates.set(dialect, template)
      if (dialect === 'postgres') namePrepared(template.query.sql)
    }
    const { query, slots } = template
    const parameters = slots.map((slot, i) => (slot === -1 ? query.parameters[i] : args[slot]))
    return { query: query.query, queryId: createQueryId(), sql: query.sql, parameters }
  }
  const compiled: CompiledOnce<Args, Row> = {
    compile,
    async execute(db, ...args) {
      return (await db.executeQuery(compile(db, ...args))).rows
    },
    reference: (db, ...args) => build(db, ...args).compile(),
  }
  everyCompiledQuery.push({ arity, query: compiled as unknown as CompiledOnce<Argument[], unknown> })
  return compiled
}

function templateOf<Row>(arity: number, compileWith: (markers: readonly string[]) => CompiledQuery<Row>): Template<Row> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000argument ${String(i)}\u0000`)
  const query = compileWith(markers)
  const slots = query.parameters.map((value) => (typeof value === 'string' ? markers.indexOf(value) : -1))
  for (const [i, marker] of markers.entries()) {
    if (!slots.includes(i) || query.sql.includes(marker)) {
      throw new Error(`compiledOnce: argument ${String(i)} is not a parameter of the query as passed (${query.sql})`)
    }
  }
  return { query, slots }
}
