/**
 * The modules that decide who may do what: the dashboard's roles, the people's secret tokens, and
 * the dashboard's access (cookie, origin, session, club and role), each rule and each branch with
 * the answer it must give. Fast and on SQLite alone, so that mutation testing (CONTRIBUTING.md) can
 * run it for every change of these files; the suites on both databases prove the same through the API.
 */
import type { FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_ROLES, PERMISSIONS, isAdminRole, normaliseEmail, roleAllows } from '../../src/domain/admin-roles.js'
import type { AdminRole } from '../../src/domain/admin-roles.js'
import { generateToken, hashToken, isWellFormedToken } from '../../src/domain/secret-token.js'
import type { TokenKind } from '../../src/domain/secret-token.js'
import { ADMIN_PREFIX, dashboardGuard, dashboardSettings, isSameOrigin, sessionCookieName, sessionCookieOptions }
  from '../../src/http/dashboard-access.js'
import { COOKIE, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

describe('the dashboard\'s roles', () => {
  it('rank owner over admin over editor, each allowing its own and the lower', () => {
    const allowed = ADMIN_ROLES.flatMap((role) => ADMIN_ROLES.filter((needed) => roleAllows(role, needed)).map((needed) => `${role}>=${needed}`))
    expect(allowed.sort()).toEqual(['admin>=admin', 'admin>=editor', 'editor>=editor', 'owner>=admin', 'owner>=editor', 'owner>=owner'])
    expect(ADMIN_ROLES).toEqual(['owner', 'admin', 'editor'])
  })

  it('knows a role only by its exact name', () => {
    for (const role of ADMIN_ROLES) expect(isAdminRole(role)).toBe(true)
    for (const other of ['Owner', 'owner ', '', 'member', 'operator', 1, null, undefined, {}, ['owner']]) {
      expect(isAdminRole(other), JSON.stringify(other)).toBe(false)
    }
  })

  it('lists what each permission needs, the team and the audit log for owners alone', () => {
    for (const [permission, roles] of Object.entries(PERMISSIONS)) {
      // Each role that may includes every role above it.
      for (const role of roles) {
        for (const higher of ADMIN_ROLES.filter((candidate) => roleAllows(candidate, role))) {
          expect(roles as readonly AdminRole[], `${permission}: ${higher} above ${role}`).toContain(higher)
        }
      }
    }
    expect(PERMISSIONS['read the audit log']).toEqual(['owner'])
    expect(PERMISSIONS['create, list and revoke API keys']).toEqual(['owner', 'admin'])
  })

  it('compares e-mail addresses trimmed and lower-case', () => {
    expect(normaliseEmail('  Olivia.Owner@Example.ORG \n')).toBe('olivia.owner@example.org')
    expect(normaliseEmail('a@b.c')).toBe('a@b.c')
  })
})

describe('people\'s secret tokens', () => {
  const KINDS: readonly [TokenKind, string][] = [['sign-in', 'cpl_'], ['invitation', 'cpi_'], ['session', 'cps_'], ['manage', 'cpm_']]

  it('are 256 random bits in base64url behind a prefix that says what they are', () => {
    for (const [kind, prefix] of KINDS) {
      const tokens = Array.from({ length: 50 }, () => generateToken(kind))
      for (const token of tokens) {
        expect(token).toMatch(new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`))
        expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32)
        expect(isWellFormedToken(kind, token)).toBe(true)
      }
      expect(new Set(tokens).size).toBe(50)
    }
  })

  it('are stored as their SHA-256 in hex, never as themselves', () => {
    expect(hashToken('cpl_abc')).toBe('8c4c0276d75cf99f54f5a6715be038ddf2dfe105f42f8fa531edb2c5a933262d')
    expect(hashToken('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hashToken('cpl_abc')).not.toBe(hashToken('cpl_abd'))
  })

  it('are refused in any other shape, or as another kind, before any look-up', () => {
    const body = 'A'.repeat(43)
    for (const [kind, prefix] of KINDS) {
      expect(isWellFormedToken(kind, `${prefix}${body}`)).toBe(true)
      for (const wrong of [`${prefix}${body.slice(1)}`, `${prefix}${body}A`, `${prefix}${body.slice(1)}=`, `${prefix}${body.slice(1)}+`,
        `${prefix}${body.slice(1)}/`, ` ${prefix}${body}`, `${prefix}${body} `, `${prefix}${body}\n`, body, `${prefix.toUpperCase()}${body}`,
        '', prefix]) {
        expect(isWellFormedToken(kind, wrong), `${kind}: ${JSON.stringify(wrong)}`).toBe(false)
      }
      for (const [other, otherPrefix] of KINDS.filter(([candidate]) => candidate !== kind)) {
        expect(isWellFormedToken(other, `${prefix}${body}`), `${prefix} as ${other}`).toBe(false)
        expect(isWellFormedToken(kind, `${otherPrefix}${body}`)).toBe(false)
      }
    }
  })
})

describe('the dashboard\'s cookie and origin', () => {
  const https = new URL('https://clubs.example/')
  const http = new URL('http://localhost:3000/')
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest

  it('names the cookie __Host- over HTTPS, and makes it HttpOnly, Lax and Secure there', () => {
    expect(sessionCookieName(https)).toBe('__Host-cp_session')
    expect(sessionCookieName(http)).toBe('cp_session')
    expect(sessionCookieOptions(https, 7 * 86_400_000 + 999)).toEqual({ path: '/', httpOnly: true, secure: true, sameSite: 'lax',
      maxAge: 604_800 })
    expect(sessionCookieOptions(http, 3_600_000)).toEqual({ path: '/', httpOnly: true, secure: false, sameSite: 'lax', maxAge: 3600 })
  })

  it('takes a request as the dashboard\'s own by its Origin, else by Sec-Fetch-Site', () => {
    expect(isSameOrigin(request({ origin: 'https://clubs.example' }), https)).toBe(true)
    for (const origin of ['https://clubs.example.evil', 'http://clubs.example', 'https://evil.example', 'null', '']) {
      expect(isSameOrigin(request({ origin, 'sec-fetch-site': 'same-origin' }), https), origin).toBe(false)
    }
    expect(isSameOrigin(request({ 'sec-fetch-site': 'same-origin' }), https)).toBe(true)
    for (const site of ['same-site', 'cross-site', 'none']) expect(isSameOrigin(request({ 'sec-fetch-site': site }), https)).toBe(false)
    expect(isSameOrigin(request({}), https)).toBe(false)
  })
})

describe('the dashboard\'s access, route by route', () => {
  let h: Harness & { close(): Promise<void> }
  let owner = ''
  let editor = ''
  let outsider = ''

  beforeAll(async () => {
    h = await startHarness('sqlite', { env: { PUBLIC_URL: `${ORIGIN}/` } })
    const riverside = await h.createClub('riverside')
    const hillside = await h.createClub('hillside')
    owner = await signedIn(h, riverside.id, 'olivia@example.org', 'owner')
    editor = await signedIn(h, riverside.id, 'erin@example.org', 'editor')
    outsider = await signedIn(h, hillside.id, 'hugo@example.org', 'owner')
  })
  afterAll(async () => {
    await h.close()
  })

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string | null, headers: Record<string, string> = {}) =>
    h.app.inject({ method, url, headers: { ...(cookie === null ? {} : { cookie: `${COOKIE}=${cookie}` }), ...headers },
      ...(method === 'POST' ? { payload: {} } : {}) })
  const kind = (body: string) => (JSON.parse(body) as { type: string }).type.split('/').at(-1)

  it('reads the settings of the context it guards', () => {
    expect(dashboardSettings(h.context)).toMatchObject({ publicUrl: new URL(`${ORIGIN}/`), mailFrom: h.context.config.mail.from,
      sessionIdleMs: 12 * 3_600_000, sessionAbsoluteMs: 7 * 86_400_000, invitationsPerAddressPerDay: 3 })
  })

  it('refuses a route declared outside its prefix, a role without :club, and :club without a role, at start', () => {
    const guard = dashboardGuard(h.context)
    expect(() => guard('signed-in', { method: 'GET', url: '/api/v1/me' })).toThrow(/is outside \/api\/admin\/v1/)
    expect(() => guard('signed-in', { method: 'GET', url: '/api/admin/v1me' })).toThrow(/outside/)
    expect(() => guard('owner', { method: 'GET', url: `${ADMIN_PREFIX}/clubs/x/team` })).toThrow(/needs the :club path parameter/)
    expect(() => guard('signed-in', { method: 'GET', url: `${ADMIN_PREFIX}/clubs/:club/team` })).toThrow(/:club needs a role/)
    expect(guard('owner', { method: 'GET', url: `${ADMIN_PREFIX}/clubs/:club/team` })).toBeTypeOf('function')
    expect(guard('anyone', { method: ['GET', 'POST'], url: `${ADMIN_PREFIX}/sign-in` })).toBeTypeOf('function')
  })

  it('answers 401 without a session, a malformed cookie, or an unknown one, and lets `anyone` routes through', async () => {
    expect((await call('GET', `${ADMIN_PREFIX}/me`, null)).statusCode).toBe(401)
    expect((await call('GET', `${ADMIN_PREFIX}/me`, 'not-a-token')).statusCode).toBe(401)
    expect((await call('GET', `${ADMIN_PREFIX}/me`, `cps_${'A'.repeat(43)}`)).statusCode).toBe(401)
    // Another session's token: the owner's with its first character changed (to one it is not).
    const other = owner.replace(/^cps_(.)/, (_, first: string) => `cps_${first === '0' ? '1' : '0'}`)
    expect(other).not.toBe(owner)
    expect((await call('GET', `${ADMIN_PREFIX}/me`, other)).statusCode).toBe(401)
    expect((await call('GET', `${ADMIN_PREFIX}/me`, owner)).statusCode).toBe(200)
    // A sign-in request needs no session; only its origin is checked.
    const anyone = await call('POST', `${ADMIN_PREFIX}/sign-in/link`, null, { origin: ORIGIN })
    expect(anyone.statusCode, anyone.body).toBe(400)
    expect(kind(anyone.body)).toBe('validation-error')
  })

  it('refuses a change from another origin before anything else, and takes safe methods from anywhere', async () => {
    for (const headers of [{}, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const refused = await call('POST', `${ADMIN_PREFIX}/clubs/riverside/api-keys`, owner, headers)
      expect([refused.statusCode, kind(refused.body)], JSON.stringify(headers)).toEqual([403, 'cross-site-request'])
      expect((JSON.parse(refused.body) as { detail: string }).detail)
        .toBe(`Requests that change something must come from ${ORIGIN}.`)
    }
    // Before the session: a cross-site request learns nothing about the cookie it carried.
    expect(kind((await call('POST', `${ADMIN_PREFIX}/clubs/riverside/api-keys`, null, { origin: 'https://evil.example' })).body))
      .toBe('cross-site-request')
    expect((await call('GET', `${ADMIN_PREFIX}/clubs/riverside/api-keys`, owner, { origin: 'https://evil.example' })).statusCode)
      .toBe(200)
    const sameSite = await call('POST', `${ADMIN_PREFIX}/clubs/riverside/api-keys`, owner, { 'sec-fetch-site': 'same-origin' })
    expect(sameSite.statusCode, sameSite.body).toBe(400)
  })

  it('answers 404 for a club the person does not administer, as for one that does not exist, and 403 below the role', async () => {
    const notMine = await call('GET', `${ADMIN_PREFIX}/clubs/riverside/team`, outsider)
    const none = await call('GET', `${ADMIN_PREFIX}/clubs/nowhere/team`, outsider)
    expect([notMine.statusCode, kind(notMine.body)]).toEqual([404, 'club-not-found'])
    expect([none.statusCode, kind(none.body)]).toEqual([404, 'club-not-found'])
    const low = await call('GET', `${ADMIN_PREFIX}/clubs/riverside/team`, editor)
    expect([low.statusCode, kind(low.body)]).toEqual([403, 'forbidden'])
    expect((JSON.parse(low.body) as { detail: string }).detail).toBe('Your role in this club (editor) does not allow this; it needs owner.')
    expect((await call('GET', `${ADMIN_PREFIX}/clubs/riverside/api-keys`, editor)).statusCode).toBe(403)
    expect((await call('GET', `${ADMIN_PREFIX}/clubs/riverside/groups`, editor)).statusCode).toBe(200)
    expect((await call('GET', `${ADMIN_PREFIX}/clubs/riverside/team`, owner)).statusCode).toBe(200)
    expect((await call('GET', `${ADMIN_PREFIX}/clubs/hillside/team`, outsider)).statusCode).toBe(200)
  })
})
