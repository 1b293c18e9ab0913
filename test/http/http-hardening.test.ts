/**
 * What a confused or hostile client sends at the HTTP layer, over real sockets where the bytes on
 * the wire matter: every answer is a problem document with the right status (also while stopping,
 * without Host, for slow headers), a client hanging up is not a database outage, keys never come
 * back in an answer or a log line, ambiguous credentials are refused, and access fails closed.
 */
import { generateToken } from '../../src/domain/secret-token.js'
import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import type { AppOptions } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext } from '../../src/context.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { createClub } from '../../src/services/clubs.js'
import { describePostgres } from '../helpers/databases.js'
import { START, useHarness } from '../helpers/harness.js'

interface Problem { type: string, status: number, detail: string, instance: string, request_id: string }
interface LogLine { level: number, msg: string, [field: string]: unknown }

interface Running {
  readonly app: FastifyInstance
  readonly context: AppContext
  readonly port: number
  readonly lines: LogLine[]
  readonly logText: () => string
  readonly key: string
  readonly otherKey: string
}

async function withServer(options: Pick<AppOptions, 'headersTimeoutMs'>, test: (running: Running) => Promise<void>): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-hardening-'))
  const context = await createContext(readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BOOKING_RATE_CAPACITY: '1000' }),
    { clock: new ManualClock(START), migrate: true })
  const lines: LogLine[] = []
  let text = ''
  const app = await buildApp(context, { ...options, logDestination: { write(line: string) {
    text += line
    for (const part of line.split('\n')) if (part !== '') lines.push(JSON.parse(part) as LogLine)
  } } })
  const club = await createClub(context.db, context.clock, { slug: 'hardened', name: 'Hardened', timezone: 'UTC' })
  const other = await createClub(context.db, context.clock, { slug: 'other', name: 'Other', timezone: 'UTC' })
  const { key } = await createApiKey(context.db, context.clock, { clubId: club.id, name: 'site', scopes: ['read:groups'], expiresAt: null,
    limits: { dailyQuota: 1 } })
  const { key: otherKey } = await createApiKey(context.db, context.clock, { clubId: other.id, name: 'site', scopes: ['read:groups'],
    expiresAt: null })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  try {
    await test({ app, context, port: address.port, lines, logText: () => text, key, otherKey })
  } finally {
    await app.close()
    await context.close()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

interface RawResponse { status: number, headers: Record<string, string>, body: string }

/** Sends bytes as given and reads every response until the server closes the connection. */
async function raw(port: number, send: (socket: net.Socket) => Promise<void> | void): Promise<RawResponse[]> {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let received = ''
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    resolve()
  }))
  socket.on('error', () => undefined)
  await send(socket)
  await closed
  return parseResponses(received)
}

function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = []
  let rest = text
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n')
    const [statusLine = '', ...headerLines] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(headerLines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    }))
    const length = Number(headers['content-length'] ?? 0)
    const body = rest.slice(end + 4, end + 4 + length)
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body })
    rest = rest.slice(end + 4 + length)
  }
  return responses
}

