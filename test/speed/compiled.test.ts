/**
 * Queries compiled once (src/db/compiled.ts) run the very SQL Kysely would build, with the very
 * parameters, on both databases: every such query of the service, with its arguments as strings,
 * and with each in turn as null and as a number (a builder that looked at a value would build
 * another shape for it). A builder that converts its argument is refused.
 */
import { expect, it } from 'vitest'
import { compiledOnce, everyCompiledQuery } from '../../src/db/compiled.js'
import type { Argument } from '../../src/db/compiled.js'
// The modules whose statements are compiled once.
import '../../src/db/repositories/bookings.js'
import '../../src/db/repositories/courts.js'
import '../../src/db/repositories/listings.js'
import '../../src/db/repositories/outbox.js'
import '../../src/db/repositories/result-anchors.js'
import '../../src/webhooks/events.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { useHarness } from '../helpers/harness.js'

/** The service's own (this file compiles one more, which must fail). */
const serviceQueries = [...everyCompiledQuery]

describeEachDatabase('queries compiled once', (dialect) => {
  const harness = useHarness(dialect)

  it('build the SQL and parameters Kysely builds, whatever the values', () => {
    const db = harness.current.context.db
    expect(serviceQueries.length).toBeGreaterThanOrEqual(20)
    for (const { arity, query } of serviceQueries) {
      const strings = Array.from({ length: arity }, (_, i) => `value ${String(i)}`)
      const variants: Argument[][] = [strings, ...strings.flatMap((_, i) => [
        strings.map((value, j) => (j === i ? null : value)),
        strings.map((value, j) => (j === i ? 7 : value)),
      ])]
      for (const args of variants) {
        const compiled = query.compile(db, ...args)
        const reference = query.reference(db, ...args)
        expect(compiled.sql).toBe(reference.sql)
        expect(compiled.parameters).toEqual(reference.parameters)
      }
    }
  })

  it('refuses a builder that converts an argument', () => {
    const db = harness.current.context.db
    const converting = compiledOnce((kysely, slug: string) => kysely.selectFrom('clubs').select('id').where('slug', '=', slug.toUpperCase()))
    expect(() => converting.compile(db, 'riverside')).toThrow(/argument 0 is not a parameter of the query as passed/)
  })
})
