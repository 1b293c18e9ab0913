/**
 * Response serialisers (fast-json-stringify) compiled when a route first answers with a status,
 * rather than every route × status while the app is built. Compiling them all is most of the time
 * an app takes to build (about a second for the ~110 routes and their documented statuses), and
 * most are never used by a given process. The server compiles them all at start, so a schema that
 * cannot be compiled stops it there; the in-process test harness (`AppOptions.lazySerializers`)
 * and the instance that only writes the dashboard API's description compile on first use.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

const compilerFor = SerializerSelector()

export const LAZY_SERIALIZERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => {
      const compile = compilerFor(externalSchemas, options)
      return (route) => {
        let serialize: ((data: unknown) => string) | undefined
        return (data: unknown) => {
          serialize ??= compile(route)
          return serialize(data)
        }
      }
    },
  },
}