function expectProblem(response: RawResponse | undefined, status: number, type: string): Problem {
  expect(response?.status, response?.body).toBe(status)
  expect(response?.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(response?.headers['x-content-type-options']).toBe('nosniff')
  const problem = JSON.parse(response?.body ?? '') as Problem
  expect(problem).toMatchObject({ type: `/api/v1/problems/${type}`, status })
  expect(problem.request_id).toBe(response?.headers['x-request-id'])
  return problem
}

describe('every answer is a problem document', () => {
  it('a request reaching the server after it began to close gets a 503 problem with Retry-After', async () => {
    await withServer({}, async ({ app, port }) => {
      let closing: Promise<undefined> | undefined
      const responses = await raw(port, async (socket) => {
        // The first request is in flight (its body incomplete) when the server closes; the second is pipelined behind it.
        socket.write('POST /api/v1/public/hardened/courts/book HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
          + 'Content-Length: 2\r\n\r\n{')
        await new Promise((resolve) => setTimeout(resolve, 50))
        closing = app.close()
        await new Promise((resolve) => setTimeout(resolve, 50))
        socket.write('}GET /api/v1/public/hardened/courts HTTP/1.1\r\nHost: x\r\n\r\n')
      })
      await closing
      expect(responses).toHaveLength(2)
      expect(responses[0]?.status).toBe(400)
      expectProblem(responses[1], 503, 'service-unavailable')
      expect(responses[1]?.headers['retry-after']).toBe('1')
      expect(responses[1]?.headers.connection).toBe('close')
    })
  })

  it('an HTTP/1.1 request without Host gets a 400 problem naming the header', async () => {
    await withServer({}, async ({ port }) => {
      const [response] = await raw(port, (socket) => {
        socket.write('GET /api/v1/public/hardened/courts HTTP/1.1\r\nConnection: close\r\n\r\n')
      })
      const problem = expectProblem(response, 400, 'validation-error')
      expect(problem.detail).toBe('Header "Host" is required in HTTP/1.1.')
      // HTTP/1.0 has no Host requirement.
      const [old] = await raw(port, (socket) => {
        socket.write('GET /healthz HTTP/1.0\r\n\r\n')
      })
      expect(old?.status).toBe(200)
    })
  })

  it('a client that never finishes its headers gets a 408 problem', async () => {
    await withServer({ headersTimeoutMs: 200 }, async ({ port }) => {
      const [response] = await raw(port, (socket) => {
        socket.write('GET /api/v1/public/hardened/courts HTTP/1.1\r\nHost: x\r\nX-Slow: ')
      })
      const problem = expectProblem(response, 408, 'request-timeout')
      expect(problem.detail).toBe('The request did not arrive in time.')
    })
  })

  it('garbage is still a 400 problem with nosniff', async () => {
    await withServer({}, async ({ port }) => {
      const [response] = await raw(port, (socket) => {
        socket.write('NOT HTTP AT ALL\r\n\r\n')
      })
      expectProblem(response, 400, 'validation-error')
    })
  })
})

describe('a client hanging up', () => {
  it('is counted as a client abort, not answered 503 nor logged as an error', async () => {
    await withServer({}, async ({ app, port, lines }) => {
      await raw(port, (socket) => {
        socket.end('POST /api/v1/public/hardened/courts/book HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
          + 'Content-Length: 100\r\n\r\n{"co')
      })
      await expect.poll(() => lines.filter((line) => line.msg === 'client closed the connection mid-request').length).toBe(1)
      expect(lines.filter((line) => line.level >= 50)).toEqual([])
      const metrics = await app.inject({ url: '/metrics' })
      expect(metrics.body).toMatch(/^http_client_aborts_total 1$/m)
    })
  })
})

describe('bodies', () => {
  it('answers 415 for any body that is not JSON, and accepts JSON with a charset', async () => {
    await withServer({}, async ({ app }) => {
      const post = (contentType: string | undefined, payload: string) => app.inject({
        method: 'POST', url: '/api/v1/public/hardened/courts/book', payload,
        headers: contentType === undefined ? {} : { 'content-type': contentType },
      })
      for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
        'application/xml', 'application/problem+json']) {
        const response = await post(type, '{"court_id":"x"}')
        expect(response.statusCode, type).toBe(415)
        expect(response.json<Problem>().type).toBe('/api/v1/problems/unsupported-media-type')
      }
      const json = await post('application/json; charset=utf-8', '{"court_id":"x"}')
      expect(json.statusCode).toBe(400)
      expect(json.json<Problem>().type).toBe('/api/v1/problems/invalid-booking')
    })
  })
})

