/**
 * A page built ahead of time (by `npm run build`) and served as it is: the HTML, its gzip and
 * brotli variants chosen by Accept-Encoding, a strong ETag per variant, 304 on If-None-Match, and
 * the headers the build decided (such as a Content-Security-Policy with the hashes of the page's
 * inline scripts). A page that was never built is a problem answer naming the command that builds
 * it, never a 500: the server starts without it.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import zlib from 'node:zlib'
import { promisify } from 'node:util'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { matches } from './conditional.js'
import type { FastPath, FastRoute } from '../speed/fast-path.js'
import { ProblemError } from './problems.js'

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

export type ContentEncoding = 'br' | 'gzip'

/** What the build wrote next to the page: headers that belong to this build of it. */
export interface PageManifest {
  readonly headers: Readonly<Record<string, string>>
}

interface Variant {
  readonly body: Buffer
  readonly etag: string
}

export interface StaticPage {
  readonly headers: Readonly<Record<string, string>>
  readonly identity: Variant
  readonly encoded: ReadonlyMap<ContentEncoding, Variant>
}

/** Server preference when a client accepts several equally. */
const ENCODINGS: readonly ContentEncoding[] = ['br', 'gzip']
const SUFFIX: Readonly<Record<ContentEncoding, string>> = { br: '.br', gzip: '.gz' }

/** Each encoding's compressor: gzip at its best, brotli at `quality`. */
const COMPRESS: Readonly<Record<ContentEncoding, (body: Buffer, quality: number) => Promise<Buffer>>> = {
  br: (body, quality) => brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
}

function manifestFile(file: string): string {
  return `${file}.json`
}

/** Writes the compressed copies of `body` beside `file` (`.gz`, `.br`: a build step), at brotli quality `brotliQuality`. */
export async function writeCompressedCopies(file: string, body: Buffer, brotliQuality: number): Promise<void> {
  await Promise.all(ENCODINGS.map(async (encoding) =>
    fs.writeFile(`${file}${SUFFIX[encoding]}`, await COMPRESS[encoding](body, brotliQuality))))
}

/** Writes the page, its compressed variants and its manifest (the build step). */
export async function writeStaticPage(file: string, html: string, manifest: PageManifest): Promise<void> {
  const body = Buffer.from(html)
  await fs.mkdir(path.dirname(file), { recursive: true })
  await Promise.all([
    fs.writeFile(file, body),
    // Quality 9: within a tenth of 11's size at a twentieth of its time (the build stays quick).
    writeCompressedCopies(file, body, 9),
    fs.writeFile(manifestFile(file), `${JSON.stringify(manifest, null, 2)}\n`),
  ])
}

async function readIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** The built page, or undefined when it was never built. */
export async function loadStaticPage(file: string): Promise<StaticPage | undefined> {
  const [body, manifest] = await Promise.all([readIfPresent(file), readIfPresent(manifestFile(file))])
  if (body === undefined || manifest === undefined) return undefined
  // One tag names the content; each encoding is a representation of its own (RFC 9110 §8.8.3).
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27)
  const encoded = new Map<ContentEncoding, Variant>()
  for (const encoding of ENCODINGS) {
    const variant = await readIfPresent(`${file}${SUFFIX[encoding]}`)
    if (variant !== undefined) encoded.set(encoding, { body: variant, etag: `"${tag}-${encoding}"` })
  }
  return {
    headers: (JSON.parse(manifest.toString('utf8')) as PageManifest).headers,
    identity: { body, etag: `"${tag}"` },
    encoded,
  }
}

/** The dashboard's files of this size or smaller are served uncompressed, and the build writes no copies of them. */
export const COMPRESSED_ABOVE_BYTES = 512

/** Whether `name` is one of the compressed copies the build writes beside a file (writeCompressedCopies). */
export function isCompressedCopy(name: string): boolean {
  return name.endsWith(SUFFIX.br) || name.endsWith(SUFFIX.gzip)
}

/**
 * The brotli and gzip variants of the built file `file` (its content `body`, tagged `tag`) when it is larger than
 * `threshold` bytes: the copies `npm run build` wrote beside it (src/tools/precompress.ts), when they hold this content;
 * compressed here otherwise (a bundle built by vite alone has none), at brotli quality `quality`.
 */
