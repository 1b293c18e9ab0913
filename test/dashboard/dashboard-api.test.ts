/**
 * The dashboard API over HTTP, on both databases, with mail through a real SMTP server: invitations
 * (command line and dashboard), sign-in links, sessions and their cookies, API keys, the team, the
 * audit log, the cross-site check, and the tenancy of every club route.
 */
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { START, startHarness } from '../helpers/harness.js'
import type { ApiResponse, Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { dashboardGuard } from '../../src/http/dashboard-access.js'
import { importClubData } from '../../src/services/import.js'
import { addDays, localDateOf } from '../../src/domain/zoned-time.js'
import { idFor } from '../helpers/fixtures.js'

const ORIGIN = 'https://clubs.example'
const COOKIE = '__Host-cp_session'

interface Me {
  admin_id: string
  email: string
  session_id: string
  clubs: { slug: string, name: string, timezone: string, role: string }[]
}

describeEachDatabase('dashboard API', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let env: Record<string, string>
  let owner = ''
  let ownerId = ''

  beforeAll(async () => {
    await smtp.start()
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' } })
    env = { ...h.database.env, SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/` }
    const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }]))
    for (const slug of ['riverside', 'hillside']) {
      const club = await h.createClub(slug)
      await importClubData(h.context.db, h.clock, club.id, { courts: [{ id: idFor(`court:${slug}`), name: 'Court 1',
        booking_horizon_days: 30, opening_hours: hours }] })
    }
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  /** The day after the harness clock's, at the clubs (Berlin: +02:00 in summer). */
  const tomorrow = () => addDays(localDateOf(h.clock.now(), 'Europe/Berlin'), 1)
  /** A booking of the club's court tomorrow, by the public endpoint. */
  const book = async (slug: string, time: string, email: string) => {
    const response = await h.request({ method: 'POST', url: `/api/v1/public/${slug}/courts/book`, payload: {
      court_id: idFor(`court:${slug}`), start_time: `${tomorrow()}T${time}:00+02:00`,
      end_time: `${tomorrow()}T${String(Number(time.slice(0, 2)) + 1).padStart(2, '0')}:00:00+02:00`,
      booker_name: 'Gina Guest', booker_email: email } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }

  /** The token of the newest mail to this address that carries a dashboard link. */
  const tokenMailedTo = async (address: string): Promise<string> => {
    await h.context.background.settled()
    while (await h.context.mail.runOnce() > 0);
    const mail = smtp.received.filter((received) => received.envelopeTo.includes(address)).at(-1)
    const token = /#token=(cp[il]_[A-Za-z0-9_-]{43})/.exec(mail?.parsed.text ?? '')?.[1]
    if (token === undefined) throw new Error(`no link mailed to ${address}`)
    return token
  }
  const post = (url: string, payload: unknown, cookie?: string, headers: Record<string, string> = {}) => h.request({
    method: 'POST', url, payload: payload as Record<string, unknown>,
    headers: { origin: ORIGIN, ...(cookie === undefined ? {} : { cookie: `${COOKIE}=${cookie}` }), ...headers },
  })
  const as = (cookie: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) => h.request({
    method, url, headers: { origin: ORIGIN, cookie: `${COOKIE}=${cookie}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
  const sessionCookie = (response: ApiResponse): string => {
    const header = [response.headers['set-cookie'] ?? []].flat().map(String).find((line) => line.startsWith(`${COOKIE}=`))
    const value = /^[^=]+=([^;]*)/.exec(header ?? '')?.[1]
    if (value === undefined || value === '') throw new Error(`no session cookie in ${response.status} ${response.body}`)
    return value
  }
  const accept = async (address: string) => {
    const response = await post('/api/admin/v1/invitations/accept', { token: await tokenMailedTo(address) })
    expect(response.status, response.body).toBe(201)
    return { cookie: sessionCookie(response), me: response.json<Me>() }
  }

  it('lets the operator invite an owner from the command line, who signs in from the mail with a well-made cookie', async () => {
    const invited = await cli(env, ['admins', 'invite', '--club', 'riverside', '--email', 'Olivia.Owner@Example.org', '--json'], h.clock)
    expect(invited.code, invited.stderr).toBe(0)
    const printed = invited.json<{ invitation_url: string, email: string, role: string }>()
    expect(printed).toMatchObject({ email: 'olivia.owner@example.org', role: 'owner' })
    expect(printed.invitation_url).toMatch(/^https:\/\/clubs\.example\/dashboard\/invitation#token=cpi_/)
    const token = await tokenMailedTo('olivia.owner@example.org')
    expect(printed.invitation_url).toContain(token)

    const response = await post('/api/admin/v1/invitations/accept', { token })
    expect(response.status, response.body).toBe(201)
    const setCookie = [response.headers['set-cookie']].flat().map(String).join('\n')
    expect(setCookie).toMatch(new RegExp(`^${COOKIE}=cps_[A-Za-z0-9_-]{43}; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Lax$`))
    owner = sessionCookie(response)
    const me = response.json<Me>()
    ownerId = me.admin_id
    expect(me).toMatchObject({ email: 'olivia.owner@example.org', clubs: [{ slug: 'riverside', role: 'owner' }] })
    expect((await as(owner, 'GET', '/api/admin/v1/me')).json<Me>().clubs).toEqual([{ slug: 'riverside', name: 'Club riverside',
      timezone: 'Europe/Berlin', role: 'owner' }])
    // Used once.
    expect((await post('/api/admin/v1/invitations/accept', { token })).json<{ type: string }>().type).toMatch(/invalid-token$/)
    expect((await h.request({ url: '/api/admin/v1/me', headers: { cookie: `${COOKIE}=${owner}` } })).headers['cache-control']).toBe('no-store')
  })

  it('creates a key with two scopes that works at once, shown once, and revokes it', async () => {
    const created = await post('/api/admin/v1/clubs/riverside/api-keys', { name: 'club website', scopes: ['read:groups', 'read:events'] },
      owner)
    expect(created.status, created.body).toBe(201)
    const { key, api_key: record } = created.json<{ key: string, api_key: { id: string, prefix: string, status: string } }>()
    expect(record.status).toBe('active')
    expect(key.startsWith(record.prefix)).toBe(true)
    expect((await h.request({ url: '/api/v1/groups', key })).status).toBe(200)
    expect((await h.request({ url: '/api/v1/news', key })).status).toBe(403)
    const listed = await as(owner, 'GET', '/api/admin/v1/clubs/riverside/api-keys')
    expect(listed.body).not.toContain(key)
    expect(listed.json<{ items: { id: string, requests_today: number, daily_quota: number }[] }>().items
      .find((item) => item.id === record.id)).toMatchObject({ requests_today: 1, daily_quota: 10000 })
    expect((await as(owner, 'DELETE', `/api/admin/v1/clubs/riverside/api-keys/${record.id}`)).status).toBe(204)
    expect((await h.request({ url: '/api/v1/groups', key })).status).toBe(401)
    expect((await as(owner, 'GET', '/api/admin/v1/clubs/riverside/api-keys')).json<{ items: { id: string, status: string }[] }>()
      .items.find((item) => item.id === record.id)?.status).toBe('revoked')
  })

  it('invites an admin from the dashboard, who may manage keys but not see the team', async () => {
    const invited = await post('/api/admin/v1/clubs/riverside/invitations', { email: 'adam@example.org', role: 'admin' }, owner)
    expect(invited.status, invited.body).toBe(204)
    const team = (await as(owner, 'GET', '/api/admin/v1/clubs/riverside/team')).json<{ invitations: { email: string }[] }>()
    expect(team.invitations.map((invitation) => invitation.email)).toEqual(['adam@example.org'])
    const adam = await accept('adam@example.org')
    expect(adam.me.clubs).toEqual([{ slug: 'riverside', name: 'Club riverside', timezone: 'Europe/Berlin', role: 'admin' }])
    expect((await as(adam.cookie, 'GET', '/api/admin/v1/clubs/riverside/api-keys')).status).toBe(200)
    const refused = await as(adam.cookie, 'GET', '/api/admin/v1/clubs/riverside/team')
    expect(refused.status).toBe(403)
    expect(refused.json<{ type: string }>().type).toBe('/api/v1/problems/forbidden')
    expect((await post('/api/admin/v1/clubs/riverside/invitations', { email: 'eve@example.org', role: 'owner' }, adam.cookie)).status)
      .toBe(403)
  })

  it('keeps an owner: the last one can neither step down nor be removed', async () => {
    const stepDown = await as(owner, 'PUT', `/api/admin/v1/clubs/riverside/admins/${ownerId}/role`, { role: 'admin' })
    expect(stepDown.status, stepDown.body).toBe(409)
    expect((await as(owner, 'DELETE', `/api/admin/v1/clubs/riverside/admins/${ownerId}`)).status).toBe(409)
    const removedByCli = await cli(env, ['admins', 'remove', '--club', 'riverside', ownerId], h.clock)
    expect(removedByCli.code).toBe(1)
    expect(removedByCli.stderr).toMatch(/no owner left/)
  })

  it('signs in with a link once, within 15 minutes, and answers an unknown address alike', async () => {
    const known = await post('/api/admin/v1/sign-in/link', { email: ' OLIVIA.owner@example.org' })
    const unknown = await post('/api/admin/v1/sign-in/link', { email: 'nobody@example.org' })
    expect([known.status, unknown.status]).toEqual([202, 202])
    expect(known.body).toBe(unknown.body)
    const before = smtp.received.length
    const token = await tokenMailedTo('olivia.owner@example.org')
    expect(smtp.received.slice(before).map((mail) => mail.envelopeTo).flat()).toEqual(['olivia.owner@example.org'])
    const signedIn = await post('/api/admin/v1/sign-in', { token })
    expect(signedIn.status, signedIn.body).toBe(201)
    expect(signedIn.json<Me>().email).toBe('olivia.owner@example.org')
    const again = await post('/api/admin/v1/sign-in', { token })
    expect([again.status, again.json<{ type: string }>().type]).toEqual([400, '/api/v1/problems/invalid-token'])

    await post('/api/admin/v1/sign-in/link', { email: 'olivia.owner@example.org' })
    const late = await tokenMailedTo('olivia.owner@example.org')
    h.clock.advance(15 * 60_000)
    expect((await post('/api/admin/v1/sign-in', { token: late })).status).toBe(400)
    for (const malformed of ['', 'cpl_short', late.replace('cpl_', 'cpi_'), late.replace('cpl_', 'cps_')]) {
      expect((await post('/api/admin/v1/sign-in', { token: malformed })).status).toBe(400)
    }
    h.clock.set(START)
  })

  it.runIf(dialect === 'postgres')('answers a sign-in request before touching the database, known address or not', async () => {
    // With the people's table locked by another connection, an answer that waited for a look-up would never come.
    const locker = new pg.Client({ connectionString: h.database.env.DATABASE_URL })
    await locker.connect()
    try {
      await locker.query('begin')
      await locker.query('lock table admins in access exclusive mode')
      const answers = await Promise.all(['olivia.owner@example.org', 'nobody@example.org'].map((email) =>
        post('/api/admin/v1/sign-in/link', { email })))
      expect(answers.map((answer) => answer.status)).toEqual([202, 202])
      expect(answers[0]?.body).toBe(answers[1]?.body)
    } finally {
      await locker.query('rollback')
      await locker.end()
    }
    await h.context.background.settled()
  })

  it('ends sessions that are idle too long, past their maximum age, or signed out everywhere', async () => {
    const tokenOf = async () => {
      await post('/api/admin/v1/sign-in/link', { email: 'olivia.owner@example.org' })
      return sessionCookie(await post('/api/admin/v1/sign-in', { token: await tokenMailedTo('olivia.owner@example.org') }))
    }
    const me = (cookie: string) => as(cookie, 'GET', '/api/admin/v1/me').then((response) => response.status)
    const idle = await tokenOf()
    h.clock.advance(12 * 3_600_000 - 1_000)
    expect(await me(idle)).toBe(200)
    h.clock.advance(12 * 3_600_000 - 1_000)
    expect(await me(idle)).toBe(200)
    h.clock.advance(12 * 3_600_000)
    expect(await me(idle)).toBe(401)

    const busy = await tokenOf()
    for (let hours = 0; hours < 7 * 24 - 6; hours += 6) {
      h.clock.advance(6 * 3_600_000)
      expect(await me(busy)).toBe(200)
    }
    h.clock.advance(6 * 3_600_000)
    expect(await me(busy)).toBe(401)

    const first = await tokenOf()
    const second = await tokenOf()
    const sessions = (await as(first, 'GET', '/api/admin/v1/me/sessions')).json<{ items: { id: string, current: boolean }[] }>().items
    expect(sessions.filter((session) => session.current)).toHaveLength(1)
    expect((await as(second, 'DELETE', '/api/admin/v1/me/sessions')).status).toBe(204)
    expect([await me(first), await me(second)]).toEqual([401, 401])
    expect(await me(owner)).toBe(401)
    owner = await tokenOf()
  })

  it('refuses every state-changing dashboard request from another origin, and changes nothing', async () => {
    const document = (await h.app.inject({ url: '/api/admin/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>()
    const changing = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item)
      .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method)).map((method) => ({ method, path })))
    expect(changing.length).toBeGreaterThanOrEqual(10)
    const auditBefore = await h.context.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    for (const { method, path } of changing) {
      const url = path.replace('{club}', 'riverside').replace(/\{[a-z]+\}/g, '00000000-0000-4000-8000-000000000000')
      const refused: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, {},
        { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'http://clubs.example' }]
      for (const headers of refused) {
        const response = await h.request({ method: method.toUpperCase(), url, payload: {},
          headers: { cookie: `${COOKIE}=${owner}`, ...headers } })
        expect([response.status, response.json<{ type: string }>().type], `${method} ${url} ${JSON.stringify(headers)}`)
          .toEqual([403, '/api/v1/problems/cross-site-request'])
      }
    }
    const auditAfter = await h.context.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(Number(auditAfter.n)).toBe(Number(auditBefore.n))
    // Same origin without an Origin header (Sec-Fetch-Site) is accepted.
    const sameSite = await h.request({ method: 'POST', url: '/api/admin/v1/sign-in/link', payload: { email: 'x@example.org' },
      headers: { 'sec-fetch-site': 'same-origin' } })
    expect(sameSite.status).toBe(202)
  })

  it('answers 404 on every club route for a club the caller does not administer, and for ids of another club', async () => {
    // Club B's records: an owner, a key, an invitation.
    const invited = await cli(env, ['admins', 'invite', '--club', 'hillside', '--email', 'hana@example.org', '--json'], h.clock)
    expect(invited.code).toBe(0)
    const hana = await accept('hana@example.org')
    const keyOfB = (await post('/api/admin/v1/clubs/hillside/api-keys', { name: 'b', scopes: ['read:news'] }, hana.cookie))
      .json<{ api_key: { id: string } }>().api_key.id
    expect((await post('/api/admin/v1/clubs/hillside/invitations', { email: 'bert@example.org', role: 'admin' }, hana.cookie)).status)
      .toBe(204)
    const invitationOfB = (await as(hana.cookie, 'GET', '/api/admin/v1/clubs/hillside/team'))
      .json<{ invitations: { id: string }[] }>().invitations[0]?.id ?? ''
    const holdOfB = (await post(`/api/admin/v1/clubs/hillside/courts/${idFor('court:hillside')}/holds`, { kind: 'block',
      starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z' }, hana.cookie)).json<{ id: string }>().id
    const hillside = (await h.context.db.selectFrom('clubs').select('id').where('slug', '=', 'hillside').executeTakeFirstOrThrow()).id
    const content = { member: idFor('member:hillside'), group: idFor('group:hillside'), event: idFor('event:hillside'),
      news: idFor('news:hillside'), result: idFor('result:hillside') }
    await importClubData(h.context.db, h.clock, hillside, {
      members: [{ id: content.member, name: 'Hanna Hill', email: 'hanna.hill@example.org' }],
      groups: [{ id: content.group, name: 'Hill juniors', sport: 'tennis' }],
      events: [{ id: content.event, title: 'Hill day', starts_at: '2027-01-01T10:00:00Z', public_booking: true }],
      news: [{ id: content.news, title: 'Hill news', content: 'x', published_at: '2026-01-01T10:00:00Z' }],
      competition_results: [{ id: content.result, member_id: content.member, group_id: content.group, competition_name: 'Hill cup' }],
    })
    const endpointOfB = (await post('/api/admin/v1/clubs/hillside/webhook-endpoints', { url: 'https://hill-hooks.example/in',
      description: 'Hill hooks', event_types: ['booking.created'] }, hana.cookie)).json<{ endpoint: { id: string } }>().endpoint.id
    const deliveryOfB = (await post(`/api/admin/v1/clubs/hillside/webhook-endpoints/${endpointOfB}/test`, {}, hana.cookie))
      .json<{ id: string }>().id
    const seriesOfB = await post('/api/admin/v1/clubs/hillside/series', { court_id: idFor('court:hillside'), start_time: '12:00',
      end_time: '13:00', first_date: tomorrow(), last_date: addDays(tomorrow(), 7), booker_name: 'Hill series', collisions: 'skip' },
    hana.cookie)
    expect(seriesOfB.status, seriesOfB.body).toBe(201)
    const idsOfB = { key: keyOfB, admin: hana.me.admin_id, invitation: invitationOfB,
      booking: await book('hillside', '10:00', 'hilde@example.org'), court: idFor('court:hillside'), hold: holdOfB, ...content,
      endpoint: endpointOfB, delivery: deliveryOfB, series: seriesOfB.json<{ id: string }>().id,
      feed: (await post('/api/admin/v1/clubs/hillside/calendar-feeds', { name: 'Hill office' }, hana.cookie))
        .json<{ feed: { id: string } }>().feed.id }
    // Club B's rows, which no request of club A's owner may change.
    const snapshot = async () => JSON.stringify([
      await Promise.all(['club_admins', 'api_keys', 'admin_invitations', 'bookings', 'mail_outbox', 'booking_requests', 'courts',
        'court_holds', 'members', 'groups', 'events', 'news', 'competition_results', 'webhook_endpoints', 'webhook_messages',
        'webhook_deliveries', 'booking_series', 'calendar_feeds'].map((table) =>
        h.context.db.selectFrom(table as 'club_admins').selectAll().where('club_id', '=', hillside).execute())),
      await h.context.db.selectFrom('clubs').selectAll().where('id', '=', hillside).execute()])
    const before = await snapshot()

    const document = (await h.app.inject({ url: '/api/admin/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>()
    const clubRoutes = Object.entries(document.paths).filter(([path]) => path.includes('{club}'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })))
    expect(clubRoutes.length).toBeGreaterThanOrEqual(8)
    const court = { name: 'Tenancy court', sport: 'tennis', active: false, slot_minutes: 60, booking_horizon_days: 7,
      max_slots_per_booking: 1, opening_hours: { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null } }
    const hold = { kind: 'block', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', cancel_displaced_bookings: true }
    const bodies: Record<string, unknown> = { 'api-keys': { name: 'x', scopes: ['read:groups'] }, 'invitations': { email: 'm@example.org',
      role: 'owner' }, 'role': { role: 'owner' }, 'booking-rules': { cancellation_deadline_minutes: 60, retention_days: 30,
      privacy_url: null, max_open_bookings_per_email: null, guests_may_book: true }, 'cancel': { reason: 'x' },
    'move': { court_id: idFor('court:hillside'), start_time: '2027-01-01T12:00:00+01:00', end_time: '2027-01-01T13:00:00+01:00' },
    'bookings': { court_id: idFor('court:hillside'), start_time: '2027-01-01T12:00:00+01:00', end_time: '2027-01-01T13:00:00+01:00',
      booker_name: 'Desk guest', override_horizon: true, override_reason: 'tenancy' },
    'export': { email: 'hilde@example.org' }, 'erase': { email: 'hilde@example.org' },
    'website': { websites: ['https://www.example.org'] }, 'courts': court, '{court}': { ...court, cancel_displaced_bookings: true }, 'holds': hold, '{hold}': hold,
    ...contentBodies(content), 'webhook-endpoints': { url: 'https://hooks.example/in', event_types: ['booking.created'] },
    '{endpoint}': { url: 'https://hooks.example/in', event_types: ['news.published'], enabled: false }, 'secret': { overlap_hours: 1 },
    'calendar-feeds': { name: 'Tenancy feed', show_names: true } }
    const series = { court_id: idFor('court:hillside'), start_time: '12:00', end_time: '13:00', first_date: '2027-01-01',
      last_date: '2027-02-01', booker_name: 'Desk series' }
    const bodyOf = (path: string) => (path.endsWith('/holds/preview')
      ? hold
      : path.endsWith('/series/preview')
        ? series
        : path.endsWith('/preview')
          ? court
          : path.endsWith('/series')
            ? { ...series, collisions: 'skip' }
            : path.endsWith('/series/{series}/cancel')
              ? { from: '2027-01-01' }
              : bodies[path.split('/').at(-1) ?? ''])
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...clubRoutes),
      fc.constantFrom('hillside', 'riverside', 'nonexistent', 'RIVERSIDE'),
      async ({ method, path }, club) => {
        // The caller's own event stream stays open (test/processes/planner-events.test.ts reads it over HTTP).
        fc.pre(!(path.endsWith('/planner/events') && club === 'riverside'))
        const url = path.replace('{club}', club).replace(/\{([a-z]+)\}/g, (_, name: keyof typeof idsOfB) => idsOfB[name])
        const response = await h.request({ method: method, url, headers: { origin: ORIGIN, cookie: `${COOKIE}=${owner}` },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: bodyOf(path) as Record<string, unknown> }) })
        // riverside is the caller's club: there, B's ids are unknown (404); every other club is unknown as a whole.
        const mayPass = club === 'riverside'
          && !/\{(key|admin|invitation|booking|court|hold|member|group|event|news|result|endpoint|delivery|series|feed)\}/
            .test(path)
        if (!mayPass) expect(response.status, `${method} ${url}: ${response.body}`).toBe(404)
        // Nothing of club B beyond what the request itself named: not its name, not its people, not its content.
        const named = JSON.stringify(method === 'GET' || method === 'DELETE' ? null : bodyOf(path) ?? null)
        for (const secret of ['Club hillside', 'hana@', 'hilde@', 'hanna.hill@', 'Hanna Hill', 'Hill juniors', 'Hill day', 'Hill news',
          'Hill cup', 'hill-hooks', 'Hill hooks', 'Hill office']) {
          if (!named.includes(secret)) expect(response.body, `${method} ${url}`).not.toContain(secret)
        }
      },
    ), { numRuns: 220 })
    expect(await snapshot()).toBe(before)
  })

  it('makes a private calendar feed whose address is answered once and works, lists it without it, and revokes it', async () => {
    const made = await post('/api/admin/v1/clubs/riverside/calendar-feeds', { name: 'Office' }, owner)
    expect(made.status, made.body).toBe(201)
    interface Made { feed: { id: string, show_names: boolean, status: string }, url: string, webcal_url: string }
    const { feed, url, webcal_url: webcal } = made.json<Made>()
    expect([feed.show_names, feed.status, webcal]).toEqual([false, 'active', url.replace(/^https?:/, 'webcal:')])
    const path = new URL(url).pathname
    expect((await h.request({ url: path })).status).toBe(200)
    const listed = await as(owner, 'GET', '/api/admin/v1/clubs/riverside/calendar-feeds')
    expect(listed.body).not.toContain(path)
    // Among the club's feeds (the tenancy test above makes some in this club too).
    const list = listed.json<{ items: { id: string }[], events_feed_url: string }>()
    expect(list.items.map((item) => item.id)).toContain(feed.id)
    expect(list.events_feed_url).toMatch(/^webcal:\/\/.*\/calendar\/riverside\/events\.ics$/)
    expect((await post('/api/admin/v1/clubs/riverside/calendar-feeds', { name: '' }, owner)).status).toBe(400)
    const revoked = await as(owner, 'DELETE', `/api/admin/v1/clubs/riverside/calendar-feeds/${feed.id}`)
    expect([revoked.status, revoked.json<{ status: string }>().status]).toEqual([200, 'revoked'])
    expect((await h.request({ url: path })).status).toBe(404)
    const audit = await as(owner, 'GET', '/api/admin/v1/clubs/riverside/audit')
    expect(audit.body).toContain('calendar_feed.created')
    expect(audit.body).toContain('calendar_feed.revoked')
    expect(audit.body).not.toContain(path.slice('/calendar/'.length, -'.ics'.length))
  })

  it('shows the day\'s bookings, changes the rules, cancels with a reason (mailed once), and exports and erases for owners', async () => {
    const gina = await book('riverside', '18:00', 'gina@example.org')
    const day = await as(owner, 'GET', `/api/admin/v1/clubs/riverside/bookings?date=${tomorrow()}`)
    expect(day.status, day.body).toBe(200)
    expect(day.json<{ timezone: string, items: { id: string, booker_email: string, start_time: string, status: string }[] }>())
      .toMatchObject({ timezone: 'Europe/Berlin', items: [{ id: gina, booker_email: 'gina@example.org',
        start_time: `${tomorrow()}T18:00:00+02:00`, status: 'confirmed' }] })
    expect((await as(owner, 'GET', '/api/admin/v1/clubs/riverside/bookings?date=16.06.2026')).status).toBe(400)

    const rules = { cancellation_deadline_minutes: 360, retention_days: 30, privacy_url: 'https://riverside.example/privacy',
      max_open_bookings_per_email: 3, guests_may_book: true }
    const changed = await as(owner, 'PUT', '/api/admin/v1/clubs/riverside/booking-rules', rules)
    // Language and contact address, left out of a change, stay as they were.
    const none = { contact_email: null, contact_phone: null, address: null }
    expect([changed.status, changed.json()]).toEqual([200, { ...rules, language: 'en', ...none, waiting_list: true }])
    const guests = await as(owner, 'PUT', '/api/admin/v1/clubs/riverside/booking-rules',
      { ...rules, language: 'nl', contact_email: 'Office@Riverside.example', contact_phone: ' +49 30 1234567 ',
        address: 'Uferweg 4, 10557 Berlin' })
    expect([guests.status, guests.json()]).toEqual([200, { ...rules, language: 'nl', contact_email: 'office@riverside.example',
      contact_phone: '+49 30 1234567', address: 'Uferweg 4, 10557 Berlin', waiting_list: true }])
    const back = await as(owner, 'PUT', '/api/admin/v1/clubs/riverside/booking-rules', { ...rules, language: 'en', ...none })
    expect(back.json()).toEqual({ ...rules, language: 'en', ...none, waiting_list: true })
    expect((await as(owner, 'GET', '/api/admin/v1/clubs/riverside/booking-rules')).json()).toEqual({ ...rules, language: 'en',
      ...none, waiting_list: true })
    for (const wrong of [{ ...rules, privacy_url: 'javascript:alert(1)' }, { ...rules, cancellation_deadline_minutes: 7 },
      { ...rules, retention_days: 0 }, { cancellation_deadline_minutes: 60 }, { ...rules, language: 'pl' },
      { ...rules, contact_email: 'not an address' }, { ...rules, contact_email: 'office@riverside.example\r\nBcc: x@evil.example' },
      { ...rules, contact_phone: 'call us' }, { ...rules, contact_phone: '12' }, { ...rules, address: 'Uferweg 4\nBerlin' }]) {
      expect((await as(owner, 'PUT', '/api/admin/v1/clubs/riverside/booking-rules', wrong)).status, JSON.stringify(wrong)).toBe(400)
    }

    while (await h.context.mail.runOnce() > 0);
    const before = smtp.received.length
    const cancel = () => post(`/api/admin/v1/clubs/riverside/bookings/${gina}/cancel`, { reason: 'The court is flooded.' }, owner)
    const cancelled = await cancel()
    expect(cancelled.status, cancelled.body).toBe(200)
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'club', cancel_reason: 'The court is flooded.' })
    expect((await cancel()).json()).toMatchObject({ status: 'cancelled' })
    while (await h.context.mail.runOnce() > 0);
    const mails = smtp.received.slice(before).filter((mail) => mail.envelopeTo.includes('gina@example.org'))
    expect(mails).toHaveLength(1)
    expect(mails[0]?.parsed.text).toContain('The court is flooded.')

    // A booking that has ended stays as it was.
    const past = await book('riverside', '08:00', 'early@example.org')
    const now = h.clock.now()
    h.clock.set(`${tomorrow()}T09:00:00+02:00`)
    try {
      expect((await post(`/api/admin/v1/clubs/riverside/bookings/${past}/cancel`, {}, owner)).status).toBe(409)
    } finally {
      h.clock.set(now)
    }

    const exported = await post('/api/admin/v1/clubs/riverside/personal-data/export', { email: 'Gina@Example.org' }, owner)
    expect(exported.status, exported.body).toBe(200)
    expect(exported.json<{ bookings: { id: string }[] }>().bookings.map((booking) => booking.id)).toEqual([gina])
    const erased = await post('/api/admin/v1/clubs/riverside/personal-data/erase', { email: 'gina@example.org' }, owner)
    expect(erased.json()).toEqual({ bookings: 1, mails: 2, idempotency_records: 0, waiting_list_entries: 0,
      member_records_kept: 0 })
    expect((await post('/api/admin/v1/clubs/riverside/personal-data/erase', { email: 'no address' }, owner)).status).toBe(400)

    // An admin manages bookings but not personal data.
    expect((await post('/api/admin/v1/clubs/riverside/invitations', { email: 'ada@example.org', role: 'admin' }, owner)).status).toBe(204)
    const ada = await accept('ada@example.org')
    expect((await as(ada.cookie, 'GET', '/api/admin/v1/clubs/riverside/bookings')).status).toBe(200)
    expect((await post('/api/admin/v1/clubs/riverside/personal-data/export', { email: 'x@example.org' }, ada.cookie)).status).toBe(403)

    const audit = await h.context.db.selectFrom('audit_log').select(['action', 'target'])
      .where('action', 'in', ['booking.cancelled', 'booking_rules.changed', 'personal_data.exported', 'personal_data.erased']).execute()
    expect(audit.map((entry) => entry.action))
      .toEqual(expect.arrayContaining(['booking.cancelled', 'booking_rules.changed', 'personal_data.erased', 'personal_data.exported']))
    expect(JSON.stringify(audit)).not.toContain('gina')
  })

  it('creates and changes courts, asking before a change leaves bookings without a place, and keeps holds on a week view', async () => {
    const base = '/api/admin/v1/clubs/riverside/courts'
    const allDay = { open: '00:00', close: '24:00' }
    const week = (hours: { open: string, close: string } | null) => Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, hours]))
    const court1 = idFor('court:riverside')
    const listed = await as(owner, 'GET', base)
    expect(listed.status, listed.body).toBe(200)
    const first = listed.json<{ items: { id: string }[] }>().items.find((court) => court.id === court1)
    expect(first).toEqual({ id: court1, name: 'Court 1', sport: 'tennis', active: true, slot_minutes: 60, opening_hours: week(allDay),
      booking_horizon_days: 30, max_slots_per_booking: 2 })

    const padel = { name: 'Padel', sport: 'padel', active: true, slot_minutes: 90, opening_hours: { ...week({ open: '08:00',
      close: '22:00' }), sun: null }, booking_horizon_days: 14, max_slots_per_booking: 1 }
    const created = await post(base, padel, owner)
    expect(created.status, created.body).toBe(201)
    const { id: padelId, ...createdPadel } = created.json<{ id: string }>()
    expect([padelId, createdPadel]).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), padel])
    const twin = await post(base, { ...padel, name: ' padel ' }, owner)
    expect([twin.status, twin.json<{ invalid_params: { name: string }[] }>().invalid_params[0]?.name]).toEqual([400, 'name'])
    for (const wrong of [{ ...padel, slot_minutes: 7 }, { ...padel, opening_hours: { ...padel.opening_hours, mon: { open: '22:00',
      close: '08:00' } } }, { ...padel, name: '' }, { ...padel, opening_hours: { mon: allDay } }]) {
      expect((await post(base, { ...wrong, name: wrong.name === '' ? '' : 'Other' }, owner)).status, JSON.stringify(wrong)).toBe(400)
    }

    // Hours that leave a booking off the grid: listed first, refused without the instruction, then cancelled with it.
    const kim = await book('riverside', '10:00', 'kim@example.org')
    const later = { name: 'Court 1', sport: 'tennis', active: true, slot_minutes: 60, booking_horizon_days: 30, max_slots_per_booking: 2,
      opening_hours: week({ open: '12:00', close: '24:00' }) }
    const preview = await post(`${base}/${court1}/preview`, later, owner)
    expect(preview.status, preview.body).toBe(200)
    expect(preview.json<{ items: { id: string }[] }>().items.map((booking) => booking.id)).toContain(kim)
    const refused = await as(owner, 'PUT', `${base}/${court1}`, later)
    expect([refused.status, refused.json<{ type: string }>().type]).toEqual([409, '/api/v1/problems/conflict'])
    expect(refused.json<{ detail: string }>().detail).toContain(kim)
    expect((await as(owner, 'GET', base)).json<{ items: { id: string, opening_hours: unknown }[] }>().items
      .find((court) => court.id === court1)?.opening_hours).toEqual(week(allDay))
    // A rename keeps every booking in place.
    const renamed = await as(owner, 'PUT', `${base}/${court1}`, { ...later, name: 'Centre Court', opening_hours: week(allDay) })
    expect([renamed.status, renamed.json<{ name: string }>().name]).toEqual([200, 'Centre Court'])
    while (await h.context.mail.runOnce() > 0);
    const before = smtp.received.length
    const moved = await as(owner, 'PUT', `${base}/${court1}`, { ...later, name: 'Centre Court', cancel_displaced_bookings: true })
    expect(moved.status, moved.body).toBe(200)
    expect(moved.json<{ bookings_cancelled: number }>().bookings_cancelled).toBeGreaterThanOrEqual(1)
    const day = (await as(owner, 'GET', `/api/admin/v1/clubs/riverside/bookings?date=${tomorrow()}`))
      .json<{ items: { id: string, status: string, cancelled_by: string | null }[] }>().items
    expect(day.find((booking) => booking.id === kim)).toMatchObject({ status: 'cancelled', cancelled_by: 'club' })
    while (await h.context.mail.runOnce() > 0);
    expect(smtp.received.slice(before).filter((mail) => mail.envelopeTo.includes('kim@example.org'))).toHaveLength(1)

    // A weekly reservation over a booking: the same question.
    const lena = await book('riverside', '18:00', 'lena@example.org')
    const weekday = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'][(new Date(`${tomorrow()}T12:00:00Z`).getUTCDay() + 6) % 7]
    const training = { kind: 'reservation', weekday, start_time: '18:00', end_time: '20:00', reason: 'Team training' }
    const holdPreview = await post(`${base}/${court1}/holds/preview`, training, owner)
    expect(holdPreview.json<{ items: { id: string }[] }>().items.map((booking) => booking.id)).toEqual([lena])
    expect((await post(`${base}/${court1}/holds`, training, owner)).status).toBe(409)
    const added = await post(`${base}/${court1}/holds`, { ...training, cancel_displaced_bookings: true }, owner)
    expect(added.status, added.body).toBe(201)
    const hold = added.json<{ id: string }>().id
    const { bookings_cancelled: cancelledWithHold, ...addedHold } = added.json<{ bookings_cancelled: number }>()
    expect(cancelledWithHold).toBe(1)
    expect(addedHold).toEqual({ id: hold, court_id: court1, kind: 'reservation', reason: 'Team training', starts_at: null,
      ends_at: null, weekday, start_time: '18:00', end_time: '20:00', valid_from: null, valid_until: null })
    expect((await as(owner, 'GET', `${base}/${court1}/holds`)).json()).toEqual({ items: [addedHold] })
    const statusAt = async (time: string) => {
      const shown = await as(owner, 'GET', `${base}/${court1}/week?date=${tomorrow()}`)
      expect(shown.status, shown.body).toBe(200)
      const days = shown.json<{ days: { date: string, slots: { start_time: string, status: string }[] }[] }>().days
      expect(days).toHaveLength(7)
      return days.find((entry) => entry.date === tomorrow())?.slots.find((slot) => slot.start_time === `${tomorrow()}T${time}:00+02:00`)
        ?.status
    }
    expect([await statusAt('18:00'), await statusAt('19:00'), await statusAt('20:00'), await statusAt('10:00')])
      .toEqual(['reserved', 'reserved', 'available', undefined])
    const edited = await as(owner, 'PUT', `${base}/${court1}/holds/${hold}`, { ...training, kind: 'block', start_time: '19:00',
      end_time: '21:00' })
    expect([edited.status, edited.json()]).toMatchObject([200, { kind: 'block', start_time: '19:00' }])
    expect(await statusAt('20:00')).toBe('blocked')
    expect((await post(`${base}/${court1}/holds`, { kind: 'block', weekday, start_time: '20:00' }, owner)).status).toBe(400)
    expect((await as(owner, 'DELETE', `${base}/${court1}/holds/${hold}`)).status).toBe(204)
    expect((await as(owner, 'DELETE', `${base}/${court1}/holds/${hold}`)).status).toBe(404)
    expect((await as(owner, 'GET', `${base}/${court1}/holds`)).json()).toEqual({ items: [] })

    // Out of use with bookings ahead: asked again.
    const nina = await book('riverside', '14:00', 'nina@example.org')
    const closed = await as(owner, 'PUT', `${base}/${court1}`, { ...later, name: 'Centre Court', active: false })
    expect([closed.status, closed.json<{ detail: string }>().detail]).toEqual([409, expect.stringContaining(nina)])

    const audit = await h.context.db.selectFrom('audit_log').select('action').where('action', 'in', ['court.created', 'court.changed',
      'hold.added', 'hold.changed', 'hold.removed']).execute()
    expect(new Set(audit.map((entry) => entry.action))).toEqual(new Set(['court.created', 'court.changed', 'hold.added', 'hold.changed',
      'hold.removed']))
  })

  it('finds bookings by part of a name or address, court, state and dates, and exports a date range as CSV', async () => {
    const base = '/api/admin/v1/clubs/riverside/bookings'
    const formula = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: idFor('court:riverside'), start_time: `${tomorrow()}T16:00:00+02:00`, end_time: `${tomorrow()}T17:00:00+02:00`,
      booker_name: '=HYPERLINK("x")', booker_email: 'odd_name%@example.org', notes: 'Bring, "balls"' } })
    expect(formula.status, formula.body).toBe(201)
    const found = async (query: string) => {
      const response = await as(owner, 'GET', `${base}/search?from=${tomorrow()}&to=${tomorrow()}${query}`)
      expect(response.status, response.body).toBe(200)
      return response.json<{ items: { booker_email: string, status: string }[], truncated: boolean }>()
    }
    expect((await found('&q=NINA')).items.map((booking) => booking.booker_email)).toEqual(['nina@example.org'])
    expect((await found('&q=_name%25')).items.map((booking) => booking.booker_email)).toEqual(['odd_name%@example.org'])
    expect((await found('&q=%25')).items.map((booking) => booking.booker_email)).toEqual(['odd_name%@example.org'])
    const cancelled = await found('&status=cancelled')
    expect(cancelled.items.length).toBeGreaterThanOrEqual(2)
    expect(cancelled.items.every((booking) => booking.status === 'cancelled')).toBe(true)
    expect((await found(`&court=${idFor('court:hillside')}`)).items).toEqual([])
    expect((await found('')).truncated).toBe(false)
    for (const wrong of [`from=${tomorrow()}&to=${addDays(tomorrow(), -1)}`, `from=${tomorrow()}&to=${addDays(tomorrow(), 367)}`,
      `from=${tomorrow()}`, `from=${tomorrow()}&to=${tomorrow()}&status=gone`]) {
      expect((await as(owner, 'GET', `${base}/search?${wrong}`)).status, wrong).toBe(400)
    }

    const csv = await h.app.inject({ url: `${base}/export?from=${tomorrow()}&to=${addDays(tomorrow(), 7)}`,
      headers: { cookie: `${COOKIE}=${owner}` } })
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="bookings-riverside-${tomorrow()}-${addDays(tomorrow(), 7)}.csv"`)
    const lines = csv.body.split('\r\n')
    expect(lines[0]).toBe('\uFEFFid,court_name,start_time,end_time,status,booker_name,booker_email,notes,created_at,cancelled_at,'
      + 'cancelled_by,cancel_reason')
    expect(lines.at(-1)).toBe('')
    expect(lines.length - 2).toBe((await found('')).items.length)
    expect(csv.body).toContain(`,"'=HYPERLINK(""x"")",odd_name%@example.org,"Bring, ""balls""",`)
    expect((await h.app.inject({ url: `${base}/export?from=${tomorrow()}&to=${tomorrow()}` })).statusCode).toBe(401)
  })

  it('builds links from PUBLIC_URL whatever Host the request names, and sends one address at most five links an hour', async () => {
    const before = smtp.received.length
    const invited = await h.request({ method: 'POST', url: '/api/admin/v1/clubs/riverside/invitations',
      payload: { email: 'host@example.org', role: 'admin' },
      headers: { 'origin': ORIGIN, 'cookie': `${COOKIE}=${owner}`, 'host': 'evil.example', 'x-forwarded-host': 'evil.example' } })
    expect(invited.status, invited.body).toBe(204)
    while (await h.context.mail.runOnce() > 0);
    const text = smtp.received.slice(before).find((mail) => mail.envelopeTo.includes('host@example.org'))?.parsed.text ?? ''
    expect(text).toContain(`${ORIGIN}/dashboard/invitation#token=cpi_`)
    expect(text).not.toContain('evil.example')

    h.clock.advance(2 * 3_600_000)
    const mailsBefore = smtp.received.length
    for (let i = 0; i < 7; i++) {
      expect((await post('/api/admin/v1/sign-in/link', { email: 'olivia.owner@example.org' })).status).toBe(202)
    }
    await h.context.background.settled()
    while (await h.context.mail.runOnce() > 0);
    expect(smtp.received.slice(mailsBefore).filter((mail) => mail.envelopeTo.includes('olivia.owner@example.org'))).toHaveLength(5)
  })

  it('records every action in the audit log, for owners only, without a key or a token', async () => {
    const log = await as(owner, 'GET', '/api/admin/v1/clubs/riverside/audit')
    expect(log.status).toBe(200)
    const actions = log.json<{ items: { action: string, actor: string }[] }>().items.map((entry) => `${entry.actor} ${entry.action}`)
    expect(actions).toEqual(expect.arrayContaining(['operator invitation.created', 'olivia.owner@example.org invitation.accepted',
      'olivia.owner@example.org api_key.created', 'olivia.owner@example.org api_key.revoked', 'adam@example.org invitation.accepted']))
    const printed = await cli(env, ['audit', '--json', '--limit', '1000'], h.clock)
    expect(printed.code).toBe(0)
    const everything = JSON.stringify(await h.context.db.selectFrom('audit_log').selectAll().execute())
    expect(everything).toContain('sign_in')
    for (const text of [everything, printed.stdout, log.body]) expect(text).not.toMatch(/cp[kils]_[A-Za-z0-9_-]{20}/)
  })
})