describe('keys are never echoed or logged', () => {
  it('redacts a key in a path segment, a parameter name or percent-encoded, from the answer and the log', async () => {
    await withServer({}, async ({ app, key, logText }) => {
      const urls = [`/api/v1/groups/${key}`, `/api/v1/groups?${key}=1`, `/api/v1/public/${key}/courts`,
        `/api/v1/groups/${key.replace('_', '%5F')}`, `/api/v1/groups/${key.toUpperCase()}`, `/api/v1/${key}`]
      for (const url of urls) {
        const response = await app.inject({ url, headers: { authorization: `Bearer ${key}` } })
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400)
        expect(response.body.toLowerCase(), url).not.toContain(key.slice(4).toLowerCase())
        expect(response.body, url).toContain('cpk_[redacted]')
      }
      expect(logText()).toContain('cpk_[redacted]')
      expect(logText().toLowerCase()).not.toContain(key.slice(4).toLowerCase())
    })
  })

  it('keeps a private calendar feed\'s address out of the log, whether the feed exists or not', async () => {
    await withServer({}, async ({ app, logText }) => {
      const token = generateToken('feed')
      const response = await app.inject({ url: `/calendar/${token}.ics` })
      expect(response.statusCode).toBe(404)
      expect(response.body).not.toContain(token.slice(4))
      expect(logText()).toContain(`/calendar/cpf_[redacted]`)
      expect(logText()).not.toContain(token.slice(4))
    })
  })
})

describe('ambiguous credentials', () => {
  it('refuses two Authorization headers with a 400, whichever comes first', async () => {
    await withServer({}, async ({ port, key, otherKey }) => {
      for (const [first, second] of [[key, otherKey], [otherKey, key], [key, key]]) {
        const [response] = await raw(port, (socket) => {
          socket.write(`GET /api/v1/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${String(first)}\r\n`
            + `authorization: Bearer ${String(second)}\r\nConnection: close\r\n\r\n`)
        })
        const problem = expectProblem(response, 400, 'validation-error')
        expect(problem.detail).toBe('Header "Authorization" is sent more than once; send exactly one bearer key.')
      }
      const [single] = await raw(port, (socket) => {
        socket.write(`GET /api/v1/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${otherKey}\r\nConnection: close\r\n\r\n`)
      })
      expect(single?.status).toBe(200)
      expect(single?.headers['x-content-type-options']).toBe('nosniff')
    })
  })
})

describe('nosniff on every answer', () => {
  it('is sent with lists, pages, problems, refusals, 404, 405, probes and metrics', async () => {
    await withServer({}, async ({ app, key }) => {
      const requests = [
        { url: '/api/v1/groups', headers: { authorization: `Bearer ${key}` } },
        { url: '/api/v1/groups' },
        { url: '/api/v1/groups', headers: { authorization: `Bearer ${key}` } }, // over the daily quota of 1: 429
        { url: '/api/v1/public/hardened/courts' },
        { url: '/api/v1/openapi.json' },
        { url: '/api/v1/docs' },
        { url: '/api/v1/problems' },
        { url: '/nowhere' },
        { url: '/api/v1/groups', method: 'DELETE' as const },
        { url: '/healthz' },
        { url: '/metrics' },
        { url: '/api/v1/public/hardened/courts', method: 'OPTIONS' as const,
          headers: { 'origin': 'https://club.example', 'access-control-request-method': 'GET' } },
      ]
      const statuses: number[] = []
      for (const request of requests) {
        const response = await app.inject(request)
        statuses.push(response.statusCode)
        expect(response.headers['x-content-type-options'], `${request.method ?? 'GET'} ${request.url}`).toBe('nosniff')
      }
      expect(statuses).toContain(429)
      expect(statuses).toContain(405)
      const page = await app.inject({ url: '/api/v1/docs' })
      if (page.statusCode === 200) expect(page.headers['referrer-policy']).toBe('no-referrer')
    })
  })
})

