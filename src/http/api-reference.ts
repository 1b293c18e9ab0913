/**
 * The API reference at /api/v1/docs: one HTML page that `npm run build` prerenders with Redoc from
 * the OpenAPI document this server serves (src/tools/build-docs.ts). Every operation is in the
 * HTML itself, so the page reads without JavaScript; the scripts only add search and navigation.
 * Nothing is loaded from another origin, and the policy below works over plain HTTP on any host.
 */
import { fileURLToPath } from 'node:url'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { conditionalHeaders, IF_NONE_MATCH } from './conditional.js'
import { DOCS_PATH, OPENAPI_PATH } from './openapi.js'
import { header, problemResponse, REQUEST_ID_HEADER } from './responses.js'
import { loadStaticPage, serveStaticPage } from './static-page.js'

/** dist/api-docs/index.html, from src/ (tests) as from dist/ (the server): both sit beside dist/. */
export const REFERENCE_PAGE_FILE = fileURLToPath(new URL('../../dist/api-docs/index.html', import.meta.url))

export const REFERENCE_PAGE_TITLE = 'Club Platform API reference'

/**
 * The page's Content-Security-Policy. Scripts: only the page's own inline scripts, by hash.
 * Styles: Redoc's styled-components write <style> elements and style attributes at run time.
 * Search runs in a worker Redoc starts from a blob. No upgrade-insecure-requests: the page is
 * served over plain HTTP too, on whatever address the server has.
 */
export function referencePagePolicy(scriptHashes: readonly string[]): string {
  return [
    'default-src \'none\'',
    `script-src ${scriptHashes.map((hash) => `'${hash}'`).join(' ')}`,
    'style-src \'unsafe-inline\'',
    'img-src \'self\' data:',
    'connect-src \'self\'',
    'worker-src blob:',
    'frame-ancestors \'self\'',
    'base-uri \'none\'',
    'form-action \'none\'',
    'object-src \'none\'',
  ].join('; ')
}

/** The page describes the running version: revalidated each time, which the ETag makes a cheap 304. */
const CACHE_CONTROL = 'public, no-cache'
const NOT_BUILT = 'The API reference page has not been built; run `npm run build`.'

export interface ReferencePageOptions {
  /** Where the built page is; REFERENCE_PAGE_FILE unless a test says otherwise. */
  readonly file?: string
}

export async function registerApiReference(app: FastifyInstance, options: ReferencePageOptions = {}): Promise<void> {
  const file = options.file ?? REFERENCE_PAGE_FILE
  const page = await loadStaticPage(file)
  if (page === undefined) app.log.warn({ file }, 'the API reference page is not built; /api/v1/docs answers 404 until `npm run build`')
  const pageHeaders = {
    ...REQUEST_ID_HEADER,
    ...conditionalHeaders(CACHE_CONTROL),
    'vary': header(Type.String({ description: 'Always `Accept-Encoding`.', examples: ['Accept-Encoding'] }), { required: true }),
    'content-security-policy': header(Type.String({ description: 'Only the page\'s own inline scripts run; nothing is loaded '
      + 'from another origin.' }), { required: true }),
  }
  app.get(DOCS_PATH, {
    config: { access: { public: true } },
    schema: {
      operationId: 'getApiReference',
      summary: 'This API reference',
      description: `This page, rendered with Redoc from [the OpenAPI description](${OPENAPI_PATH}) when the service is built. `
        + 'It is sent brotli- or gzip-compressed when the client accepts it.',
      tags: ['Meta'],
      security: [],
      headers: IF_NONE_MATCH,
      response: {
        200: {
          description: 'The reference page.',
          headers: {
            ...pageHeaders,
            'content-encoding': header(Type.String({ enum: ['br', 'gzip'], description: 'Present when the page is sent compressed.' })),
          },
          content: { 'text/html': { schema: Type.String() } },
        },
        304: { description: 'The copy named in If-None-Match is current.', type: 'null', headers: pageHeaders },
        404: problemResponse('The page has not been built on this installation (`npm run build` builds it).', {},
          [{ kind: 'not-found', instance: DOCS_PATH, detail: NOT_BUILT }]),
      },
    },
  }, serveStaticPage(page, {
    contentType: 'text/html; charset=utf-8',
    cacheControl: CACHE_CONTROL,
    missing: NOT_BUILT,
  }))
}
