import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.js'
import type { AppOptions } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext } from '../../src/context.js'
import { generateApiKey } from '../../src/domain/api-key.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { START, useHarness } from '../helpers/harness.js'
import type { RequestOptions } from '../helpers/harness.js'

/**
 * An app outside the harness, for what the harness cannot set up: an unreachable database, a real
 * socket, a log stream. Without DATABASE_URL it gets a SQLite file in a directory of its own.
 */
async function withApp(
  options: { env?: Record<string, string>, logDestination?: AppOptions['logDestination'] },
  test: (app: FastifyInstance, context: AppContext) => Promise<void>,
): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-errors-'))
  const config = readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env })
  const context = await createContext(config, { clock: new ManualClock(START), migrate: config.database.kind === 'sqlite' })
  const app = await buildApp(context,
    options.logDestination === undefined ? { logger: false } : { logDestination: options.logDestination })
  try {
    await test(app, context)
  } finally {
    await app.close()
    await context.close()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

interface ProblemBody { type: string, title: string, status: number, detail: string, instance: string, request_id: string }

describeEachDatabase('error responses', (dialect) => {
  let key = ''
  const harness = useHarness(dialect, async (h) => {
    key = (await h.createKey((await h.createClub('errors')).id)).key
  })

  type Answer = { status: number, headers: Record<string, unknown>, json<T>(): T }
  const expectProblem = (response: Answer, status: number, type: string) => {
    expect(response.status).toBe(status)
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
    const body = response.json<ProblemBody>()
    expect(body).toMatchObject({ type: `/api/v1/problems/${type}`, status })
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'request_id']))
    expect(body.request_id).toBe(response.headers['x-request-id'])
    return body
  }

  it('answers an unknown path with a 404 problem whose instance is the path without the query', async () => {
    const body = expectProblem(await harness.current.request({ url: '/api/v1/nothing-here?token=secret' }), 404, 'not-found')
    expect(body.instance).toBe('/api/v1/nothing-here')
    expect(JSON.stringify(body)).not.toContain('secret')
    expectProblem(await harness.current.request({ url: '/' }), 404, 'not-found')
    expectProblem(await harness.current.request({ url: '/api/v1/groups/' }), 404, 'not-found')
    expectProblem(await harness.current.request({ url: '/API/V1/GROUPS', key }), 404, 'not-found')
  })

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const)('answers %s on a list endpoint with 405 and Allow', async (method) => {
    const response = await harness.current.request({ method, url: '/api/v1/groups', key })
    expectProblem(response, 405, 'method-not-allowed')
    expect(response.headers.allow).toBe('GET, HEAD')
  })

  it('refuses the method before reading a large or foreign body', async () => {
    const big = 'x'.repeat(100_000)
    const response = await harness.current.request({ method: 'POST', url: '/api/v1/groups', payload: big,
      headers: { 'content-type': 'text/plain' } })
    expectProblem(response, 405, 'method-not-allowed')
  })

  it('uses a well-formed X-Request-Id from the caller and replaces anything else', async () => {
    const echoed = await harness.current.request({ url: '/api/v1/groups', headers: { 'x-request-id': 'lb-1234.abc' } })
    expect(echoed.headers['x-request-id']).toBe('lb-1234.abc')
    expect(expectProblem(echoed, 401, 'invalid-api-key').request_id).toBe('lb-1234.abc')
    const replaced = await harness.current.request({ url: '/api/v1/groups', headers: { 'x-request-id': '<script>' } })
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('never echoes the key it refuses', async () => {
    const stranger = generateApiKey()
    // A changed last character: always a different one, or the key would still be valid.
    const mistyped = `${key.slice(0, -1)}${key.endsWith('Z') ? 'Y' : 'Z'}`
    for (const authorization of [`Bearer ${stranger}`, `Bearer ${stranger}x`, `Bearer ${mistyped}`]) {
      const response = await harness.current.request({ url: '/api/v1/groups', headers: { authorization } })
      expect(response.status).toBe(401)
      expect(response.body).not.toContain(authorization.slice(7, 20))
    }
  })

  it('answers a malformed URL with a 400 problem', async () => {
    const response = await harness.current.request({ url: '/api/v1/groups?limit=%E0%A4%A', key })
    expect(response.status).toBeLessThan(500)
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('answers a malformed or over-long path with a problem document and a request id', async () => {
    const bad = await harness.current.request({ url: '/api/v1/gr%oups' })
    expectProblem(bad, 400, 'validation-error')
    const long = await harness.current.request({ url: `/api/v1/problems/${'a'.repeat(500)}` })
    expectProblem(long, 404, 'not-found')
  })

  it('never answers 5xx, and answers every error with a problem document, whatever a client sends', async () => {
    const segment = fc.oneof(fc.constantFrom('api', 'v1', 'groups', 'events', 'news', 'competition-results', 'problems',
      'openapi.json', 'docs', '..', '.', '%2e', '%00', '%', '%zz', 'a'.repeat(150)), fc.string({ maxLength: 6 }).map(encodeURIComponent))
    const path = fc.array(segment, { maxLength: 5 }).map((parts) => `/api/v1/${parts.join('/')}`)
    const query = fc.array(fc.tuple(fc.constantFrom('limit', 'offset', 'x', ''), fc.oneof(fc.string({ maxLength: 5 }),
      fc.constantFrom('1', '100', '-1', '%', '%zz'))), { maxLength: 3 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))
    const authorization = fc.oneof(fc.constant(undefined), fc.constant(`Bearer ${key}`), fc.string({ maxLength: 50 }),
      fc.constant(`Bearer ${generateApiKey()}`))
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<NonNullable<RequestOptions['method']>>('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      path, query, authorization,
      fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data')),
      fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.json({ maxDepth: 2 }), fc.constant('x'.repeat(20_000)))),
      async (method, pathPart, queryPart, auth, contentType, body) => {
        const headers: Record<string, string> = {}
        if (auth !== undefined) headers.authorization = auth
        if (contentType !== null) headers['content-type'] = contentType
        const response = await harness.current.request({ method, url: queryPart === '' ? pathPart : `${pathPart}?${queryPart}`,
          headers, ...(body === null || method === 'GET' || method === 'HEAD' ? {} : { payload: body }) })
        expect(response.status).toBeLessThan(500)
        if (response.status >= 400) expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(response.body).not.toMatch(/FST_ERR|"statusCode"|\bat .*\.(js|ts):\d+/)
      },
    ), { numRuns: 400 })
  })

  it('serves a page for every problem type it uses', async () => {
    const list = await harness.current.request({ url: '/api/v1/problems' })
    expect(list.status).toBe(200)
    for (const type of ['validation-error', 'invalid-api-key', 'insufficient-scope', 'not-found', 'method-not-allowed',
      'payload-too-large', 'unsupported-media-type', 'internal-error', 'service-unavailable']) {
      expect(list.body).toContain(`/api/v1/problems/${type}`)
      const page = await harness.current.request({ url: `/api/v1/problems/${type}` })
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toMatch(/^text\/html/)
    }
    expectProblem(await harness.current.request({ url: '/api/v1/problems/nope' }), 404, 'not-found')
    expectProblem(await harness.current.request({ url: '/api/v1/problems/toString' }), 404, 'not-found')
  })
})

