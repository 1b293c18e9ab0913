/**
 * Response serialisers (fast-json-stringify), one per distinct response schema: most of the ~120
 * routes answer their errors with the same problem document, and compiling it once per route and
 * status was most of the time an app took to build. Annotations (descriptions, examples) do not
 * change what a serialiser writes, so schemas that differ only in them share one.
 *
 * The server compiles every distinct schema at start, so a schema that cannot be compiled stops
 * it there; the in-process test harness (`AppOptions.lazySerializers`) and the instance that only
 * writes the dashboard API's description compile each on first use.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

type Compile = ReturnType<ReturnType<typeof SerializerSelector>>
type Serialize = ReturnType<Compile>

const compilerFor = SerializerSelector()

/** Keywords that only describe; as strings or lists they never shape the output. */
const ANNOTATIONS = new Set(['description', 'summary', 'title', 'examples', 'example', '$comment'])

function withoutAnnotations(key: string, value: unknown): unknown {
  return ANNOTATIONS.has(key) && (typeof value === 'string' || Array.isArray(value)) ? undefined : value
}

/** The compiler of one set of shared schemas, compiling each distinct response schema once. */
function sharing(compile: Compile): Compile {
  const compiled = new Map<string, Serialize>()
  return (route) => {
    const key = JSON.stringify(route.schema, withoutAnnotations)
    let serialize = compiled.get(key)
    if (serialize === undefined) {
      serialize = compile(route)
      compiled.set(key, serialize)
    }
    return serialize
  }
}

export const SHARED_SERIALIZERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => sharing(compilerFor(externalSchemas, options)),
  },
}

export const LAZY_SERIALIZERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => {
      const compile = sharing(compilerFor(externalSchemas, options))
      return (route) => {
        let serialize: Serialize | undefined
        return (data: unknown) => {
          serialize ??= compile(route)
          return serialize(data)
        }
      }
    },
  },
}
