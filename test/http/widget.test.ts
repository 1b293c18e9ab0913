/**
 * The booking widget as the build leaves it and as the server serves it: within its size budget;
 * at its snippet's address revalidated within minutes and at its pinned address immutable, both
 * precompressed, readable from every origin, with no cookie; the hosted booking page with the
 * club's websites as its only frame ancestors, and an unknown club's page a 404.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWidget, WIDGET_DIR, WIDGET_MESSAGE_LANGUAGES, WIDGET_PATH } from '../../src/http/widget.js'
import widgetEnglish from '../../widget/public/messages/en.json' with { type: 'json' }
import { LOCALES } from '../../src/domain/languages.js'
import { fill, isText, placeholdersOf } from '../../src/domain/messages.js'
import type { Text } from '../../src/domain/messages.js'
import { OPERATOR } from '../../src/services/audit.js'
import { setWebsites } from '../../src/services/club-websites.js'
import { cli } from '../helpers/cli.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

/** The widget's JavaScript, gzip-compressed, may not exceed this (docs/integration.md). */
const BUDGET_BYTES = 15 * 1024

describe('the booking widget build', () => {
  it('is at most 15 kB of gzip-compressed JavaScript', async () => {
    const size = zlib.gzipSync(await fs.readFile(path.join(WIDGET_DIR, 'club-booking.js')), { level: 9 }).length
    console.info(`booking widget: ${(size / 1024).toFixed(1)} kB of gzip'd JavaScript (budget 15 kB)`)
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES)
  })
})

describe('the booking widget\'s languages', () => {
  for (const language of WIDGET_MESSAGE_LANGUAGES) {
    it(`has every English text in ${language}, with its placeholders and plural forms, and nothing else`, async () => {
      const texts = JSON.parse(await fs.readFile(path.resolve(`widget/public/messages/${language}.json`), 'utf8')) as Record<string, unknown>
      expect(Object.keys(texts).sort()).toEqual(Object.keys(widgetEnglish).sort())
      for (const [key, english] of Object.entries(widgetEnglish) as [string, Text][]) {
        const translated = texts[key]
        expect(isText(translated), `${language}.${key}`).toBe(true)
        if (!isText(translated)) continue
        for (const count of [0, 1, 2, 5]) {
          expect(fill(LOCALES[language], translated, { count }).trim(), `${language}.${key} (${String(count)})`).not.toBe('')
        }
        // A text with plural forms in English has them in every language (another language may need them where English does not).
        if (typeof english !== 'string') expect(typeof translated, `${language}.${key}`).toBe('object')
        expect(placeholdersOf(translated), `${language}.${key}`).toEqual(placeholdersOf(english))
      }
    })
  }

  it('fetches them beside the widget: each language\'s file, counted apart from the 15 kB', async () => {
    const sizes = await Promise.all(WIDGET_MESSAGE_LANGUAGES.map(async (language) =>
      zlib.gzipSync(await fs.readFile(path.join(WIDGET_DIR, 'messages', `${language}.json`)), { level: 9 }).length))
    console.info(`booking widget texts: ${WIDGET_MESSAGE_LANGUAGES.map((language, i) =>
      `${language} ${((sizes[i] ?? 0) / 1024).toFixed(1)} kB`).join(', ')} of gzip'd JSON, each fetched only in its language`)
    // Each language's texts — the refusals' among them — are fetched once a page, beside the script: at most 3 kB each.
    for (const size of sizes) expect(size).toBeLessThanOrEqual(3 * 1024)
  })
})

describe('the booking widget\'s compressed copies', () => {
  it('are the ones the build wrote beside it, unless they hold other content', async () => {
    const built = await fs.readFile(path.join(WIDGET_DIR, 'club-booking.js'))
    const served = await loadWidget()
    expect(served?.page.encoded.get('br')?.body.equals(await fs.readFile(path.join(WIDGET_DIR, 'club-booking.js.br')))).toBe(true)
    expect(served?.page.encoded.get('gzip')?.body.equals(await fs.readFile(path.join(WIDGET_DIR, 'club-booking.js.gz')))).toBe(true)

    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'widget-'))
    const load = async (copies: { br: Buffer, gz: Buffer | string }) => {
      await fs.writeFile(path.join(directory, 'club-booking.js.br'), copies.br)
      await fs.writeFile(path.join(directory, 'club-booking.js.gz'), copies.gz)
      const page = (await loadWidget(directory))?.page
      return { br: page?.encoded.get('br')?.body ?? Buffer.alloc(0), gzip: page?.encoded.get('gzip')?.body ?? Buffer.alloc(0) }
    }
    try {
      await fs.writeFile(path.join(directory, 'club-booking.js'), built)
      // Copies of this content, compressed as the server never would: served as they are.
      const fast = zlib.brotliCompressSync(built, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
      const gz = zlib.gzipSync(built, { level: 1 })
      const kept = await load({ br: fast, gz })
      expect([kept.br.equals(fast), kept.gzip.equals(gz)]).toEqual([true, true])

      // A widget rebuilt by vite alone, beside the copies of the build before (and a copy that is not gzip at all).
      const rebuilt = Buffer.concat([built, Buffer.from('\n// rebuilt\n')])
      await fs.writeFile(path.join(directory, 'club-booking.js'), rebuilt)
      const again = await load({ br: fast, gz: 'not gzip' })
      expect(zlib.brotliDecompressSync(again.br).equals(rebuilt)).toBe(true)
      expect(zlib.gunzipSync(again.gzip).equals(rebuilt)).toBe(true)
    } finally {
      await fs.rm(directory, { recursive: true })
    }
  })
})

