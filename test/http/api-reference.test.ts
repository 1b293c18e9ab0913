/**
 * How /api/v1/docs is served: the page `npm run build` wrote (the global setup builds it), its
 * compressed variants, validators and security headers, and a problem answer when it was never built.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { REFERENCE_PAGE_FILE, REFERENCE_PAGE_TITLE } from '../../src/http/api-reference.js'
import { chooseEncoding, encodingChooser } from '../../src/http/static-page.js'
import { useHarness } from '../helpers/harness.js'

const DOCS = '/api/v1/docs'

describe('choosing a content encoding', () => {
  const both = new Set(['br', 'gzip'] as const)
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['deflate', undefined],
    ['x-gzip', 'gzip'],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(chooseEncoding(header, both)).toBe(expected)
  })

  it('offers only what was built', () => {
    expect(chooseEncoding('br, gzip', new Set(['gzip'] as const))).toBe('gzip')
    expect(chooseEncoding('br', new Set())).toBeUndefined()
  })

  it('answers the same when it remembers its answers per header, past the headers it keeps', () => {
    const choose = encodingChooser(both)
    const gzipOnly = encodingChooser(new Set(['gzip'] as const))
    // 300 distinct headers, each asked three times, interleaved: the remembered answers are cleared on the way.
    const headers = Array.from({ length: 300 }, (_, i) => i % 3 === 0
      ? `br;q=0.${String(i % 10)}, gzip;q=0.5`
      : i % 3 === 1 ? `deflate, x-gzip;q=0.${String(i)}` : `identity;q=${String(i)}`)
    for (let round = 0; round < 3; round++) {
      for (const header of [...headers, undefined, '', 'br', 'identity', `${' '.repeat(200)}gzip`, `br;q=0, ${'x'.repeat(200)}, gzip`]) {
        expect(choose(header)).toBe(chooseEncoding(header, both))
        expect(gzipOnly(header)).toBe(chooseEncoding(header, new Set(['gzip'] as const)))
      }
    }
  })
})

describe('the API reference page', () => {
  const harness = useHarness('sqlite')

  it('is the built page, titled for the service, as HTML with its security headers', async () => {
    const page = await harness.current.request({ url: DOCS })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-encoding']).toBeUndefined()
    expect(page.body).toBe(await fs.readFile(REFERENCE_PAGE_FILE, 'utf8'))
    expect(page.body).toContain(`<title>${REFERENCE_PAGE_TITLE}</title>`)
    expect(page.body).not.toContain('Swagger UI')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers.vary).toBe('Accept-Encoding')
    expect(page.headers['cache-control']).toBe('public, no-cache')
    expect(page.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
  })

  it('has a policy that works over plain HTTP on any host and admits exactly the page\'s inline scripts', async () => {
    const page = await harness.current.request({ url: DOCS })
    const policy = String(page.headers['content-security-policy'])
    expect(policy).not.toContain('upgrade-insecure-requests')
    expect(policy).not.toContain('unsafe-eval')
    const directives = Object.fromEntries(policy.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/)
      return [name, values]
    }))
    expect(directives).toMatchObject({
      'default-src': ['\'none\''],
      'style-src': ['\'unsafe-inline\''],
      'img-src': ['\'self\'', 'data:'],
      'connect-src': ['\'self\''],
      'worker-src': ['blob:'],
      'frame-ancestors': ['\'self\''],
      'base-uri': ['\'none\''],
      'object-src': ['\'none\''],
    })
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '')
    expect(scripts).toHaveLength(2)
    // No other script element: outside the two scripts' contents there are exactly two script tags.
    expect(page.body.replace(/<script>[\s\S]*?<\/script>/g, '').match(/<script/gi)).toBeNull()
    expect(directives['script-src']?.sort()).toEqual(scripts.map((script) =>
      `'sha256-${createHash('sha256').update(script).digest('base64')}'`).sort())
  })

  it('embeds exactly the OpenAPI document the server serves, and links to it', async () => {
    const page = await harness.current.request({ url: DOCS })
    const served = (await harness.current.request({ url: '/api/v1/openapi.json' })).json()
    const start = page.body.indexOf('Redoc.hydrate(') + 'Redoc.hydrate('.length
    const end = page.body.indexOf(', document.getElementById(\'redoc\'));', start)
    const state = JSON.parse(page.body.slice(start, end)) as { spec: { data: unknown } }
    expect(state.spec.data).toEqual(served)
    expect(page.body).toMatch(/href="\/api\/v1\/openapi\.json"/)
  })

  it.each([['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const)(
    'sends the %s variant when the client accepts it, with a tag of its own', async (encoding, decompress) => {
      const identity = await harness.current.request({ url: DOCS })
      const response = await harness.current.app.inject({ url: DOCS, headers: { 'accept-encoding': encoding } })
      expect(harness.current.openapi.check({ method: 'GET', path: DOCS, status: response.statusCode, headers: response.headers,
        body: response.body })).toEqual([])
      expect(response.headers['content-encoding']).toBe(encoding)
      expect(response.headers.vary).toBe('Accept-Encoding')
      expect(response.rawPayload.length).toBeLessThan(identity.body.length / 3)
      expect(decompress(response.rawPayload).toString('utf8')).toBe(identity.body)
      expect(response.headers.etag).not.toBe(identity.headers.etag)
      expect(response.headers.etag).toBe(String(identity.headers.etag).replace(/"$/, `-${encoding}"`))
    })

  it('answers HEAD like GET without a body', async () => {
    const get = await harness.current.app.inject({ url: DOCS, headers: { 'accept-encoding': 'gzip' } })
    const head = await harness.current.request({ method: 'HEAD', url: DOCS, headers: { 'accept-encoding': 'gzip' } })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length))
    for (const name of ['content-type', 'content-encoding', 'etag', 'vary', 'cache-control', 'content-security-policy']) {
      expect(head.headers[name], name).toBe(get.headers[name])
    }
  })

  it('answers 304 to a current tag of the same representation, and the page to a stale one', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const first = await harness.current.request({ url: DOCS, headers: { 'accept-encoding': encoding } })
      const etag = String(first.headers.etag)
      const again = await harness.current.request({ url: DOCS, headers: { 'accept-encoding': encoding, 'if-none-match': etag } })
      expect(again.status, encoding).toBe(304)
      expect(again.body).toBe('')
      expect(again.headers.etag).toBe(etag)
      expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy'])
      const stale = await harness.current.request({ url: DOCS, headers: { 'accept-encoding': encoding, 'if-none-match': '"stale"' } })
      expect(stale.status).toBe(200)
    }
  })

  it('refuses other methods with 405', async () => {
    const post = await harness.current.request({ method: 'POST', url: DOCS })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })

  it('answers a problem naming the build command when the page was never built, and the server still starts', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-no-docs-'))
    const app = await buildApp(harness.current.context, { logger: false, referencePage: { file: path.join(empty, 'index.html') } })
    try {
      await app.ready()
      const response = await app.inject({ url: DOCS })
      expect(harness.current.openapi.check({ method: 'GET', path: DOCS, status: response.statusCode, headers: response.headers,
        body: response.body })).toEqual([])
      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(response.json()).toMatchObject({ type: '/api/v1/problems/not-found', status: 404, instance: DOCS,
        detail: expect.stringContaining('npm run build') as unknown })
      expect((await app.inject({ url: '/api/v1/openapi.json' })).statusCode).toBe(200)
    } finally {
      await app.close()
      await fs.rm(empty, { recursive: true, force: true })
    }
  })
})
