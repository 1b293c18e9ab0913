import { describe, expect, it } from 'vitest'
import { useHarness } from './helpers/harness.js'

interface Doc {
  openapi: string
  info: { version: string, description: string }
  paths: Record<string, Record<string, {
    security?: Record<string, string[]>[]
    parameters?: { name: string, in: string, schema: { minimum?: number, maximum?: number, default?: number, type?: string } }[]
    responses: Record<string, { headers?: Record<string, unknown>, content?: Record<string, { schema: unknown }> }>
  }>>
  components: { schemas: Record<string, unknown>, securitySchemes: Record<string, { type: string, scheme: string }> }
}

const LISTS = {
  '/api/v1/groups': 'read:groups',
  '/api/v1/events': 'read:events',
  '/api/v1/news': 'read:news',
  '/api/v1/competition-results': 'read:competition_results',
} as const

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
    const { ImportDocument } = await import('../src/schemas/import.js')
    const committed = JSON.parse(await readFile('docs/import-format.schema.json', 'utf8')) as unknown
    // Regenerate with: node bin/club-platform.js import-schema > docs/import-format.schema.json
    expect(committed).toEqual(JSON.parse(JSON.stringify(ImportDocument)))
  })
})