describe('dashboard sign-in requests', () => {
  it('are limited per client address: ten at once, then ten an hour, answered 429 with Retry-After', async () => {
    const h = await startHarness('sqlite', { env: { SIGN_IN_RATE_CAPACITY: '10', SIGN_IN_RATE_PER_HOUR: '10' } })
    try {
      const ask = (remoteAddress: string) => h.app.inject({ method: 'POST', url: '/api/admin/v1/sign-in/link', remoteAddress,
        headers: { origin: h.context.config.publicUrl.origin }, payload: { email: 'flood@example.org' } })
      const statuses = []
      for (let i = 0; i < 11; i++) statuses.push((await ask('203.0.113.9')).statusCode)
      expect(statuses).toEqual([...Array.from({ length: 10 }, () => 202), 429])
      expect((await ask('203.0.113.9')).headers['retry-after']).toBe('360')
      expect((await ask('203.0.113.10')).statusCode).toBe(202)
      h.clock.advance(360_000)
      expect((await ask('203.0.113.9')).statusCode).toBe(202)
      await h.context.background.settled()
    } finally {
      await h.close()
    }
  })
})

describe('dashboard route declarations', () => {
  it('stop the application from starting when a role lacks :club, :club lacks a role, or the route is outside the prefix', async () => {
    const h = await startHarness('sqlite')
    try {
      const guard = dashboardGuard(h.context)
      expect(() => guard('admin', { method: 'GET', url: '/api/admin/v1/me/things' })).toThrow(/:club/)
      expect(() => guard('signed-in', { method: 'GET', url: '/api/admin/v1/clubs/:club/things' })).toThrow(/:club/)
      expect(() => guard('anyone', { method: 'POST', url: '/api/v1/things' })).toThrow(/outside/)
      expect(() => guard('owner', { method: 'GET', url: '/api/admin/v1/clubs/:club/things' })).not.toThrow()
    } finally {
      await h.close()
    }
  })
})

