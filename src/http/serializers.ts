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

type Schemas = Record<string, unknown>

/**
 * The shared schemas `schema` refers to, directly or through one another. fast-json-stringify checks every shared schema
 * it is given against the JSON Schema meta-schema on every compile: given all of them (some 100), that check was an eighth
 * of a server's start.
 */
function referencedBy(schema: unknown, shared: Schemas): Schemas {
  const referenced: Schemas = {}
  const pending = [schema]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== 'object' || next === null) continue
    for (const [key, value] of Object.entries(next)) {
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0] ?? ''
        if (id !== '' && Object.hasOwn(shared, id) && !Object.hasOwn(referenced, id)) {
          referenced[id] = shared[id]
          pending.push(shared[id])
        }
      } else {
        pending.push(value)
      }
    }
  }
  return referenced
}

/**
 * Every serialiser compiled in the process, by what shapes its output: the response schema, the shared schemas it refers
 * to and the options, without annotations. Fastify asks for a compiler per route wherever the app has added schemas, so
 * a cache per compiler would compile the same schema once per route.
 */
const compiled = new Map<string, Serialize>()

/** The compiler of one set of shared schemas, compiling each distinct response schema once, with what it refers to. */
function sharing(shared: unknown, options: Parameters<typeof compilerFor>[1]): Compile {
  const schemas = (typeof shared === 'object' && shared !== null ? shared : {}) as Schemas
  return (route) => {
    const referenced = referencedBy(route.schema, schemas)
    const key = JSON.stringify([route.schema, referenced, options ?? null], withoutAnnotations)
    let serialize = compiled.get(key)
    if (serialize === undefined) {
      serialize = compilerFor(referenced, options)(route)
      compiled.set(key, serialize)
    }
    return serialize
  }
}

export const SHARED_SERIALIZERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => sharing(externalSchemas, options),
  },
}

export const LAZY_SERIALIZERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => {
      const compile = sharing(externalSchemas, options)
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
