/**
 * The audit log as a club's owners read it (docs/dashboard.md, "Audit log"): each entry names its
 * target as the club knows it (a court, a hold, a key, a person, an endpoint, a booking by court and
 * time — never its guest), a court's change lists its fields, every booking a change of hours or a
 * hold cancelled is there with the reason the guests were mailed, the team's sign-ins are there
 * (and nowhere else), and the log is filtered by who, what and when and exported as CSV.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'

interface Entry {
  actor: string
  action: string
  target: string | null
  target_name: string | null
  fields: string[] | null
  detail: string | null
  created_at: string
}

const CLUB = '/api/admin/v1/clubs/riverside'
/** The harness clock's day is Monday 2026-06-15; the next day at the club. */
const TUESDAY = '2026-06-16'

describeEachDatabase('the audit log', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>
  let other: ReturnType<typeof asSession>

  beforeAll(async () => {
    await smtp.start()
    // Sessions that outlast the days the test moves through.
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      SESSION_IDLE_HOURS: '720' } })
    const { clubId } = await setUpCourts(h, 'riverside')
    owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
    other = asSession(h, await signedIn(h, (await h.createClub('hillside')).id, 'hugo@example.org', 'owner'))
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  const log = async (query = '') => {
    const answer = await owner('GET', `${CLUB}/audit${query}`)
    expect(answer.status, answer.body).toBe(200)
    return answer.json<{ items: Entry[] }>().items
  }
  const book = async (time: string, email: string) => {
    const answer = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: { court_id: COURT.allDay,
      start_time: `${TUESDAY}T${time}:00+02:00`, end_time: `${TUESDAY}T${String(Number(time.slice(0, 2)) + 1).padStart(2, '0')}:00:00+02:00`,
      booker_name: 'Gina Guest', booker_email: email } })
    expect(answer.status, answer.body).toBe(201)
    return answer.json<{ booking_id: string }>().booking_id
  }
  /** The mail to an address whose subject matches (the newest), once the outbox is delivered. */
  const mailTo = async (address: string, subject = /./) => {
    await h.context.background.settled()
    while (await h.context.mail.runOnce() > 0);
    return smtp.received.filter((mail) => mail.envelopeTo.includes(address) && subject.test(mail.parsed.subject ?? '')).at(-1)
  }
  const cancellationTo = (address: string) => mailTo(address, /^Booking cancelled/)

  it('records every booking a change of hours cancelled, with the reason the guest was mailed, and the court\'s changed fields',
    async () => {
      const early = await book('07:00', 'early@example.org')
      const court = { name: 'Court D (floodlit)', sport: 'tennis', active: true, slot_minutes: 60, booking_horizon_days: 366,
        max_slots_per_booking: 2, opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
          .map((day) => [day, { open: '08:00', close: '22:00' }])) }
      const changed = await owner('PUT', `${CLUB}/courts/${COURT.allDay}`, { ...court, cancel_displaced_bookings: true,
        cancellation_reason: 'The floodlights are being replaced.' })
      expect(changed.status, changed.body).toBe(200)
      expect(changed.json<{ bookings_cancelled: number }>().bookings_cancelled).toBe(1)
      expect((await cancellationTo('early@example.org'))?.parsed.text).toContain('The floodlights are being replaced.')
      const entries = await log()
      expect(entries.find((entry) => entry.action === 'booking.cancelled' && entry.target === early)).toMatchObject({
        actor: 'olivia@example.org', target_name: `Court D (floodlit), ${TUESDAY} 07:00–08:00`,
        detail: 'Court D (floodlit) changed: The floodlights are being replaced.' })
      expect(entries.find((entry) => entry.action === 'court.changed')).toMatchObject({ target: COURT.allDay,
        target_name: 'Court D (floodlit)', fields: ['opening_hours'], detail: '1 booking cancelled with it, the guests mailed' })
      // The guest is never named: not in the entry, not anywhere in the log.
      expect(JSON.stringify(entries)).not.toMatch(/Gina|early@example/)
    })

  it('records every booking a block cancelled, and names the hold by its court and time', async () => {
    const late = await book('20:00', 'late@example.org')
    const block = { kind: 'block', reason: 'Storm damage', starts_at: `${TUESDAY}T19:00:00+02:00`, ends_at: `${TUESDAY}T22:00:00+02:00`,
      cancel_displaced_bookings: true, cancellation_reason: 'A tree fell on the court.' }
    const added = await owner('POST', `${CLUB}/courts/${COURT.allDay}/holds`, block)
    expect(added.status, added.body).toBe(201)
    expect(added.json<{ bookings_cancelled: number }>().bookings_cancelled).toBe(1)
    expect((await cancellationTo('late@example.org'))?.parsed.text).toContain('A tree fell on the court.')
    const entries = await log()
    expect(entries.find((entry) => entry.action === 'booking.cancelled' && entry.target === late)?.detail)
      .toBe('a block or reservation of Court D (floodlit): A tree fell on the court.')
    const label = `Court D (floodlit): block, ${TUESDAY} 19:00 – ${TUESDAY} 22:00 (Storm damage)`
    expect(entries.find((entry) => entry.action === 'hold.added')?.target_name).toBe(label)
    const id = added.json<{ id: string }>().id
    expect((await owner('DELETE', `${CLUB}/courts/${COURT.allDay}/holds/${id}`)).status).toBe(204)
    expect((await log()).find((entry) => entry.action === 'hold.removed')).toMatchObject({ target: id, target_name: label })
  })

  it('records the bookings the operator\'s block cancels, with the reason given on the command line', async () => {
    const noon = await book('12:00', 'noon@example.org')
    const env = { ...h.database.env, SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/` }
    const refused = await cli(env, ['courts', 'hold', '--club', 'riverside', '--court', COURT.allDay, '--kind', 'block',
      '--from', `${TUESDAY}T12:00:00+02:00`, '--to', `${TUESDAY}T13:00:00+02:00`, '--cancellation-reason', 'Resurfacing.'], h.clock)
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('only with --cancel-bookings') as unknown])
    const laid = await cli(env, ['courts', 'hold', '--club', 'riverside', '--court', COURT.allDay, '--kind', 'block',
      '--from', `${TUESDAY}T12:00:00+02:00`, '--to', `${TUESDAY}T13:00:00+02:00`, '--cancel-bookings',
      '--cancellation-reason', 'Resurfacing.', '--json'], h.clock)
    expect(laid.code, laid.stderr).toBe(0)
    expect(laid.json<{ bookings_cancelled: number }>().bookings_cancelled).toBe(1)
    expect((await cancellationTo('noon@example.org'))?.parsed.text).toContain('Resurfacing.')
    expect((await log()).find((entry) => entry.action === 'booking.cancelled' && entry.target === noon)).toMatchObject({
      actor: 'operator', detail: 'a block or reservation of Court D (floodlit): Resurfacing.' })
  })

  it('names keys, people, endpoints and content by name, not by id', async () => {
    const key = await owner('POST', `${CLUB}/api-keys`, { name: 'club website', scopes: ['read:groups'] })
    const keyId = key.json<{ api_key: { id: string, prefix: string } }>().api_key
    expect((await owner('DELETE', `${CLUB}/api-keys/${keyId.id}`)).status).toBe(204)
    expect((await owner('POST', `${CLUB}/invitations`, { email: 'erin@example.org', role: 'editor' })).status).toBe(204)
    const invitation = (await owner('GET', `${CLUB}/team`)).json<{ invitations: { id: string }[] }>().invitations[0]?.id ?? ''
    expect((await owner('DELETE', `${CLUB}/invitations/${invitation}`)).status).toBe(204)
    const adam = await signedIn(h, (await h.context.db.selectFrom('clubs').select('id').where('slug', '=', 'riverside')
      .executeTakeFirstOrThrow()).id, 'adam@example.org', 'admin')
    const adamId = (await asSession(h, adam)('GET', '/api/admin/v1/me')).json<{ admin_id: string }>().admin_id
    expect((await owner('PUT', `${CLUB}/admins/${adamId}/role`, { role: 'editor' })).status).toBe(204)
    const endpoint = await owner('POST', `${CLUB}/webhook-endpoints`, { url: 'http://127.0.0.1:9/hooks', event_types: ['booking.created'] })
    expect(endpoint.status, endpoint.body).toBe(201)
    const group = await owner('POST', `${CLUB}/groups`, { name: 'Juniors', sport: 'tennis' })
    expect(group.status, group.body).toBe(201)

    const entries = await log()
    const named = (action: string) => entries.find((entry) => entry.action === action)
    expect(named('api_key.created')).toMatchObject({ target: keyId.id, target_name: `club website (${keyId.prefix}…)`,
      detail: 'read:groups' })
    expect(named('api_key.revoked')).toMatchObject({ target: keyId.id, target_name: `club website (${keyId.prefix}…)` })
    expect(named('invitation.withdrawn')).toMatchObject({ target: invitation, target_name: 'erin@example.org' })
    expect(named('member.role_changed')).toMatchObject({ target: adamId, target_name: 'adam@example.org', detail: 'admin → editor' })
    expect(named('webhook.created')).toMatchObject({ target_name: 'http://127.0.0.1:9/hooks' })
    expect(named('group.created')).toMatchObject({ target_name: 'Juniors' })
  })

  it('shows the team\'s sign-ins and sign-outs to the club\'s owners, and to no other club', async () => {
    const ask = await h.request({ method: 'POST', url: '/api/admin/v1/sign-in/link', payload: { email: 'olivia@example.org' },
      headers: { origin: ORIGIN } })
    expect(ask.status).toBe(202)
    const link = await mailTo('olivia@example.org', /sign-in link/)
    const token = /#token=(cpl_[A-Za-z0-9_-]{43})/.exec(link?.parsed.text ?? '')?.[1]
    const signIn = await h.request({ method: 'POST', url: '/api/admin/v1/sign-in', payload: { token }, headers: { origin: ORIGIN } })
    expect(signIn.status, signIn.body).toBe(201)
    const session = signIn.json<{ session_id: string }>().session_id
    const cookie = String([signIn.headers['set-cookie']].flat()[0]).split(';')[0] ?? ''
    expect((await h.request({ method: 'DELETE', url: `/api/admin/v1/me/sessions/${session}`,
      headers: { origin: ORIGIN, cookie } })).status).toBe(204)
    const mine = await log('?kind=sign_in')
    expect(mine.map((entry) => [entry.actor, entry.action, entry.target_name])).toEqual(expect.arrayContaining([
      ['olivia@example.org', 'sign_in', 'e-mail link'], ['olivia@example.org', 'sign_in.link_sent', 'olivia@example.org']]))
    expect((await log('?kind=sign_out')).map((entry) => entry.action)).toEqual(['sign_out'])
    const theirs = (await other('GET', '/api/admin/v1/clubs/hillside/audit')).json<{ items: Entry[] }>().items
    expect(theirs.filter((entry) => entry.actor === 'olivia@example.org')).toEqual([])
  })

  it('filters by who, what and when, at the club, and refuses a range backwards', async () => {
    expect((await log('?actor=adam@example.org')).every((entry) => entry.actor === 'adam@example.org')).toBe(true)
    expect((await log('?actor=ADAM@example.org')).length).toBeGreaterThan(0)
    expect((await log('?actor=nobody@example.org'))).toEqual([])
    const bookings = await log('?kind=booking')
    expect(bookings.map((entry) => entry.action)).toEqual(['booking.cancelled', 'booking.cancelled', 'booking.cancelled'])
    // The harness's day at the club, 2026-06-15: the times are in the club's offset.
    expect((await log('?from=2026-06-15&to=2026-06-15')).length).toBe((await log()).length)
    expect((await log()).every((entry) => entry.created_at.endsWith('+02:00'))).toBe(true)
    expect(await log('?from=2026-06-16')).toEqual([])
    expect(await log('?to=2026-06-14')).toEqual([])
    h.clock.advance(2 * 86_400_000)
    await owner('POST', `${CLUB}/groups`, { name: 'Seniors', sport: 'tennis' })
    expect((await log('?from=2026-06-17')).map((entry) => entry.target_name)).toEqual(['Seniors'])
    const backwards = await owner('GET', `${CLUB}/audit?from=2026-06-17&to=2026-06-15`)
    expect([backwards.status, backwards.json<{ detail: string }>().detail]).toEqual([400, 'Query parameter "to" is before from.'])
    expect((await owner('GET', `${CLUB}/audit?kind=Robert'); drop table audit_log;--`)).status).toBe(400)
  })

  it('exports the filtered log as CSV, formulas kept as text', async () => {
    await owner('POST', `${CLUB}/groups`, { name: '=HYPERLINK("http://evil.example")', sport: 'tennis' })
    expect((await h.app.inject({ url: `${CLUB}/audit/export?kind=group` })).statusCode).toBe(401)
    const exported = await owner('GET', `${CLUB}/audit/export?kind=group`)
    expect(exported.status, exported.body).toBe(200)
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(exported.headers['cache-control']).toBe('no-store')
    expect(exported.headers['content-disposition']).toBe('attachment; filename="audit-riverside-2026-06-17.csv"')
    const lines = exported.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    expect(lines[0]).toBe('created_at,actor,action,target_name,target,fields,detail,address')
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(['group.created', 'group.created', 'group.created'])
    expect(lines.find((line) => line.includes('HYPERLINK'))).toContain(',"\'=HYPERLINK(""http://evil.example"")",')
  })
})
