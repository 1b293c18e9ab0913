/**
 * The origin rule of a club's websites (src/domain/web-origin.ts), as a table run against the
 * dashboard API: what the club saves, and the hosted booking page's frame-ancestors that follows.
 * Only exact origins (scheme, host, optional port) are kept; a wildcard, a path, or a comma,
 * semicolon or quote that would split the policy is refused, and changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../helpers/databases.js'
import { asSession, signedIn } from '../helpers/dashboard.js'
import { useHarness } from '../helpers/harness.js'
import { isExactOrigin, readOrigin } from '../../src/domain/web-origin.js'

/** [what is typed, the origin kept, or null: refused] */
const TABLE: readonly (readonly [string, string | null])[] = [
  ['https://www.tc-riverside.example', 'https://www.tc-riverside.example'],
  ['https://www.tc-riverside.example/', 'https://www.tc-riverside.example'],
  ['  https://www.tc-riverside.example  ', 'https://www.tc-riverside.example'],
  ['HTTPS://WWW.TC-Riverside.Example', 'https://www.tc-riverside.example'],
  ['http://localhost:8080', 'http://localhost:8080'],
  ['https://club.example:443', 'https://club.example'],
  ['http://club.example:80/', 'http://club.example'],
  ['https://club.example:8443', 'https://club.example:8443'],
  ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
  ['http://[::1]:3000', 'http://[::1]:3000'],
  ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ['https://a-b.c-d.example', 'https://a-b.c-d.example'],
  ['https://*', null],
  ['https://*.com', null],
  ['*', null],
  ['https://*.tc-riverside.example', null],
  ['https://a.example,https://b.example; frame-ancestors *', null],
  ['https://a.example,https://b.example', null],
  ['https://a.example;', null],
  ['https://a.example; script-src *', null],
  ['https://a.example\'', null],
  ['"https://a.example"', null],
  ['\'self\'', null],
  ['https://a.example/booking', null],
  ['https://a.example/?x=1', null],
  ['https://a.example#top', null],
  ['https://a.example//', null],
  ['https://user:pass@a.example', null],
  ['https://user@a.example', null],
  ['ftp://files.example', null],
  ['javascript:alert(1)', null],
  ['data:text/html,hi', null],
  ['www.tc-riverside.example', null],
  ['//www.tc-riverside.example', null],
  ['https://', null],
  ['https://a b.example', null],
  ['https://a.example:0', null],
  ['https://a.example:65536', null],
  ['https://-a.example', null],
  ['https://a.example.', null],
  ['https://a..example', null],
  ['https://a_b.example', null],
  ['https://a.example\\@evil.example', null],
  ['xx:https://a.example', null],
  ['', null],
]

