/**
 * A listing's page as the JSON text the API sends, built by SQLite (its JSON functions) instead of
 * as rows that JavaScript turns into objects and serialises. A page of 50 rows takes 35–65 % less
 * time (better-sqlite3 alone, on the benchmark's database): the rows never become JavaScript values. SQLite
 * only, and only where pages are read without Fastify: the list reader threads
 * (src/speed/list-readers.ts). Every other read, and every read on PostgreSQL, goes through the
 * route's serialiser, and test/speed/list-json.test.ts holds the two texts equal for any stored value.
 *
 * What SQLite writes as JSON is what fast-json-stringify writes for the same values, except for
 * numbers: SQLite writes a real as `3.0` or `1.0e+21` where JavaScript writes `3` and `1e+21`. A
 * real is therefore written as an integer when it is one (and exact as a double), and otherwise by
 * `api_number`, a function of each connection that formats it as JavaScript does. Strings are
 * escaped alike (every code point, control characters included).
 */
import type BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import type { RawBuilder } from 'kysely'

/** The SQL function that writes a number as the API does (`'' + n`; not finite: `null`, as fast-json-stringify). */
export const API_NUMBER = 'api_number'

/** Declares API_NUMBER on a SQLite connection. */
export function declareJsonFunctions(database: BetterSqlite3.Database): void {
  database.function(API_NUMBER, { deterministic: true }, (value: unknown) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'null'
    return String(value)
  })
}

/** One property of an item: its key in the API, and the SQL that gives its value. */
export type JsonProperty = readonly [key: string, value: RawBuilder<unknown>]

/** A column's value as it is. */
export function column(name: string): JsonProperty {
  return [name, sql.ref(name)]
}

/** A real column as a JSON number, written as JavaScript writes it. */
export function numberColumn(name: string): JsonProperty {
  const value = sql.ref(name)
  // 2^53 - 1: beyond it a double's integer part is no longer exact, and JavaScript may write an exponent.
  return [name, sql`case when ${value} is null then null when ${value} = cast(${value} as integer) and abs(${value}) <= 9007199254740991
    then cast(${value} as integer) else json(${sql.raw(API_NUMBER)}(${value})) end`]
}

/** An object of these properties, in this order (the order of the item's schema). */
export function jsonObject(properties: readonly JsonProperty[]): RawBuilder<unknown> {
  return sql`json_object(${sql.join(properties.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`
}

/** As jsonObject, without the property `key` when its value is null (a property the schema marks optional). */
export function jsonObjectWithout(properties: readonly JsonProperty[], key: string): RawBuilder<unknown> {
  const optional = properties.find(([name]) => name === key)
  if (optional === undefined) throw new Error(`no property ${key} to leave out`)
  return sql`case when ${optional[1]} is null then ${jsonObject(properties.filter((property) => property !== optional))}
    else ${jsonObject(properties)} end`
}

/**
 * The JSON array of `item` over the rows of a subquery, in the subquery's order: SQLite does not
 * flatten an ordered, limited subquery into an aggregate, and feeds the aggregate its rows as the
 * subquery yields them (the listings' tests hold pages in their order). No rows: `[]`.
 */
export function jsonArray(item: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`json_group_array(${item})`
}