describe('the dashboard API is never cached', () => {
  it('sends Cache-Control: no-store with every answer under its prefix: pages, problems, 401, 404, 405 and preflights', async () => {
    await withServer({}, async ({ app, context }) => {
      const sameOrigin = { origin: context.config.publicUrl.origin }
      const requests = [
        { url: '/api/admin/v1/openapi.json' },
        { url: '/api/admin/v1/me' },
        { url: '/api/admin/v1/nowhere' },
        { url: '/api/admin/v1/clubs/hardened/nothing-here' },
        { url: '/api/admin/v1/me', method: 'PATCH' as const },
        { url: '/api/admin/v1/me', method: 'OPTIONS' as const,
          headers: { 'origin': 'https://club.example', 'access-control-request-method': 'GET' } },
        { url: '/api/admin/v1/sign-in', method: 'OPTIONS' as const },
        { url: '/api/admin/v1/sign-in', method: 'POST' as const, payload: '{}' },
        { url: '/api/admin/v1/sign-in', method: 'POST' as const, payload: '{', headers: { ...sameOrigin, 'content-type': 'application/json' } },
        { url: '/api/admin/v1/sign-in', method: 'POST' as const, payload: 'x', headers: { ...sameOrigin, 'content-type': 'text/plain' } },
        { url: '/api/admin/v1/me?x=1' },
      ]
      const statuses = new Set<number>()
      for (const request of requests) {
        const response = await app.inject(request)
        statuses.add(response.statusCode)
        expect(response.headers['cache-control'], `${request.method ?? 'GET'} ${request.url} → ${String(response.statusCode)}`)
          .toBe('no-store')
      }
      expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 405, 415])
    })
  })
})

describe('access fails closed', () => {
  it('a route that does not declare its access stops the app from starting, even under the public prefix', async () => {
    for (const [method, url] of [['GET', '/api/v1/undeclared'], ['GET', '/api/v1/public/*'], ['POST', '/api/v1/public/*']] as const) {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-closed-'))
      const context = await createContext(readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { migrate: true })
      const app = await buildApp(context, { logger: false })
      const start = async () => {
        app.route({ method, url, handler: () => ({ leaked: true }) })
        await app.ready()
      }
      await expect(start(), `${method} ${url}`).rejects.toThrow(`Route ${method} ${url} does not declare config.access`)
      await app.close().catch(() => undefined)
      await context.close()
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })
})

describePostgres('a 503 after admission', () => {
  const harness = useHarness('postgres')

  it('gives the day\'s unit back', async () => {
    const h = harness.current
    const club = await h.createClub('refund')
    const { key } = await createApiKey(h.context.db, h.clock, { clubId: club.id, name: 'site', scopes: ['read:groups'], expiresAt: null,
      limits: { dailyQuota: 1 } })
    const lock = new pg.Client({ connectionString: h.database.env.DATABASE_URL })
    // A second session: inside the locking transaction pg_stat_activity would stay as first read.
    const observer = new pg.Client({ connectionString: h.database.env.DATABASE_URL })
    await lock.connect()
    await observer.connect()
    try {
      // The listing waits for the lock; cancelling it is the statement timeout an overloaded database gives (57014): a 503.
      await lock.query('begin; lock table groups in access exclusive mode')
      const answer = h.request({ url: '/api/v1/groups', key })
      await expect.poll(async () => (await observer.query<{ cancelled: boolean }>('select pg_cancel_backend(pid) as cancelled '
        + 'from pg_stat_activity where wait_event_type = \'Lock\' and datname = current_database()')).rows.length, { timeout: 5_000 })
        .toBeGreaterThan(0)
      const outage = await answer
      expect(outage.status).toBe(503)
      await lock.query('rollback')
    } finally {
      await lock.end()
      await observer.end()
    }
    // The key's daily quota is 1: the unit the 503 took came back, so this call is admitted, and the next is not.
    expect((await h.request({ url: '/api/v1/groups', key })).status).toBe(200)
    const spent = await h.request({ url: '/api/v1/groups', key })
    expect(spent.status).toBe(429)
    expect(spent.json<Problem>().type).toBe('/api/v1/problems/daily-quota-exhausted')
  })
})
