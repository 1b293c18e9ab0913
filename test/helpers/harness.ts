/**
 * One running application on a fresh database, for a suite: real SQLite or PostgreSQL, real
 * HTTP handling through `app.inject`, a clock the test moves. Every response goes through the
 * OpenAPI check before the test sees it.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http'
import type { FastifyInstance, InjectOptions } from 'fastify'
import lightMyRequest from 'light-my-request'
import { afterAll, beforeAll, inject } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext } from '../../src/context.js'
import type { DialectName } from '../../src/db/dialect.js'
import type { Club } from '../../src/db/repositories/clubs.js'
import { SCOPES } from '../../src/domain/scopes.js'
import type { Scope } from '../../src/domain/scopes.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import type { Resolver } from '../../src/webhooks/sender.js'
import { createTestDatabase } from './databases.js'
import type { TestDatabase } from './databases.js'
import { OpenApiValidator } from './openapi-validator.js'
import type { OpenApiDocument } from './openapi-validator.js'

export const START = Date.parse('2026-06-15T10:00:00.000Z')

export interface ApiResponse {
  readonly status: number
  readonly headers: Record<string, string | string[] | number | undefined>
  readonly body: string
  json<T = unknown>(): T
}

export interface RequestOptions {
  readonly method?: InjectOptions['method']
  readonly url: string
  readonly key?: string
  readonly headers?: Record<string, string>
  readonly payload?: InjectOptions['payload']
}

export interface Harness {
  readonly app: FastifyInstance
  readonly context: AppContext
  readonly clock: ManualClock
  readonly database: TestDatabase
  /** The public API's document (the dashboard API's is used for paths under /api/admin/). */
  readonly openapi: OpenApiValidator
  /** SQL of every query since the last reset. */
  readonly queries: string[]
  /** The same queries with their parameters. */
  readonly statements: { sql: string, parameters: readonly unknown[] }[]
  request(options: RequestOptions): Promise<ApiResponse>
  createClub(slug: string, timezone?: string): Promise<Club>
  createKey(clubId: string, scopes?: readonly Scope[], expiresAt?: string | null): Promise<{ key: string, id: string }>
}

export interface HarnessOptions {
  /** Settings on top of the test database's (e.g. rate limits, SMTP_URL). */
  readonly env?: Record<string, string>
  /** With REDIS_URL: let the Redis store decide on the harness clock rather than the Redis server's. */
  readonly redisOnHarnessClock?: boolean
  /** Use this database instead of creating one (a second instance on the same data). */
  readonly database?: TestDatabase
  /** How webhook hosts resolve (a test maps names to the addresses it needs). */
  readonly webhookResolver?: Resolver
  /** false: no answers before routing (src/speed/fast-path.ts); test/speed/fast-path.test.ts compares the two. */
  readonly fastPath?: false
  /**
   * Read list pages missing from the cache on threads (READER_THREADS, SQLite only), as the server
   * does; the threads run this module (default: the built src/speed/list-readers.ts).
   */
  readonly readerThreads?: URL | true
}

/** The reader threads' code as the server runs it (a thread cannot run the TypeScript sources). */
export const BUILT_READER_MODULE = pathToFileURL(path.resolve('dist/speed/list-readers.js'))