describe('error responses when the database is unreachable', () => {
  it('answers 503 with Retry-After, without leaking the host or driver message', async () => {
    await withApp({ env: { DATABASE_URL: 'postgres://cp:secret@127.0.0.1:1/none' } }, async (app) => {
      const response = await app.inject({ url: '/api/v1/groups', headers: { authorization: `Bearer ${generateApiKey()}` } })
      expect(response.statusCode).toBe(503)
      expect(response.headers['retry-after']).toBe('5')
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      const body = response.json<ProblemBody>()
      expect(body.type).toBe('/api/v1/problems/service-unavailable')
      expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|secret|at .*\.js/)
    })
  })
})

describe('error responses on a real socket', () => {
  it('answers a request that is not HTTP with a problem document', async () => {
    const { connect } = await import('node:net')
    await withApp({}, async (app) => {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const address = app.server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GARBAGE\r\n\r\n'))
        let data = ''
        socket.on('data', (chunk: Buffer) => {
          data += chunk.toString()
        })
        socket.on('end', () => {
          resolve(data)
        })
        socket.on('error', reject)
      })
      expect(raw).toMatch(/^HTTP\/1\.1 400/)
      expect(raw).toContain('application/problem+json')
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as ProblemBody
      expect(body.type).toBe('/api/v1/problems/validation-error')
    })
  })
})