describe('dashboard API description', () => {
  it('is served on its own, and the public description leaves the dashboard out', async () => {
    const h = await startHarness('sqlite')
    try {
      const admin = await h.app.inject({ url: '/api/admin/v1/openapi.json' })
      expect(admin.statusCode).toBe(200)
      const paths = Object.keys(admin.json<{ paths: object }>().paths)
      expect(paths).toContain('/api/admin/v1/clubs/{club}/api-keys')
      const publicPaths = Object.keys((await h.app.inject({ url: '/api/v1/openapi.json' })).json<{ paths: object }>().paths)
      expect(publicPaths.filter((path) => path.startsWith('/api/admin'))).toEqual([])
      const publicSchemas = Object.keys((await h.app.inject({ url: '/api/v1/openapi.json' }))
        .json<{ components: { schemas: object } }>().components.schemas)
      expect(publicSchemas.filter((name) => /ApiKey|Passkey|Session|Team|Audit|Invitation|^Me$/.test(name))).toEqual([])
      const preflight = await h.app.inject({ method: 'OPTIONS', url: '/api/admin/v1/me',
        headers: { 'origin': 'https://evil.example', 'access-control-request-method': 'GET' } })
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    } finally {
      await h.close()
    }
  })
})

/**
 * Bodies for the content routes that name club B's records wherever a body can: a change of the
 * own club that points at B's member or group, B's records by id in an import file, B's member
 * by e-mail in a results file.
 */
