import { Type } from '@sinclair/typebox'
import type { Static, TSchema, TUnsafe } from '@sinclair/typebox'

/** A $ref to a schema registered under its $id, typed as that schema (the form TypeBox 0.34 recommends). */
export function Reference<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (schema.$id === undefined) throw new Error('a referenced schema needs an $id')
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id))
}

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description === undefined ? {} : { description }) })

export const DateTime = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} RFC 3339 with an explicit offset.` })

/**
 * `type: [T, 'null']`: present with null when unknown. A single type list (not anyOf) keeps the
 * serialiser on its fast path and reads naturally in OpenAPI 3.1.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })
}

export const LIST_LIMIT = { min: 1, max: 100, default: 50 } as const
export const LIST_OFFSET = { min: 0, max: 10_000, default: 0 } as const

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({
    minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default,
    description: `Maximum number of records returned: ${String(LIST_LIMIT.min)}–${String(LIST_LIMIT.max)}, default `
      + `${String(LIST_LIMIT.default)}. Plain base-10 digits.`,
    examples: [20],
  })),
  offset: Type.Optional(Type.Integer({
    minimum: LIST_OFFSET.min, maximum: LIST_OFFSET.max, default: LIST_OFFSET.default,
    description: `Number of records skipped: ${String(LIST_OFFSET.min)}–${String(LIST_OFFSET.max)}, default `
      + `${String(LIST_OFFSET.default)}. Plain base-10 digits.`,
    examples: [40],
  })),
}, { additionalProperties: false })
export type ListQuery = Static<typeof ListQuery>

export const ListMeta = Type.Object({
  limit: Type.Integer({ description: 'The limit applied.' }),
  offset: Type.Integer({ description: 'The offset applied.' }),
  total: Type.Integer({ description: 'Number of records that match, independent of limit and offset.' }),
}, { $id: 'ListMeta', additionalProperties: false, examples: [{ limit: 20, offset: 40, total: 57 }] })

/**
 * The envelope of every authenticated list: `{ data: T[], meta: { limit, offset, total } }`, named
 * after its item (`GroupList`). Items are referenced by $id, so the OpenAPI document names each
 * resource once under components. The example is the item's first example on a page of its own.
 */
export function ListEnvelope<T extends TSchema>(item: T, description: string) {
  if (item.$id === undefined) throw new Error('a listed resource needs an $id')
  const examples: unknown = item.examples
  return Type.Object({
    data: Type.Array(Reference(item)),
    meta: Reference(ListMeta),
  }, {
    $id: `${item.$id}List`,
    additionalProperties: false,
    description,
    examples: [{ data: Array.isArray(examples) ? examples.slice(0, 1) : [], meta: { limit: 20, offset: 0, total: 1 } }],
  })
}

/** Text without control characters (a name, a reason), and text that may hold line breaks (a note). */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]*$'
export const NO_CONTROL_BUT_NEWLINES = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$'