export async function precompressed(file: string, body: Buffer, tag: string, { quality, threshold = 0 }:
{ readonly quality: number, readonly threshold?: number }): Promise<Map<ContentEncoding, Variant>> {
  const encoded = new Map<ContentEncoding, Variant>()
  if (body.length <= threshold) return encoded
  const decompress = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const
  for (const encoding of ENCODINGS) {
    const copy = await readIfPresent(`${file}${SUFFIX[encoding]}`)
    let sound = false
    try {
      sound = copy !== undefined && decompress[encoding](copy).equals(body)
    } catch {
      // A copy that does not decompress is compressed again.
    }
    encoded.set(encoding, { body: sound && copy !== undefined ? copy : await COMPRESS[encoding](body, quality),
      etag: `"${tag}-${encoding}"` })
  }
  return encoded
}

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the highest q-value
 * among those available, the server's order breaking ties; identity when none is acceptable.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: ReadonlySet<ContentEncoding>,
): ContentEncoding | undefined {
  if (acceptEncoding === undefined) return undefined
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    if (name === '') continue
    const q = parameters.find((parameter) => parameter.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  let best: ContentEncoding | undefined
  let bestWeight = 0
  for (const encoding of ENCODINGS) {
    if (!available.has(encoding)) continue
    const weight = weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0
    if (weight > bestWeight) {
      best = encoding
      bestWeight = weight
    }
  }
  return best
}

/** Distinct Accept-Encoding headers remembered per page; a page's browsers send a handful. */
const REMEMBERED_HEADERS = 64
/** Longer headers are parsed every time: what a page remembers stays within 64 × 128 characters. */
const REMEMBERED_LENGTH = 128

/**
 * chooseEncoding for one page's encodings, remembering its answer per header: parsing the
 * header was a tenth of the time of a file served before routing. Forgets all at 64 headers.
 */
export function encodingChooser(available: ReadonlySet<ContentEncoding>): (acceptEncoding: string | undefined) =>
ContentEncoding | undefined {
  const chosen = new Map<string, ContentEncoding | 'identity'>()
  return (acceptEncoding) => {
    if (acceptEncoding === undefined) return undefined
    if (acceptEncoding.length > REMEMBERED_LENGTH) return chooseEncoding(acceptEncoding, available)
    let encoding = chosen.get(acceptEncoding)
    if (encoding === undefined) {
      if (chosen.size >= REMEMBERED_HEADERS) chosen.clear()
      encoding = chooseEncoding(acceptEncoding, available) ?? 'identity'
      chosen.set(acceptEncoding, encoding)
    }
    return encoding === 'identity' ? undefined : encoding
  }
}

export interface StaticPageOptions {
  readonly contentType: string
  readonly cacheControl: string
  /** The detail of the problem answered when the page was never built. */
  readonly missing: string
}

/** A GET handler (HEAD follows it) for a page loaded with loadStaticPage, or for its absence. */
export function serveStaticPage(page: StaticPage | undefined, options: StaticPageOptions) {
  const choose = encodingChooser(new Set(page?.encoded.keys()))
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (page === undefined) throw new ProblemError('not-found', options.missing)
    const encoding = choose(request.headers['accept-encoding'])
    const variant = (encoding === undefined ? undefined : page.encoded.get(encoding)) ?? page.identity
    void reply.headers(page.headers)
      .header('vary', 'Accept-Encoding')
      .header('etag', variant.etag)
      .header('cache-control', options.cacheControl)
    const ifNoneMatch = request.headers['if-none-match']
    if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, variant.etag)) return reply.code(304).send()
    if (encoding !== undefined && variant !== page.identity) void reply.header('content-encoding', encoding)
    return reply.type(options.contentType).send(variant.body)
  }
}

/**
 * The same answers before routing (src/speed/fast-path.ts): the page is in memory and nothing is
 * checked, so a GET without a query is answered from the server's request listener. `route` names
 * the Fastify route for the metrics.
 */
export function fastStaticPage(fast: FastPath, page: StaticPage, options: StaticPageOptions, route: string): FastRoute {
  const choose = encodingChooser(new Set(page.encoded.keys()))
  // nosniff goes first on every answer; the content type is the options' (as reply.type sets it).
  const own = Object.entries(page.headers).filter(([name]) => name !== 'x-content-type-options' && name !== 'content-type').flat()
  return (request, response, query, at) => {
    if (query !== '') {
      fast.pass(request, response)
      return
    }
    const encoding = choose(request.headers['accept-encoding'])
    const variant = (encoding === undefined ? undefined : page.encoded.get(encoding)) ?? page.identity
    const headers = [...own, 'vary', 'Accept-Encoding', 'etag', variant.etag, 'cache-control', options.cacheControl]
    const ifNoneMatch = request.headers['if-none-match']
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, variant.etag)) {
      // A 304 carries the page's own headers, its type among them when the page has one.
      if (page.headers['content-type'] !== undefined) headers.push('content-type', page.headers['content-type'])
      fast.send(response, at, route, 304, headers)
      return
    }
    if (encoding !== undefined && variant !== page.identity) headers.push('content-encoding', encoding)
    headers.push('content-type', options.contentType, 'content-length', String(variant.body.length))
    fast.send(response, at, route, 200, headers, variant.body)
  }
}