describeEachDatabase('unexpected failures', (dialect) => {
  let key = ''
  const harness = useHarness(dialect, async (h) => {
    key = (await h.createKey((await h.createClub('broken')).id)).key
  })

  it('answers 500 without SQL, table names or stack when a query fails', async () => {
    const h = harness.current
    expect((await h.request({ url: '/api/v1/news', key })).status).toBe(200)
    await h.context.db.schema.dropTable('news').execute()
    // Another page: the first may be answered from the response cache (dropping a table changes no data).
    const response = await h.request({ url: '/api/v1/news?limit=3', key })
    expect(response.status).toBe(500)
    const body = response.json<ProblemBody>()
    expect(body.type).toBe('/api/v1/problems/internal-error')
    expect(response.body).not.toMatch(/news_|select|relation|no such table|SQLITE|\bat\b.*:\d+/i)
  })
})

describe('problem mapping of body errors', () => {
  it('maps Fastify\'s body errors to 413, 415 and 400', async () => {
    const { toProblemError } = await import('../../src/http/problems.js')
    const fastifyError = (code: string, statusCode: number) => Object.assign(new Error('raw message'), { code, statusCode })
    expect(toProblemError(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413)).kind).toBe('payload-too-large')
    expect(toProblemError(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).kind).toBe('unsupported-media-type')
    expect(toProblemError(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400)).kind).toBe('validation-error')
    expect(toProblemError(fastifyError('FST_ERR_SOMETHING_NEW', 500)).kind).toBe('internal-error')
    expect(toProblemError(new TypeError('boom')).message).not.toContain('boom')
  })

  it('answers an oversized body with 413 through HTTP', async () => {
    await withApp({}, async (app) => {
      const response = await app.inject({ method: 'POST', url: '/api/v1/anything', payload: { x: 'y'.repeat(20_000) } })
      expect(response.statusCode).toBe(413)
      expect(response.json<ProblemBody>().type).toBe('/api/v1/problems/payload-too-large')
    })
  })
})

describe('request log', () => {
  it('writes one JSON line per request with id, route, status, club and key id, never the key', async () => {
    const { Writable } = await import('node:stream')
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
        done()
      },
    })
    await withApp({ env: { LOG_LEVEL: 'info' }, logDestination: stream }, async (app, context) => {
      const { createClub } = await import('../../src/services/clubs.js')
      const { createApiKey } = await import('../../src/services/api-keys.js')
      const club = await createClub(context.db, context.clock, { slug: 'log', name: 'Log', timezone: 'UTC' })
      const { key, record } = await createApiKey(context.db, context.clock, { clubId: club.id, name: 'log', scopes: ['read:groups'],
        expiresAt: null })
      const response = await app.inject({ url: '/api/v1/groups?limit=5', headers: { authorization: `Bearer ${key}` } })
      const mistyped = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`
      await app.inject({ url: '/api/v1/groups', headers: { authorization: `Bearer ${mistyped}` } })
      const requestLines = lines.filter((line) => line.msg === 'request')
      expect(requestLines).toHaveLength(2)
      expect(requestLines[0]).toMatchObject({ reqId: response.headers['x-request-id'], method: 'GET', path: '/api/v1/groups',
        route: '/api/v1/groups', status: 200, club_id: club.id, key_id: record.id })
      expect(requestLines[1]).toMatchObject({ status: 401 })
      expect(JSON.stringify(lines)).not.toContain(key.slice(4, 20))
    })
  })
})
