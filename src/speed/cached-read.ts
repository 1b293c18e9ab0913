/**
 * The read path of the cached endpoints: answer from the response cache while the scope's data is
 * unchanged (src/db/changes.ts), or read, serialise with the route's compiled 200 schema, file
 * and send. Either way the body goes out serialised, with its ETag, so the conditionalGet hook
 * answers If-None-Match without hashing.
 */
import type { FastifyReply } from 'fastify'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { sendJson } from '../http/conditional.js'
import type { CachedResponse, TaggedBody } from './response-cache.js'

export interface Readout {
  /** What the route's 200 schema serialises. */
  readonly payload: Record<string, unknown>
  /** The clock time at which the answer changes without any write (Infinity: only a write changes it). */
  readonly validUntil: number
}

/** Where an answer is filed: its scope of change tracking, its key, and the clock time of the request. */
export interface CacheSlot {
  readonly scope: string
  readonly key: string
  readonly now: number
}

/**
 * The cached answer, if its scope is unchanged since it was filed (the look-up of answerCached and
 * of src/speed/fast-path.ts). The scope's version is read only for a key the cache holds: a miss
 * costs no query here (the read that follows takes the version of its own snapshot).
 */
export function cachedAnswer(context: AppContext, at: CacheSlot): CachedResponse | undefined {
  const version = context.responses.holds(at.key) ? context.changes.version(at.scope) : undefined
  const entry = version === undefined ? undefined : context.responses.get(at.key, version, at.now)
  if (entry !== undefined) context.responses.counts.hits += 1
  return entry
}

/**
 * Answers from the cache synchronously (and returns undefined: a handler that returns nothing has
 * replied), or reads, files and answers (and returns the promise of that), so the steady state
 * waits for nothing.
 */
export function answerCached(
  context: AppContext,
  reply: FastifyReply,
  at: CacheSlot,
  read: (db: Kysely<Database>, version: number | undefined) => Promise<Readout>,
): Promise<FastifyReply> | undefined {
  const hit = cachedAnswer(context, at)
  if (hit === undefined) return readAndAnswer(context, reply, at, read)
  sendJson(reply, hit)
  return undefined
}

async function readAndAnswer(
  context: AppContext,
  reply: FastifyReply,
  at: CacheSlot,
  read: (db: Kysely<Database>, version: number | undefined) => Promise<Readout>,
): Promise<FastifyReply> {
  return sendJson(reply, await readAndFile(context, at, read,
    (payload) => reply.serializeInput(payload, '200', 'application/json') as string))
}

/**
 * Reads, serialises and files an answer (kept if the scope was unchanged during the read), and
 * returns it as the cache would: the miss of the route and of src/speed/fast-path.ts alike.
 */
export async function readAndFile(
  context: AppContext,
  at: CacheSlot,
  read: (db: Kysely<Database>, version: number | undefined) => Promise<Readout>,
  serialize: (payload: Record<string, unknown>) => string,
): Promise<CachedResponse> {
  const readout = await context.changes.read(context.db, at.scope, read)
  const { payload, validUntil } = readout.value
  return fileAnswer(context, at, readout.version, validUntil, serialize(payload))
}

/** Files a serialised answer read under `version` (kept only if that is known), and returns it as the cache would. */
export function fileAnswer(context: AppContext, at: CacheSlot, version: number | undefined, validUntil: number,
  body: string | TaggedBody): CachedResponse {
  const cache = context.responses
  cache.counts.misses += 1
  return cache.set(at.key, cache.enabled ? version : undefined, validUntil, body)
}
