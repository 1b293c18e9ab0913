/**
 * The OpenAPI 3.1 description of the dashboard API, served at /api/admin/v1/openapi.json: generated
 * by @fastify/swagger from the same route declarations and TypeBox schemas the server runs, in an
 * instance of its own (the public document leaves these routes out), so the dashboard's typed
 * client and the server cannot disagree.
 */
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.js'
import { FastPath } from '../../speed/fast-path.js'
import { adminRoutes } from './routes.js'
import { ADMIN_SCHEMAS } from '../../schemas/admin.js'
import { Problem } from '../../schemas/problem.js'
import { useServiceDateTime } from '../../schemas/formats.js'
import { ADMIN_PREFIX, sessionCookieName } from '../../http/dashboard-access.js'
import { LAZY_SERIALIZERS } from '../../http/serializers.js'
import { OPENAPI_DOCUMENT_RESPONSE, liftRequiredHeaders } from '../../http/openapi.js'
import { PROBLEM_KINDS, PROBLEM_TYPES, problemTypeUri } from '../../http/problem-types.js'

export const ADMIN_OPENAPI_PATH = `${ADMIN_PREFIX}/openapi.json`
export const ADMIN_API_VERSION = '1.0.0'

const problemCatalogue = PROBLEM_KINDS
  .map((kind) => `- \`${problemTypeUri(kind)}\` — status ${PROBLEM_TYPES[kind].status}: ${PROBLEM_TYPES[kind].description}`)
  .join('\n')

function description(cookie: string): string {
  return `The API of the club dashboard (docs/dashboard.md). It is for the dashboard served by this service: it is
authenticated by the session cookie \`${cookie}\` (HttpOnly, SameSite=Lax), not CORS-enabled, and every request that
changes something must come from the service's own origin (\`Origin\`). Club routes answer 404 for a club the signed-in
person does not administer, exactly as for one that does not exist.

## Errors

Every error is an RFC 9457 problem document, as in the public API:

${problemCatalogue}
`
}

/** Builds the document from the dashboard's routes, registered in an instance that serves nothing. */
export async function adminOpenApiDocument(context: AppContext): Promise<unknown> {
  const cookie = sessionCookieName(context.config.publicUrl)
  // It serves nothing: its routes' serialisers (src/http/serializers.ts) and validators are never needed. Compiling the
  // validators was a tenth of a server's start.
  const instance = Fastify({ logger: false, ajv: { onCreate: useServiceDateTime }, schemaController: LAZY_SERIALIZERS })
    .withTypeProvider<TypeBoxTypeProvider>()
  instance.setValidatorCompiler(() => () => true)
  await instance.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Club Platform dashboard API', version: ADMIN_API_VERSION, description: description(cookie),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'Account', description: 'Signing in and out; the signed-in person\'s sessions.' },
        { name: 'Developer access', description: 'The club\'s API keys (role admin or owner).' },
        { name: 'Team', description: 'The club\'s administrators, invitations and audit log (role owner).' },
        { name: 'Bookings', description: 'The club\'s booking rules, bookings and cancellations (role admin or owner); the export '
          + 'and erasure of what is held about an address (role owner).' },
        { name: 'Courts', description: 'The club\'s courts, their hours and slot length, blocks and reservations, and a week of '
          + 'a court (role admin or owner).' },
        { name: 'Content', description: 'The club\'s members, training groups, events, news and competition results (role '
          + 'editor, admin or owner); the club\'s data as an import file, down and up (role admin or owner).' },
        { name: 'Website', description: 'Booking on the club\'s website: the widget and the hosted booking page (role admin or owner).' },
        { name: 'Webhooks', description: 'The club\'s webhook endpoints, their secrets, test events and delivery logs (role '
          + 'admin or owner; docs/webhooks.md).' },
        { name: 'Calendar feeds', description: 'The club\'s private feeds of its bookings for calendar apps, and its public events '
          + 'feed (role admin or owner; docs/calendar-feeds.md).' },
        { name: 'Meta', description: 'This description.' },
      ],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: cookie,
        description: 'The session cookie set by signing in.' } } },
      security: [{ session: [] }],
    },
    transformObject: (document) => ('openapiObject' in document
      ? liftRequiredHeaders(structuredClone(document.openapiObject))
      : document.swaggerObject),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  })
  for (const schema of [Problem, ...ADMIN_SCHEMAS]) instance.addSchema(schema)
  // Routes that answer before routing register there too; this instance never listens.
  instance.decorate('fastPath', new FastPath(false, () => false))
  adminRoutes(instance, context, undefined)
  openApiRoute(instance, () => ({}))
  await instance.ready()
  const document = instance.swagger()
  await instance.close()
  return document
}

function openApiRoute(app: FastifyInstance, document: () => unknown): void {
  app.get(ADMIN_OPENAPI_PATH, {
    config: { access: { dashboard: 'anyone' } },
    schema: {
      operationId: 'getAdminOpenApiDescription',
      summary: 'This API description',
      description: 'The OpenAPI 3.1 description of the dashboard API.',
      tags: ['Meta'],
      security: [],
      response: { 200: OPENAPI_DOCUMENT_RESPONSE },
    },
  }, document)
}

export async function registerAdminOpenApi(app: FastifyInstance, context: AppContext): Promise<void> {
  const document = await adminOpenApiDocument(context)
  openApiRoute(app, () => document)
}
