/**
 * Checks a response against the OpenAPI document the service itself serves: the status must be
 * documented for the operation, the content type must match, every header documented as
 * `required` must be present, every documented header that is present must fit its schema, and
 * the body must validate against the schema (JSON Schema 2020-12, as OpenAPI 3.1).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'

interface MediaType { schema?: unknown }
interface HeaderObject { required?: boolean, schema?: { type?: string, const?: string | number, enum?: (string | number)[] } }
interface ResponseObject { headers?: Record<string, HeaderObject>, content?: Record<string, MediaType> }
interface Operation { responses?: Record<string, ResponseObject> }
export interface OpenApiDocument {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, unknown> }
}

export interface CheckedResponse {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly headers: Record<string, string | string[] | number | undefined>
  readonly body: string
}

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true })
  private readonly validators = new Map<string, ValidateFunction>()
  private readonly templates: { template: string, pattern: RegExp }[]

  constructor(readonly document: OpenApiDocument) {
    addFormats.default(this.ajv)
    this.ajv.addSchema(document, 'openapi.json')
    this.templates = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
  }

  /** Returns the problems found; an empty list means the response conforms. */
  check(response: CheckedResponse): string[] {
    // Dot segments are resolved by HTTP clients (and by app.inject) before the server sees the path.
    const path = new URL(response.path.split('?')[0] ?? '', 'http://localhost').pathname
    const method = response.method.toLowerCase() === 'head' ? 'get' : response.method.toLowerCase()
    // As the router does: a literal segment wins over a parameter (`/results/csv` before `/results/{result}`).
    const template = this.templates.filter((candidate) => candidate.pattern.test(path))
      .sort((a, b) => a.template.split('{').length - b.template.split('{').length)[0]?.template
    const operation = template === undefined ? undefined : this.document.paths[template]?.[method]
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0]?.trim() ?? ''
    if (operation === undefined) {
      // Undocumented paths and methods may only answer with a problem document.
      if (response.status < 400) return [`${method.toUpperCase()} ${path} answered ${response.status} but is not documented`]
      if (contentType !== 'application/problem+json') return [`${path}: error content type is ${contentType}`]
      return this.validate('#/components/schemas/Problem', response.method === 'HEAD' ? undefined : response.body)
    }
    const documented = operation.responses?.[String(response.status)]
    const pointer = `#/paths/${escape(template ?? '')}/${method}/responses/${response.status}`
    if (documented === undefined) return [`${method.toUpperCase()} ${template ?? path}: status ${response.status} is not documented`]
    const problems: string[] = []
    for (const [header, spec] of Object.entries(documented.headers ?? {})) {
      const value = response.headers[header.toLowerCase()]
      if (value === undefined) {
        if (spec.required === true) problems.push(`required header ${header} is missing`)
        continue
      }
      const problem = headerProblem(String(value), spec.schema ?? {})
      if (problem !== undefined) problems.push(`header ${header}: ${problem}`)
    }
    const media = documented.content ?? {}
    if (Object.keys(media).length === 0) return problems
    if (!(contentType in media)) return [...problems, `content type ${contentType} not documented (${Object.keys(media).join(', ')})`]
    if (response.method === 'HEAD' || media[contentType]?.schema === undefined) return problems
    return [...problems, ...this.validate(`${pointer}/content/${escape(contentType)}/schema`, response.body)]
  }

  private validate(pointer: string, body: string | undefined): string[] {
    if (body === undefined) return []
    let validate = this.validators.get(pointer)
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `openapi.json${pointer}` })
      this.validators.set(pointer, validate)
    }
    let value: unknown = body
    try {
      value = JSON.parse(body) as unknown
    } catch {
      // a non-JSON body is validated as a string
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`)
  }
}

/** Header values are text: the schema's type, const and enum are checked on that text. */
function headerProblem(value: string, schema: NonNullable<HeaderObject['schema']>): string | undefined {
  if (schema.type === 'integer' && !/^-?[0-9]+$/.test(value)) return `"${value}" is not an integer`
  if (schema.const !== undefined && value !== String(schema.const)) return `"${value}" is not "${String(schema.const)}"`
  if (schema.enum !== undefined && !schema.enum.map(String).includes(value)) return `"${value}" is not one of ${schema.enum.join(', ')}`
  return undefined
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}