export async function startHarness(
  dialect: DialectName,
  options: HarnessOptions = {},
): Promise<Harness & { close(): Promise<void> }> {
  const database = options.database ?? await createTestDatabase(dialect)
  const clock = new ManualClock(START)
  const queries: string[] = []
  const statements: { sql: string, parameters: readonly unknown[] }[] = []
  // Rate limits are generous unless a test sets them: most tests are not about them.
  const config = readConfig({ PUBLIC_RATE_CAPACITY: '100000', BOOKING_RATE_CAPACITY: '100000', RATE_LIMIT_CAPACITY: '100000',
    SIGN_IN_RATE_CAPACITY: '100000',
    ...database.env, LOG_LEVEL: 'info', ...options.env })
  const context = await createContext(config, {
    clock,
    migrate: true,
    ...(options.redisOnHarnessClock === true ? { limiterClock: clock } : {}),
    ...(options.webhookResolver === undefined ? {} : { webhookResolver: options.webhookResolver }),
    webhookWorker: { random: () => 0.5 },
    ...(options.readerThreads === undefined
      ? {}
      // Threads from the first miss: the suites prove what they read, not when they start (test/speed/list-readers.test.ts does).
      : { readerThreads: true, readerStartAfter: 1,
          readerModule: options.readerThreads === true ? BUILT_READER_MODULE : options.readerThreads }),
    onQuery: (event) => {
      queries.push(event.query.sql)
      statements.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  })
  // Every harness app logs at info level into the run's log directory, which the run checks for keys at its end.
  const log = fs.createWriteStream(path.join(inject('serviceLogDir'), `${String(process.pid)}-${randomUUID()}.ndjson`))
  const app = await buildApp(context, { logDestination: log, lazySerializers: true,
    ...(options.fastPath === undefined ? {} : { fastPath: options.fastPath }) })
  await app.ready()
  const document = (await app.inject({ url: '/api/v1/openapi.json' })).json<OpenApiDocument>()
  const openapi = new OpenApiValidator(document)
  const adminOpenapi = new OpenApiValidator((await app.inject({ url: '/api/admin/v1/openapi.json' })).json<OpenApiDocument>())

  // As the server's request listener does: src/speed/fast-path.ts first, then Fastify (app.inject would skip the former).
  // light-my-request reads the headers set through setHeader, so a flat list given to writeHead is set that way.
  const dispatch = (raw: IncomingMessage, response: ServerResponse) => {
    const writeHead = response.writeHead.bind(response) as (status: number, headers?: unknown) => ServerResponse
    response.writeHead = (status: number, headers?: unknown) => {
      if (!Array.isArray(headers)) return writeHead(status, headers)
      const list = headers as OutgoingHttpHeader[]
      for (let i = 0; i < list.length; i += 2) response.setHeader(String(list[i]), list[i + 1] ?? '')
      return writeHead(status)
    }
    app.fastPath.dispatch(raw, response)
  }
  const request = async (options: RequestOptions): Promise<ApiResponse> => {
    const method = options.method ?? 'GET'
    const response = await lightMyRequest(dispatch, {
      method,
      url: options.url,
      headers: { ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }), ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    })
    const validator = options.url.startsWith('/api/admin/') ? adminOpenapi : openapi
    const problems = validator.check({
      method, path: options.url, status: response.statusCode, headers: response.headers, body: response.body,
    })
    if (problems.length > 0) {
      throw new Error(`${method} ${options.url} → ${response.statusCode} breaks the OpenAPI document:\n  ${problems.join('\n  ')}\n${response.body}`)
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      json: <T>() => JSON.parse(response.body) as T,
    }
  }

  return {
    app, context, clock, database, openapi, queries, statements, request,
    createClub: (slug, timezone = 'Europe/Berlin') => createClub(context.db, clock, { slug, name: `Club ${slug}`, timezone }),
    async createKey(clubId, scopes = SCOPES, expiresAt = null) {
      const created = await createApiKey(context.db, clock, { clubId, name: 'test', scopes, expiresAt })
      return { key: created.key, id: created.record.id }
    },
    async close() {
      await app.close()
      await context.close()
      await new Promise((resolve) => log.end(resolve))
      if (options.database === undefined) await database.drop()
    },
  }
}

/** Starts a harness before the suite's tests and stops it after; read `.current` inside tests. */
export function useHarness(
  dialect: DialectName,
  setup?: (harness: Harness) => Promise<void>,
  options: HarnessOptions = {},
): { current: Harness } {
  const holder: { current?: Harness & { close(): Promise<void> } } = {}
  beforeAll(async () => {
    holder.current = await startHarness(dialect, options)
    await setup?.(holder.current)
  })
  afterAll(async () => {
    await holder.current?.close()
  })
  return {
    get current(): Harness {
      if (holder.current === undefined) throw new Error('harness not started')
      return holder.current
    },
  }
}
