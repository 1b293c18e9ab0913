/**
 * Serves the booking widget (built from widget/ by `npm run build` into dist/widget/v1/) to any
 * website, at two addresses of the same file:
 *
 * - `/widget/v1/club-booking.js`, the address of the two-line snippet: cached for five minutes and
 *   revalidated by ETag, so a fixed widget reaches every site within minutes;
 * - `/widget/v1/club-booking-<hash>.js`, named by its content: cached for a year, immutable, for
 *   pages that pin the build with Subresource Integrity (`integrity`, as the dashboard prints it).
 *
 * Both are precompressed (brotli, gzip), readable from every origin (CORS: a module script from
 * another origin needs it), and set no cookies. Beside them, `/widget/v1/messages/<lang>.json`: the
 * texts of each language but English (built in), which the widget fetches when it speaks one.
 * The `v1` in the path is the widget's interface
 * (its element, attributes, custom properties and parts); a change that breaks a page would be v2.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { GUEST_LANGUAGES } from '../domain/languages.js'
import { ProblemError } from './problems.js'
import { fastStaticPage, precompressed, serveStaticPage } from './static-page.js'
import type { StaticPage } from './static-page.js'

export const WIDGET_DIR = fileURLToPath(new URL('../../dist/widget/v1/', import.meta.url))
export const WIDGET_PATH = '/widget/v1/club-booking.js'
const NOT_BUILT = 'The booking widget has not been built on this installation; run `npm run build`.'
const SCRIPT = 'text/javascript; charset=utf-8'

/** The languages whose texts the widget fetches (widget/public/messages/<lang>.json): all six, English too. */
export const WIDGET_MESSAGE_LANGUAGES = GUEST_LANGUAGES

/** The built widget: its pinned address and its Subresource Integrity value. */
export interface WidgetBuild {
  readonly page: StaticPage
  /** Each fetched language's texts, by file name (`fr.json`). */
  readonly messages: ReadonlyMap<string, StaticPage>
  /** `/widget/v1/club-booking-<hash>.js`. */
  readonly pinnedPath: string
  /** `sha384-…` of the file, for the script element's integrity attribute. */
  readonly integrity: string
}

export async function loadWidget(directory = WIDGET_DIR): Promise<WidgetBuild | undefined> {
  const file = path.join(directory, 'club-booking.js')
  let body: Buffer
  try {
    body = await fs.readFile(file)
  } catch {
    return undefined
  }
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27)
  const encoded = await precompressed(file, body, tag, { quality: 11 })
  const headers = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin',
    'x-content-type-options': 'nosniff' }
  const messages = new Map<string, StaticPage>()
  for (const language of WIDGET_MESSAGE_LANGUAGES) {
    const messageFile = path.join(directory, 'messages', `${language}.json`)
    // Absent from a build made without them: the widget then speaks English (its texts check fails on a 404).
    const text = await fs.readFile(messageFile).catch(() => undefined)
    if (text === undefined) continue
    const messageTag = createHash('sha256').update(text).digest('base64url').slice(0, 27)
    messages.set(`${language}.json`, { headers, identity: { body: text, etag: `"${messageTag}"` },
      encoded: await precompressed(messageFile, text, messageTag, { quality: 11 }) })
  }
  return {
    messages,
    page: { headers, identity: { body, etag: `"${tag}"` }, encoded },
    pinnedPath: `/widget/v1/club-booking-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  }
}

export function registerWidget(app: FastifyInstance, build: WidgetBuild | undefined): void {
  if (build === undefined) app.log.warn('the booking widget is not built; /widget answers 404 until `npm run build`')
  const config = { access: { public: true } } as const
  // A file, not an API operation: outside the API descriptions.
  const schema = { hide: true }
  const latest = { contentType: SCRIPT, cacheControl: 'public, max-age=300, stale-while-revalidate=86400', missing: NOT_BUILT }
  const immutable = { contentType: SCRIPT, cacheControl: 'public, max-age=31536000, immutable', missing: NOT_BUILT }
  app.get(WIDGET_PATH, { config, schema }, serveStaticPage(build?.page, latest))
  const pinned = serveStaticPage(build?.page, immutable)
  if (build !== undefined) {
    app.fastPath.get(WIDGET_PATH, fastStaticPage(app.fastPath, build.page, latest, WIDGET_PATH))
    app.fastPath.get(build.pinnedPath, fastStaticPage(app.fastPath, build.page, immutable, '/widget/v1/:file'))
  }
  // A language's texts, fetched by the widget when it speaks that language: as fresh as the widget's latest address.
  const texts = { contentType: 'application/json; charset=utf-8', cacheControl: latest.cacheControl, missing: NOT_BUILT }
  const messageFiles = new Map([...build?.messages ?? []].map(([file, page]) => [file, serveStaticPage(page, texts)]))
  app.get('/widget/v1/messages/:file', { config, schema }, (request, reply) => {
    const { file } = request.params as { file: string }
    const serve = messageFiles.get(file)
    if (serve === undefined) {
      const files = WIDGET_MESSAGE_LANGUAGES.map((language) => `${language}.json`).join(', ')
      throw new ProblemError('not-found', `No such texts of the booking widget: it has ${files} besides English (built in).`)
    }
    return serve(request, reply)
  })
  app.get('/widget/v1/:file', { config, schema }, (request, reply) => {
    const { file } = request.params as { file: string }
    if (build === undefined || `/widget/v1/${file}` !== build.pinnedPath) {
      throw new ProblemError('not-found', 'No such file of the booking widget: the page may name an older build; '
        + 'use /widget/v1/club-booking.js.')
    }
    return pinned(request, reply)
  })
}
