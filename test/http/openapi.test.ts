import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { useHarness } from '../helpers/harness.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'

interface Header { required?: boolean, description?: string, schema?: Record<string, unknown> }
interface Media { schema: unknown, example?: unknown, examples?: Record<string, { value: unknown }> }
interface Doc {
  openapi: string
  info: { version: string, description: string }
  tags: { name: string, description?: string }[]
  paths: Record<string, Record<string, {
    tags?: string[]
    description?: string
    security?: Record<string, string[]>[]
    parameters?: {
      name: string
      in: string
      description?: string
      example?: unknown
      schema: { minimum?: number, maximum?: number, default?: number, type?: string }
    }[]
    requestBody?: { content: Record<string, Media> }
    responses: Record<string, { headers?: Record<string, Header>, content?: Record<string, Media> }>
  }>>
  components: {
    schemas: Record<string, unknown>
    securitySchemes: Record<string, { type: string, scheme: string, description?: string }>
  }
}

const LISTS = Object.fromEntries(LIST_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint.scope]))

describe('the served OpenAPI description', () => {
  const harness = useHarness('sqlite')
  const load = async () => (await harness.current.request({ url: '/api/v1/openapi.json' })).json<Doc>()

  it('is OpenAPI 3.1 with version 1.2.0 and a bearer scheme', async () => {
    const doc = await load()
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.info.version).toBe('1.2.0')
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it.each(Object.entries(LISTS))('describes %s with its scope, parameters, responses and headers', async (path, scope) => {
    const operation = (await load()).paths[path]?.get
    expect(operation?.security).toEqual([{ bearerAuth: [scope] }])
    const parameters = Object.fromEntries((operation?.parameters ?? []).map((p) => [p.name, p]))
    expect(parameters.limit).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
    expect(parameters.offset).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 0, maximum: 10000, default: 0 } })
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(['200', '304', '400', '401', '403', '429', '500', '503'])
    expect(parameters['if-none-match']).toMatchObject({ in: 'header' })
    expect(Object.keys(operation?.responses['304']?.headers ?? {})).toEqual(expect.arrayContaining(['etag', 'x-ratelimit-remaining']))
    for (const status of ['200', '304', '400', '429']) {
      expect(Object.keys(operation?.responses[status]?.headers ?? {})).toEqual(expect.arrayContaining(['x-ratelimit-limit',
        'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-day-limit', 'x-ratelimit-day-remaining', 'x-ratelimit-day-reset',
        'ratelimit-policy', 'ratelimit']))
    }
    expect(operation?.responses['429']?.headers).toHaveProperty('retry-after')
    expect(Object.keys(operation?.responses['200']?.content ?? {})).toEqual(['application/json'])
    for (const status of ['400', '401', '403', '429', '500', '503']) {
      expect(operation?.responses[status]?.content?.['application/problem+json']?.schema).toEqual({ $ref: '#/components/schemas/Problem' })
    }
    expect(operation?.responses['401']?.headers).toHaveProperty('www-authenticate')
    expect(operation?.responses['503']?.headers).toHaveProperty('retry-after')
  })

  it('names every resource and the problem document once, under components', async () => {
    const doc = await load()
    for (const name of ['Group', 'Event', 'News', 'CompetitionResult', 'Problem', 'ListMeta']) {
      expect(doc.components.schemas).toHaveProperty(name)
    }
  })

  it('lists every problem type with its status', async () => {
    const doc = await load()
    for (const [type, status] of [['validation-error', 400], ['invalid-api-key', 401], ['insufficient-scope', 403],
      ['not-found', 404], ['method-not-allowed', 405], ['payload-too-large', 413], ['unsupported-media-type', 415],
      ['internal-error', 500], ['service-unavailable', 503]] as const) {
      expect(doc.info.description).toContain(`- \`/api/v1/problems/${type}\` — status ${status}: `)
    }
  })

  it('leaves out the 405 helper routes', async () => {
    const doc = await load()
    expect(Object.keys(doc.paths['/api/v1/groups'] ?? {})).toEqual(['get'])
  })

  it('declares every tag it uses, with a description', async () => {
    const doc = await load()
    const used = new Set(Object.values(doc.paths)
      .flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])))
    expect([...used].sort()).toEqual(['Calendar feeds', 'Club data', 'Courts (public)', 'Meta'])
    for (const tag of used) {
      expect(doc.tags.find((declared) => declared.name === tag)?.description, tag).toMatch(/\w{10}/)
    }
  })

  it('names every request and response body under components and refers to it', async () => {
    const doc = await load()
    const bodies = { ...Object.fromEntries(LIST_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint.envelope])),
      '/api/v1/public/{clubSlug}/courts': 'CourtAvailability' }
    for (const [path, name] of Object.entries(bodies)) {
      expect(doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema, path)
        .toEqual({ $ref: `#/components/schemas/${name}` })
    }
    const book = doc.paths['/api/v1/public/{clubSlug}/courts/book']?.post
    expect(book?.responses['201']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/BookingCreated' })
    expect(book?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/BookingRequest' })
    expect(doc.components.schemas.GroupList).toMatchObject({ properties: { data: { items: { $ref: '#/components/schemas/Group' } },
      meta: { $ref: '#/components/schemas/ListMeta' } } })
    // No anonymous object schema is left in a request or response body.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const media = [...Object.values(operation.responses), ...(operation.requestBody ? [operation.requestBody] : [])]
          .flatMap((body) => Object.entries(body.content ?? {}))
        for (const [type, { schema }] of media) {
          if ((schema as { type?: string }).type === 'object') {
            expect(path === '/api/v1/openapi.json', `${method} ${path} ${type}`).toBe(true)
          }
        }
      }
    }
  })

  it('marks the headers that are always sent as required, and documents the optional ones', async () => {
    const doc = await load()
    const required = (path: string, method: string, status: string) => Object
      .entries(doc.paths[path]?.[method]?.responses[status]?.headers ?? {})
      .filter(([, header]) => header.required === true).map(([name]) => name)
    const rateLimit = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-day-limit', 'x-ratelimit-day-remaining',
      'x-ratelimit-day-reset', 'ratelimit-policy', 'ratelimit']
    for (const path of Object.keys(LISTS)) {
      for (const status of ['200', '304', '400', '429']) {
        expect(required(path, 'get', status), `${path} ${status}`).toEqual(expect.arrayContaining(['x-request-id', ...rateLimit]))
      }
      for (const status of ['200', '304']) expect(required(path, 'get', status)).toEqual(expect.arrayContaining(['etag', 'cache-control']))
      for (const status of ['401', '403']) expect(required(path, 'get', status)).toEqual(['x-request-id', 'www-authenticate'])
      // Rate-limit headers are not sent before the key is known.
      for (const status of ['401', '403', '500', '503']) {
        expect(required(path, 'get', status).filter((name) => rateLimit.includes(name)), `${path} ${status}`).toEqual([])
      }
    }
    for (const [path, method] of [['/api/v1/groups', 'get'], ['/api/v1/public/{clubSlug}/courts', 'get'],
      ['/api/v1/public/{clubSlug}/courts/book', 'post']] as const) {
      for (const status of ['429', '503']) expect(required(path, method, status)).toContain('retry-after')
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.headers?.['x-request-id']?.required, `${method} ${path} ${status}`).toBe(true)
        }
      }
    }
    const courts = doc.paths['/api/v1/public/{clubSlug}/courts']?.get
    const book = doc.paths['/api/v1/public/{clubSlug}/courts/book']?.post
    for (const response of [...Object.values(courts?.responses ?? {}), ...Object.values(book?.responses ?? {})]) {
      expect(response.headers?.['access-control-allow-origin']).toMatchObject({ schema: { examples: ['*'] } })
      expect(response.headers?.['access-control-allow-origin']?.required).toBeUndefined()
      expect(response.headers?.['access-control-expose-headers']?.description).toMatch(/Access-Control-Allow-Origin/)
    }
    expect(book?.responses['201']?.headers?.['idempotent-replayed']).toMatchObject({ schema: { const: 'true' } })
    expect(book?.responses['201']?.headers?.['idempotent-replayed']?.required).toBeUndefined()
    expect(required('/api/v1/public/{clubSlug}/courts', 'get', '200')).toEqual(['x-request-id', 'etag', 'cache-control'])
  })

  it('shows the limits and the scopes to a reader', async () => {
    const doc = await load()
    for (const [path, scope] of Object.entries(LISTS)) {
      const operation = doc.paths[path]?.get
      expect(operation?.description).toContain(`scope \`${scope}\``)
      const parameters = Object.fromEntries((operation?.parameters ?? []).map((p) => [p.name, p]))
      expect(parameters.limit?.description).toContain('1–100, default 50')
      expect(parameters.offset?.description).toContain('0–10000, default 0')
    }
    const bearer = doc.components.securitySchemes.bearerAuth?.description ?? ''
    for (const scope of Object.values(LISTS)) expect(bearer).toContain(`\`${scope}\`: `)
  })

  it('gives every schema, parameter and body an example that its own schema accepts', async () => {
    const doc = await load()
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addSchema(doc, 'openapi.json')
    const failures: string[] = []
    let checked = 0
    const check = (pointer: string, value: unknown) => {
      const validate = ajv.getSchema(`openapi.json#${pointer}`) ?? ajv.compile({ $ref: `openapi.json#${pointer}` })
      checked++
      if (!validate(value)) failures.push(`${pointer}: ${JSON.stringify(validate.errors)}`)
    }
    const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')
    // Every `examples` array in a schema, wherever it is (components, parameters, headers).
    const walk = (node: unknown, pointer: string, inSchema: boolean) => {
      if (Array.isArray(node)) {
        node.forEach((child, index) => {
          walk(child, `${pointer}/${String(index)}`, inSchema)
        })
        return
      }
      if (typeof node !== 'object' || node === null) return
      const record = node as Record<string, unknown>
      if (inSchema && Array.isArray(record.examples)) {
        for (const example of record.examples) check(pointer, example)
      }
      for (const [key, child] of Object.entries(record)) {
        if (key === 'examples' && inSchema) continue
        if (key === 'example' || (key === 'examples' && !inSchema)) continue
        walk(child, `${pointer}/${escape(key)}`, inSchema || key === 'schema' || pointer === '/components/schemas')
      }
      // Media types and parameters: `example` and `examples.*.value` against the sibling schema.
      if (record.schema !== undefined) {
        if (record.example !== undefined) check(`${pointer}/schema`, record.example)
        if (record.examples !== undefined && !Array.isArray(record.examples)) {
          for (const named of Object.values(record.examples as Record<string, { value: unknown }>)) check(`${pointer}/schema`, named.value)
        }
      }
    }
    walk(doc, '', false)
    expect(failures).toEqual([])
    expect(checked).toBeGreaterThan(100)
    for (const name of ['Group', 'Event', 'News', 'CompetitionResult', 'CourtBookingSlot', 'CourtAvailability', 'BookingRequest',
      'BookingCreated', 'Problem', 'ListMeta', 'GroupList', 'EventList', 'NewsList', 'CompetitionResultList']) {
      expect((doc.components.schemas[name] as { examples?: unknown[] }).examples?.length, name).toBeGreaterThan(0)
    }
  })

  it('shows realistic booking examples: on the hour grid, with an offset, a real name and address', async () => {
    const doc = await load()
    const [booking] = (doc.components.schemas.BookingRequest as { examples: Record<string, string>[] }).examples
    expect(booking?.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\+0[12]:00$/)
    expect(Date.parse(booking?.end_time ?? '') - Date.parse(booking?.start_time ?? '')).toBe(3_600_000)
    expect(booking?.booker_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/)
    expect(booking?.booker_email).toMatch(/@example\.org$/)
    const parameters = Object.fromEntries((doc.paths['/api/v1/public/{clubSlug}/courts/book']?.post?.parameters ?? [])
      .map((p) => [p.name, p]))
    expect(parameters.clubSlug?.example).toBe('tc-riverside')
    expect(parameters['idempotency-key']?.example).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const problems = doc.paths['/api/v1/public/{clubSlug}/courts/book']?.post?.responses['400']?.content?.['application/problem+json']
    expect(Object.keys(problems?.examples ?? {})).toEqual(['invalid-booking', 'slot-conflict'])
  })

  it('describes the reference page, which the harness checks like any other answer', async () => {
    const doc = await load()
    expect(Object.keys(doc.paths['/api/v1/docs']?.get?.responses ?? {})).toEqual(['200', '304', '404'])
    const page = await harness.current.request({ url: '/api/v1/docs' })
    expect(page.status).toBe(200)
    expect(page.body).toContain('/api/v1/openapi.json')
  })
})

describe('the published import format', () => {
  it('docs/import-format.schema.json is the schema the import validates against', async () => {
    const { readFile } = await import('node:fs/promises')
    const { ImportDocument } = await import('../../src/schemas/import.js')
    const committed = JSON.parse(await readFile('docs/import-format.schema.json', 'utf8')) as unknown
    // Regenerate with: node bin/club-platform.js import-schema > docs/import-format.schema.json
    expect(committed).toEqual(JSON.parse(JSON.stringify(ImportDocument)))
  })
})
