/**
 * Query strings are checked before schema validation, for what Ajv's coercion would let through:
 * unknown parameters, repeated parameters (`limit=1&limit=2`), and integers that are not plain
 * base-10 digits (`1.0`, `1e2`, `0x10`, ` 5`, empty). Ajv then checks ranges on the coerced values.
 */
import type { FastifyInstance, preValidationHookHandler } from 'fastify'
import { InvalidRequest } from '../domain/errors.js'

interface QuerySchema {
  readonly properties?: Readonly<Record<string, { readonly type?: unknown }>>
}

const DIGITS = /^[0-9]+$/

export function registerStrictQuery(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema?.querystring as QuerySchema | undefined
    if (schema === undefined) return
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat()
    route.preValidation = [strictQuery(schema.properties ?? {}), ...existing]
  })
}

function strictQuery(properties: NonNullable<QuerySchema['properties']>): preValidationHookHandler {
  const known = new Map(Object.entries(properties))
  return function checkQuery(request, _reply, done) {
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
      const property = known.get(name)
      if (property === undefined) throw new InvalidRequest('query parameter', name, 'is not a parameter of this endpoint')
      if (Array.isArray(value)) throw new InvalidRequest('query parameter', name, 'must be given at most once')
      if (property.type === 'integer' && (typeof value !== 'string' || !DIGITS.test(value))) {
        throw new InvalidRequest('query parameter', name, 'must be a base-10 integer')
      }
    }
    done()
  }
}