function contentBodies(b: Record<'member' | 'group' | 'event' | 'news' | 'result', string>): Record<string, unknown> {
  const member = { name: 'Mallory', email: 'mallory@example.org' }
  const group = { name: 'Copied juniors', sport: 'tennis', active: false }
  const event = { title: 'Copied day', starts_at: '2027-01-01T10:00:00Z', public_booking: false, group_id: b.group }
  const news = { title: 'Copied news', content: 'x', published_at: null, created_by: b.member }
  const result = { member_id: b.member, group_id: b.group, competition_name: 'Copied cup' }
  return {
    'members': member, '{member}': { ...member, version: 1 },
    'groups': group, '{group}': { ...group, version: 1 },
    'events': event, '{event}': { ...event, version: 1 },
    'news': news, '{news}': { ...news, version: 1 },
    'competition-results': result, '{result}': { ...result, version: 1 },
    'csv': { csv: `member,group,competition_name\nhanna.hill@example.org,Hill juniors,Copied cup\n${b.member},${b.group},Copied cup` },
    'import': { members: [{ id: b.member, ...member }], groups: [{ id: b.group, ...group }], events: [{ id: b.event, ...event }],
      news: [{ id: b.news, ...news }], competition_results: [{ id: b.result, ...result }] },
  }
}