describe('the booking widget and the hosted booking page, served', () => {
  let h: Harness & { close(): Promise<void> }
  let clubId = ''
  beforeAll(async () => {
    h = await startHarness('sqlite')
    clubId = (await h.createClub('riverside')).id
  })
  afterAll(async () => {
    await h.close()
  })

  it('serves the widget to every origin: revalidated at the snippet\'s address, immutable at the pinned one', async () => {
    const plain = await h.app.inject({ url: WIDGET_PATH, headers: { origin: 'https://www.tc-riverside.example' } })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin', 'cache-control': 'public, max-age=300, stale-while-revalidate=86400' })
    expect(plain.headers['set-cookie']).toBeUndefined()
    const etag = String(plain.headers.etag)
    expect((await h.app.inject({ url: WIDGET_PATH, headers: { 'if-none-match': etag } })).statusCode).toBe(304)
    const brotli = await h.app.inject({ url: WIDGET_PATH, headers: { 'accept-encoding': 'gzip, br' } })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(brotli.rawPayload).equals(plain.rawPayload)).toBe(true)

    const page = await h.app.inject({ url: '/book/riverside' })
    const pinned = /src="(\/widget\/v1\/club-booking-[0-9a-f]{16}\.js)" integrity="(sha384-[A-Za-z0-9+/=]+)"/.exec(page.body)
    expect(pinned).not.toBeNull()
    const file = await h.app.inject({ url: pinned?.[1] ?? '' })
    expect([file.statusCode, file.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable'])
    expect(file.rawPayload.equals(plain.rawPayload)).toBe(true)
    const older = await h.app.inject({ url: '/widget/v1/club-booking-0000000000000000.js' })
    expect([older.statusCode, older.headers['content-type']]).toEqual([404, 'application/problem+json; charset=utf-8'])
  })

  it('serves each language\'s texts to every origin as fresh as the widget, and no file it does not have', async () => {
    for (const language of WIDGET_MESSAGE_LANGUAGES) {
      const texts = await h.app.inject({ url: `/widget/v1/messages/${language}.json`, headers: { 'accept-encoding': 'br' } })
      expect(texts.statusCode).toBe(200)
      expect(texts.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=300, stale-while-revalidate=86400', 'content-encoding': 'br' })
      expect(Object.keys(JSON.parse(zlib.brotliDecompressSync(texts.rawPayload).toString('utf8')) as object).sort())
        .toEqual(Object.keys(widgetEnglish).sort())
    }
    for (const file of ['pl.json', '..%2F..%2Fpackage.json', 'fr.js']) {
      const missing = await h.app.inject({ url: `/widget/v1/messages/${file}` })
      expect([missing.statusCode, missing.headers['content-type']], file).toEqual([404, 'application/problem+json; charset=utf-8'])
    }
  })

  it('lets only the club\'s websites frame its booking page, and answers an unknown club with a 404 page', async () => {
    const csp = async () => String((await h.app.inject({ url: '/book/riverside' })).headers['content-security-policy'])
    expect(await csp()).toContain('frame-ancestors \'self\';')
    await setWebsites(h.context.db, h.clock, { clubId, actor: OPERATOR,
      websites: ['https://www.tc-riverside.example/', 'http://localhost:8080'] })
    expect(await csp()).toContain('frame-ancestors \'self\' https://www.tc-riverside.example http://localhost:8080;')
    const env = h.database.env
    const set = await cli(env, ['clubs', 'websites', '--club', 'riverside', '--set', 'ftp://files.example', '--json'], h.clock)
    expect([set.code, set.stderr]).toEqual([1, expect.stringContaining('not an http or https address')])
    const shown = await cli(env, ['clubs', 'websites', '--club', 'riverside', '--json'], h.clock)
    expect(shown.json()).toEqual({ websites: ['https://www.tc-riverside.example', 'http://localhost:8080'] })
    const german = await h.app.inject({ url: '/book/riverside', headers: { 'accept-language': 'de-DE,de;q=0.9' } })
    expect(german.body).toContain('<club-booking club="riverside" lang="de">')
    const unknown = await h.app.inject({ url: '/book/nowhere' })
    expect([unknown.statusCode, unknown.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8'])
    expect(unknown.body).toContain('There is no club at this address.')
  })
})
