/**
 * Serves the dashboard web app (built from dashboard/ by `npm run build` into dist/dashboard/):
 * `/dashboard/assets/*` are the build's content-hashed files, cached for a year; every other path
 * under `/dashboard` is the app's page, which routes in the browser. The page loads nothing from
 * elsewhere and runs no inline script (its Content-Security-Policy says so), is never framed, and
 * sends no Referer: its address may hold a sign-in token in the fragment.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { StaticPage } from './static-page.js'
import { COMPRESSED_ABOVE_BYTES, fastStaticPage, isCompressedCopy, precompressed, serveStaticPage } from './static-page.js'

export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url))
/** The build's assets are named by their content. */
const IMMUTABLE = 'public, max-age=31536000, immutable'
const NOT_BUILT = 'The dashboard has not been built on this installation; run `npm run build`.'

export const DASHBOARD_POLICY = [
  'default-src \'none\'',
  'script-src \'self\'',
  'style-src \'self\'',
  'img-src \'self\' data:',
  'connect-src \'self\'',
  'frame-ancestors \'none\'',
  'base-uri \'none\'',
  'form-action \'self\'',
  'object-src \'none\'',
].join('; ')

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

async function pageOf(file: string, headers: Record<string, string>): Promise<StaticPage> {
  const body = await fs.readFile(file)
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27)
  const encoded = await precompressed(file, body, tag, { quality: 9, threshold: COMPRESSED_ABOVE_BYTES })
  return { headers, identity: { body, etag: `"${tag}"` }, encoded }
}

async function loadBuild(directory: string): Promise<{ index: StaticPage, assets: Map<string, StaticPage> } | undefined> {
  let index: StaticPage
  try {
    index = await pageOf(path.join(directory, 'index.html'),
      { 'content-security-policy': DASHBOARD_POLICY, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' })
  } catch {
    return undefined
  }
  const assets = new Map<string, StaticPage>()
  const assetDir = path.join(directory, 'assets')
  for (const name of await fs.readdir(assetDir).catch(() => [] as string[])) {
    if (isCompressedCopy(name)) continue
    const type = TYPES[path.extname(name)] ?? 'application/octet-stream'
    assets.set(name, await pageOf(path.join(assetDir, name), { 'content-type': type }))
  }
  return { index, assets }
}

export async function registerDashboardApp(app: FastifyInstance, directory = DASHBOARD_DIR): Promise<void> {
  const build = await loadBuild(directory)
  if (build === undefined) app.log.warn({ directory }, 'the dashboard is not built; /dashboard answers 404 until `npm run build`')
  const page = serveStaticPage(build?.index, { contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache', missing: NOT_BUILT })
  const config = { access: { public: true } } as const
  // Outside the API descriptions: pages, not API operations.
  const schema = { hide: true }
  app.get('/dashboard', { config, schema }, page)
  const assets = new Map([...build?.assets ?? []].map(([name, asset]) => [name, fastStaticPage(app.fastPath, asset, {
    contentType: asset.headers['content-type'] ?? 'application/octet-stream', cacheControl: IMMUTABLE, missing: '' }, '/dashboard/*')]))
  app.fastPath.getWithin('/dashboard/assets/', '', (request, response, query, at) => {
    const asset = assets.get(at.parameter)
    if (asset === undefined) app.fastPath.pass(request, response)
    else asset(request, response, query, at)
  })
  app.get('/dashboard/*', { config, schema }, (request, reply) => {
    const wildcard = (request.params as { '*': string })['*']
    if (!wildcard.startsWith('assets/')) return page(request, reply)
    const asset = build?.assets.get(wildcard.slice('assets/'.length))
    return serveStaticPage(asset, { contentType: asset?.headers['content-type'] ?? 'application/octet-stream',
      cacheControl: IMMUTABLE, missing: 'No such file of the dashboard.' })(request, reply)
  })
}