describe('the origin rule', () => {
  it('keeps exact origins and refuses every other value, saying why', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30)
    for (const [typed, kept] of TABLE) {
      const read = readOrigin(typed)
      expect('origin' in read ? read.origin : null, JSON.stringify(typed)).toBe(kept)
      if ('refused' in read) expect(read.refused, typed).toMatch(/^[a-z]/)
      if (kept !== null) expect(isExactOrigin(kept), kept).toBe(true)
    }
  })

  it('says why, in words a club\'s secretary can act on', () => {
    const why = (typed: string) => {
      const read = readOrigin(typed)
      return 'refused' in read ? read.refused : undefined
    }
    expect(why('')).toBe('is empty')
    expect(why('   ')).toBe('is empty')
    for (const typed of ['https://*', 'https://a.example,https://b.example', 'https://a b.example', '"https://a.example"']) {
      expect(why(typed), typed).toBe('may hold no spaces, commas, semicolons, quotes or wildcards (*): one address per line')
    }
    for (const typed of ['www.tc-riverside.example', '//a.example', 'xx:https://a.example', 'https:/a.example', 'https://']) {
      expect(why(typed), typed).toBe('is not a web address (e.g. https://www.example.org)')
    }
    for (const typed of ['ftp://files.example', 'xhttp://a.example', 'httpsx://a.example', 'HTTPX://a.example']) {
      expect(why(typed), typed).toBe('is not an http or https address')
    }
    expect(why('https://user@a.example')).toBe('must not carry a user name or password')
    expect(why('HTTPS://A.Example/Booking')).toBe('must be the site\'s address alone, without a path, query or fragment '
      + '(e.g. https://a.example)')
    expect(why('http://a.example:8080?x')).toBe('must be the site\'s address alone, without a path, query or fragment '
      + '(e.g. http://a.example:8080)')
    expect(why('https://a..example')).toBe('does not name a host that a browser can reach (e.g. https://www.example.org)')
    expect(why('https://a.example:99999')).toBe('is not a web address (e.g. https://www.example.org)')
    expect(readOrigin('https://a.example:1')).toEqual({ origin: 'https://a.example:1' })
    expect(readOrigin('https://a.example:65535')).toEqual({ origin: 'https://a.example:65535' })
    expect(readOrigin('https://A.EXAMPLE')).toEqual({ origin: 'https://a.example' })
  })

  it('takes nothing that is not character for character an origin where the header is built', () => {
    for (const value of ['https://*', 'https://a.example/', 'https://A.example', 'https://a.example:443', 'https://a.example;',
      'https://a.example https://b.example', 'https://a.example:08080', 'http://[::1', 'https://a.example,', 'https://[:::::]',
      'https://a.example:0', 'https://a.example:65536', 'ftp://a.example', 'https://a_b.example', 'xhttps://a.example',
      'https://a.example/x', 'https://user@a.example']) {
      expect(isExactOrigin(value), value).toBe(false)
    }
  })
})

describeEachDatabase('a club\'s websites through the dashboard API', (dialect) => {
  const h = useHarness(dialect, undefined, { env: { PUBLIC_URL: 'https://clubs.example/' } })
  // The page is not an API answer: no OpenAPI document describes it.
  const csp = async () => String((await h.current.app.inject({ url: '/book/riverside' })).headers['content-security-policy'])

  it('saves each exact origin and refuses every other value without changing what was saved', async () => {
    const club = await h.current.createClub('riverside')
    const owner = asSession(h.current, await signedIn(h.current, club.id, 'olivia@example.org', 'owner'))
    const saved = await owner('PUT', '/api/admin/v1/clubs/riverside/website', { websites: ['https://kept.example'] })
    expect(saved.status, saved.body).toBe(200)
    for (const [typed, kept] of TABLE) {
      const answer = await owner('PUT', '/api/admin/v1/clubs/riverside/website', { websites: [typed] })
      if (kept === null) {
        expect(answer.status, `${typed}: ${answer.body}`).toBe(400)
        expect(answer.json<{ detail: string }>().detail, typed).toMatch(/^Field "websites/)
        expect(await csp(), typed).toContain('frame-ancestors \'self\' https://kept.example;')
      } else {
        expect(answer.status, `${typed}: ${answer.body}`).toBe(200)
        expect(answer.json<{ websites: string[] }>().websites, typed).toEqual([kept])
        expect(await csp(), typed).toContain(`frame-ancestors 'self' ${kept};`)
        await owner('PUT', '/api/admin/v1/clubs/riverside/website', { websites: ['https://kept.example'] })
      }
    }
  })

  it('leaves a stored value that is not an exact origin out of the header, as one policy', async () => {
    await h.current.context.db.updateTable('clubs').set({ website_origins: JSON.stringify(['https://*', 'https://ok.example',
      'https://a.example,https://b.example; frame-ancestors *', 'https://*.com']) }).where('slug', '=', 'riverside').execute()
    const policy = await csp()
    expect(policy).toContain('frame-ancestors \'self\' https://ok.example;')
    expect(policy.match(/frame-ancestors/g)).toHaveLength(1)
    expect(policy).not.toContain('*')
    expect(policy).not.toContain(',')
  })
})
