/**
 * Webhooks end to end on both databases, with a real receiver on loopback that verifies every
 * delivery with the `standardwebhooks` package: endpoints through the dashboard API, one delivery
 * per event in the change's transaction, retries while the receiver is down (no loss, duplicates
 * only under one webhook-id), Retry-After, secret rotation with overlap, 410 and days of failure
 * disabling the endpoint (with a mail to the owners), test events, replays, the delivery log, and
 * the content events as the read API sees them, scheduled news included.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { ApiResponse, Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'
import { WebhookReceiver } from '../helpers/webhook-receiver.js'
import type { Received } from '../helpers/webhook-receiver.js'
import { isPublicAddress } from '../../src/domain/network-address.js'
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from '../../src/webhooks/worker.js'

const CLUB = '/api/admin/v1/clubs/riverside'
const HOUR = 3_600_000

interface Endpoint { id: string, enabled: boolean, disabled_reason: string | null, previous_secret_valid_until: string | null }
interface Delivery {
  id: string
  webhook_id: string
  event_type: string
  trigger: string
  status: string
  attempts: number
  next_attempt_at: string | null
  response_status: number | null
  response_body: string | null
  latency_ms: number | null
  error: string | null
}

describeEachDatabase('webhooks', (dialect) => {
  const smtp = new TestSmtpServer()
  const receiver = new WebhookReceiver()
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>
  let slot = 0

  beforeAll(async () => {
    await smtp.start()
    await receiver.start()
    h = await startHarness(dialect, { env: { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`,
      BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '1000', WEBHOOK_MAX_ENDPOINTS_PER_CLUB: '3',
      // The clock moves days ahead here; the session stays.
      SESSION_IDLE_HOURS: '720', SESSION_MAX_DAYS: '90' } })
    receiver.clock = () => h.clock.now()
    const { clubId } = await setUpCourts(h, 'riverside')
    owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
  })
  afterAll(async () => {
    await h.close()
    await receiver.stop()
    await smtp.stop()
  })
  beforeEach(async () => {
    // Each test starts with no endpoint and an empty inbox.
    for (const endpoint of (await owner('GET', `${CLUB}/webhook-endpoints`)).json<{ items: Endpoint[] }>().items) {
      expect((await owner('DELETE', `${CLUB}/webhook-endpoints/${endpoint.id}`)).status).toBe(204)
    }
    receiver.received.length = 0
    receiver.answer = { status: 204 }
  })

  const ok = <T>(response: ApiResponse, status = 200): T => {
    expect(response.status, response.body).toBe(status)
    return response.json<T>()
  }
  const addEndpoint = async (eventTypes: string[], url = receiver.url) =>
    ok<{ secret: string, endpoint: Endpoint }>(await owner('POST', `${CLUB}/webhook-endpoints`, { url, event_types: eventTypes }), 201)
  /** Runs the worker until nothing is due now. */
  const deliver = async () => {
    while (await h.context.webhooks.runOnce() > 0);
  }
  /** A booking of the floodlit court, an hour each, one after the other. */
  const book = async () => {
    const start = Date.parse('2026-09-01T00:00:00Z') + HOUR * slot++
    return h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: new Date(start).toISOString(), end_time: new Date(start + HOUR).toISOString(),
      booker_name: 'Gina Guest', booker_email: 'gina@example.org' } })
  }
  const verified = (request: Received, secret: string) => WebhookReceiver.verify(request, secret)
  const log = async (endpointId: string) => ok<{ items: Delivery[] }>(await owner('GET', `${CLUB}/webhook-endpoints/${endpointId}/deliveries`))
    .items

  it('sends exactly one signed booking.created per booking, with what the public listing knows and no personal data', async () => {
    const { secret, endpoint } = await addEndpoint(['booking.created', 'booking.cancelled'])
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const payload = { court_id: COURT.allDay, start_time: `${TUESDAY}T07:00:00+02:00`, end_time: `${TUESDAY}T08:00:00+02:00`,
      booker_name: 'Gina Guest', booker_email: 'gina@example.org' }
    const first = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload,
      headers: { 'idempotency-key': 'once' } })
    expect(first.status, first.body).toBe(201)
    // The same request again (a retry of the client) and a conflicting one: neither is a new booking, neither sends anything.
    expect((await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload,
      headers: { 'idempotency-key': 'once' } })).status).toBe(201)
    const conflict = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload })
    expect(conflict.json<{ type: string }>().type).toBe('/api/v1/problems/slot-conflict')
    await deliver()
    expect(receiver.received).toHaveLength(1)
    const [request] = receiver.received
    if (request === undefined) throw new Error('nothing received')
    const bookingId = first.json<{ booking_id: string }>().booking_id
    expect(verified(request, secret)).toEqual({ type: 'booking.created', timestamp: new Date(h.clock.now()).toISOString(), data: {
      id: bookingId, court_id: COURT.allDay, court_name: 'Court D (floodlit)', start_time: `${TUESDAY}T07:00:00+02:00`,
      end_time: `${TUESDAY}T08:00:00+02:00`, status: 'confirmed', created_at: '2026-06-15T12:00:00+02:00', cancelled_at: null,
      cancelled_by: null } })
    expect(request.body).not.toMatch(/gina|Gina/)
    expect(request.headers).toMatchObject({ 'content-type': 'application/json',
      'webhook-timestamp': String(Math.floor(h.clock.now() / 1000)) })
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    // A signature made with another secret does not verify.
    expect(() => verified(request, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow(/No matching signature/)
    const [entry] = await log(endpoint.id)
    expect(entry).toMatchObject({ webhook_id: request.headers['webhook-id'], event_type: 'booking.created', trigger: 'event',
      status: 'delivered', attempts: 1, response_status: 204, error: null })
    expect(entry?.latency_ms).toBeGreaterThanOrEqual(0)

    // The club cancels: booking.cancelled says so.
    ok(await owner('POST', `${CLUB}/bookings/${bookingId}/cancel`, { reason: 'Court repairs' }))
    await deliver()
    const cancelled = receiver.received[1]
    if (cancelled === undefined) throw new Error('no cancellation received')
    expect(verified(cancelled, secret)).toMatchObject({ type: 'booking.cancelled', data: { id: bookingId, status: 'cancelled',
      cancelled_by: 'club', cancelled_at: '2026-06-15T12:00:00+02:00' } })
    expect(receiver.received).toHaveLength(2)
  })

  it('loses nothing while the receiver is down, and sends duplicates only under the same webhook-id', async () => {
    const { secret, endpoint } = await addEndpoint(['booking.created'])
    await receiver.stop()
    const booked: string[] = []
    for (let i = 0; i < 5; i++) {
      const response = await book()
      expect(response.status, response.body).toBe(201)
      booked.push(response.json<{ booking_id: string }>().booking_id)
    }
    await deliver()
    const failed = await log(endpoint.id)
    expect(failed.map((delivery) => [delivery.status, delivery.attempts, delivery.response_status])).toEqual(
      Array.from({ length: 5 }, () => ['pending', 1, null]))
    expect(failed[0]?.error).toMatch(/ECONNREFUSED/)
    // The jitter is fixed at its middle in the harness: the first wait is exactly 5 s.
    expect(failed.map((delivery) => delivery.next_attempt_at)).toEqual(
      Array.from({ length: 5 }, () => new Date(h.clock.now() + RETRY_SCHEDULE_MS[0]!).toISOString()))
    h.clock.advance(5_000)
    await deliver()
    // Back, but the first answer is lost on the way (the receiver took it, then the connection broke): sent again.
    await receiver.start()
    receiver.answer = 'hang'
    h.clock.advance(5 * 60_000)
    const attempt = h.context.webhooks.runOnce()
    await expect.poll(() => receiver.received.length).toBe(5)
    await receiver.stop()
    await attempt
    await receiver.start()
    receiver.answer = { status: 200, body: 'ok' }
    h.clock.advance(30 * 60_000)
    await deliver()
    const ids = receiver.received.map((request) => String(request.headers['webhook-id']))
    const types = receiver.received.map((request) => verified(request, secret))
    expect(new Set(ids).size).toBe(5)
    expect(ids).toHaveLength(10)
    expect(new Set(types.map((event) => event.data.id))).toEqual(new Set(booked))
    // Each id came twice, each time with the same body.
    for (const id of new Set(ids)) {
      const bodies = receiver.received.filter((request) => request.headers['webhook-id'] === id).map((request) => request.body)
      expect(bodies).toHaveLength(2)
      expect(bodies[0]).toBe(bodies[1])
    }
    expect((await log(endpoint.id)).map((delivery) => [delivery.status, delivery.attempts])).toEqual(
      Array.from({ length: 5 }, () => ['delivered', 4]))
  })

  it('waits as long as a Retry-After asks (within a day)', async () => {
    const { endpoint } = await addEndpoint(['booking.created'])
    receiver.answer = { status: 503, headers: { 'retry-after': '120' }, body: 'busy' }
    expect((await book()).status).toBe(201)
    await deliver()
    const [waiting] = await log(endpoint.id)
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, response_status: 503, response_body: 'busy',
      next_attempt_at: new Date(h.clock.now() + 120_000).toISOString(), error: 'answered 503' })
    receiver.answer = { status: 429, headers: { 'retry-after': String(10 * 86_400) } }
    h.clock.advance(120_000)
    await deliver()
    expect((await log(endpoint.id))[0]?.next_attempt_at).toBe(new Date(h.clock.now() + 24 * HOUR).toISOString())
  })

  it('signs with both secrets during a rotation\'s overlap, and with the new one only after it', async () => {
    const { secret: old, endpoint } = await addEndpoint(['booking.created'])
    const rotated = ok<{ secret: string, endpoint: Endpoint }>(await owner('POST', `${CLUB}/webhook-endpoints/${endpoint.id}/secret`,
      { overlap_hours: 24 }))
    expect(rotated.secret).not.toBe(old)
    expect(rotated.endpoint.previous_secret_valid_until).toBe(new Date(h.clock.now() + 24 * HOUR).toISOString())
    expect((await book()).status).toBe(201)
    await deliver()
    const during = receiver.received.at(-1)
    if (during === undefined) throw new Error('nothing received')
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verified(during, old).type).toBe('booking.created')
    expect(verified(during, rotated.secret).type).toBe('booking.created')
    h.clock.advance(24 * HOUR)
    expect((await book()).status).toBe(201)
    await deliver()
    const after = receiver.received.at(-1)
    if (after === undefined || after === during) throw new Error('nothing received after the overlap')
    expect(verified(after, rotated.secret).type).toBe('booking.created')
    expect(() => verified(after, old)).toThrow(/No matching signature/)
  })

  it('disables an endpoint that answers 410, mails the owners, and queues nothing more for it', async () => {
    const { endpoint } = await addEndpoint(['booking.created'])
    receiver.answer = { status: 410 }
    expect((await book()).status).toBe(201)
    await deliver()
    const [gone] = (await owner('GET', `${CLUB}/webhook-endpoints`)).json<{ items: Endpoint[] }>().items
    expect(gone).toMatchObject({ id: endpoint.id, enabled: false, disabled_reason: 'gone' })
    expect(await log(endpoint.id)).toMatchObject([{ status: 'failed', response_status: 410 }])
    expect((await book()).status).toBe(201)
    await deliver()
    expect(receiver.received).toHaveLength(1)
    expect(await log(endpoint.id)).toHaveLength(1)
    const before = smtp.received.length
    while (await h.context.mail.runOnce() > 0);
    const mail = smtp.received.slice(before).find((received) => received.parsed.subject === 'Webhook endpoint disabled — Club riverside')
    expect(mail?.parsed.to).toMatchObject({ text: 'olivia@example.org' })
    expect(mail?.parsed.text).toContain('it answered 410 Gone')
    expect(mail?.parsed.text).toContain(`${ORIGIN}/dashboard/clubs/riverside/developer-access`)
  })

  it('retries a failing endpoint for about three days, then disables it and mails the owners', async () => {
    const { endpoint } = await addEndpoint(['booking.created'])
    receiver.answer = { status: 500, body: 'x'.repeat(5000) }
    expect((await book()).status).toBe(201)
    let attempts = 0
    for (let round = 0; round < 20 && attempts < MAX_ATTEMPTS; round++) {
      await deliver()
      attempts = (await log(endpoint.id))[0]?.attempts ?? 0
      const next = (await log(endpoint.id))[0]?.next_attempt_at
      if (next == null) break
      h.clock.set(next)
    }
    const [last] = await log(endpoint.id)
    expect(last).toMatchObject({ status: 'failed', response_status: 500 })
    expect(last?.response_body).toHaveLength(1024)
    expect(last?.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS)
    const total = RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0)
    expect(total).toBeGreaterThan(3 * 24 * HOUR)
    expect(total).toBeLessThan(4 * 24 * HOUR)
    const [disabled] = (await owner('GET', `${CLUB}/webhook-endpoints`)).json<{ items: Endpoint[] }>().items
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing' })
    const before = smtp.received.length
    while (await h.context.mail.runOnce() > 0);
    expect(smtp.received.slice(before).map((mail) => mail.parsed.subject)).toContain('Webhook endpoint disabled — Club riverside')
    // Enabled again, it starts afresh.
    const enabled = ok<Endpoint>(await owner('PUT', `${CLUB}/webhook-endpoints/${endpoint.id}`, { url: receiver.url,
      event_types: ['booking.created'], enabled: true }))
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null })
  })

  it('sends a test event to one endpoint and replays a delivery under the same webhook-id', async () => {
    const { secret, endpoint } = await addEndpoint(['news.published'])
    const queued = ok<Delivery>(await owner('POST', `${CLUB}/webhook-endpoints/${endpoint.id}/test`), 202)
    expect(queued).toMatchObject({ event_type: 'webhook.test', trigger: 'test', status: 'pending', attempts: 0 })
    await deliver()
    expect(verified(receiver.received[0]!, secret)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } })
    h.clock.advance(1_000)
    const replay = ok<Delivery>(await owner('POST', `${CLUB}/webhook-endpoints/${endpoint.id}/deliveries/${queued.id}/replay`), 202)
    expect(replay).toMatchObject({ webhook_id: queued.webhook_id, trigger: 'replay', status: 'pending' })
    await deliver()
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([queued.webhook_id, queued.webhook_id])
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body)
    expect((await log(endpoint.id)).map((delivery) => [delivery.trigger, delivery.status])).toEqual([['replay', 'delivered'],
      ['test', 'delivered']])
    // Another endpoint's delivery, or an unknown one, cannot be replayed through this endpoint.
    const other = await addEndpoint(['news.published'])
    expect((await owner('POST', `${CLUB}/webhook-endpoints/${other.endpoint.id}/deliveries/${queued.id}/replay`)).status).toBe(404)
    expect((await owner('GET', `${CLUB}/webhook-endpoints/${crypto.randomUUID()}/deliveries`)).status).toBe(404)
  })

  it('reports content as the read API lists it: appear, change, leave; scheduled news when its time comes', async () => {
    const { secret } = await addEndpoint(['group.created', 'group.updated', 'group.deleted', 'event.created', 'event.deleted',
      'news.published', 'news.updated', 'news.unpublished', 'competition_result.created'])
    const events = () => receiver.received.map((request) => verified(request, secret)).map((event) => [event.type, event.data.id])
    const group = ok<{ id: string, version: number }>(await owner('POST', `${CLUB}/groups`, { name: 'Juniors', sport: 'tennis' }), 201)
    ok(await owner('PUT', `${CLUB}/groups/${group.id}`, { name: 'Juniors A', sport: 'tennis', version: 1 }))
    // Saved unchanged: nothing to tell.
    ok(await owner('PUT', `${CLUB}/groups/${group.id}`, { name: 'Juniors A', sport: 'tennis', version: 2 }))
    ok(await owner('PUT', `${CLUB}/groups/${group.id}`, { name: 'Juniors A', sport: 'tennis', active: false, version: 3 }))
    // A group event is not listed; a released one without a group is.
    ok(await owner('POST', `${CLUB}/events`, { title: 'Training', starts_at: '2026-07-01T16:00:00Z', group_id: group.id,
      public_booking: true }), 201)
    const open = ok<{ id: string }>(await owner('POST', `${CLUB}/events`, { title: 'Open day', starts_at: '2026-07-04T08:00:00Z',
      public_booking: true }), 201)
    expect((await owner('DELETE', `${CLUB}/events/${open.id}`)).status).toBe(204)
    const draft = ok<{ id: string }>(await owner('POST', `${CLUB}/news`, { title: 'Party', content: 'Soon' }), 201)
    ok(await owner('PUT', `${CLUB}/news/${draft.id}`, { title: 'Party', content: 'Friday', version: 1 }))
    await deliver()
    expect(events()).toEqual([['group.created', group.id], ['group.updated', group.id], ['group.deleted', group.id],
      ['event.created', open.id], ['event.deleted', open.id]])
    const deleted = verified(receiver.received[4]!, secret)
    expect(deleted.data).toEqual({ id: open.id, title: 'Open day', starts_at: '2026-07-04T08:00:00.000Z', ends_at: null, location: null })
    receiver.received.length = 0

    // Scheduled in an hour: delivered then, not before; rescheduled, the first time is withdrawn.
    const inAnHour = new Date(h.clock.now() + HOUR).toISOString()
    ok(await owner('PUT', `${CLUB}/news/${draft.id}`, { title: 'Party', content: 'Friday', published_at: inAnHour, version: 2 }))
    const inTwoHours = new Date(h.clock.now() + 2 * HOUR).toISOString()
    ok(await owner('PUT', `${CLUB}/news/${draft.id}`, { title: 'Party', content: 'Friday!', published_at: inTwoHours, version: 3 }))
    await deliver()
    h.clock.advance(HOUR)
    await deliver()
    expect(events()).toEqual([])
    h.clock.advance(HOUR)
    await deliver()
    expect(events()).toEqual([['news.published', draft.id]])
    const published = verified(receiver.received[0]!, secret)
    expect(published).toEqual({ type: 'news.published', timestamp: inTwoHours, data: { id: draft.id, title: 'Party',
      content: 'Friday!', published_at: inTwoHours } })
    ok(await owner('PUT', `${CLUB}/news/${draft.id}`, { title: 'Party', content: 'Friday 8 pm', published_at: inTwoHours, version: 4 }))
    expect((await owner('DELETE', `${CLUB}/news/${draft.id}`)).status).toBe(204)
    // A scheduled item withdrawn (made a draft) before its time sends nothing, ever.
    const later = ok<{ id: string }>(await owner('POST', `${CLUB}/news`, { title: 'Later', content: '-',
      published_at: new Date(h.clock.now() + HOUR).toISOString() }), 201)
    ok(await owner('PUT', `${CLUB}/news/${later.id}`, { title: 'Later', content: '-', published_at: null, version: 1 }))
    h.clock.advance(2 * HOUR)
    await deliver()
    expect(events()).toEqual([['news.published', draft.id], ['news.updated', draft.id], ['news.unpublished', draft.id]])
  })

  it('records no event for a change that is refused, and none for types no endpoint receives', async () => {
    await addEndpoint(['group.created'])
    const count = async () => Number((await h.context.db.selectFrom('webhook_messages').select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()).n)
    const before = await count()
    expect((await owner('POST', `${CLUB}/groups`, { name: 'Odd', sport: 'tennis', age_min: 15, age_max: 9 })).status).toBe(400)
    expect((await book()).status).toBe(201)
    expect(await count()).toBe(before)
  })

  it('refuses endpoint URLs and types it cannot take, and more endpoints than the club may have', async () => {
    const refused = async (body: Record<string, unknown>, field: string) => {
      const response = await owner('POST', `${CLUB}/webhook-endpoints`, { event_types: ['booking.created'], ...body })
      expect(response.status, response.body).toBe(400)
      expect(response.json<{ invalid_params: { name: string }[] }>().invalid_params.map((param) => param.name)).toContain(field)
    }
    await refused({ url: 'not a url' }, 'url')
    await refused({ url: 'ftp://example.org/hook' }, 'url')
    await refused({ url: 'https://user:secret@example.org/hook' }, 'url')
    await refused({ url: receiver.url, event_types: ['booking.exploded'] }, 'event_types.0')
    await refused({ url: receiver.url, event_types: [] }, 'event_types')
    for (let i = 0; i < 3; i++) await addEndpoint(['booking.created'])
    expect((await owner('POST', `${CLUB}/webhook-endpoints`, { url: receiver.url, event_types: ['booking.created'] })).status).toBe(409)
  })
})

it('takes public unicast addresses only, on IPv4 and IPv6, mapped addresses by their IPv4 address', () => {
  const publicOnes = ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '[2a00:1450::1]']
  const others = ['10.0.0.1', '172.16.5.4', '192.168.0.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '192.0.2.1', '::', '::1', '[::1]', '::ffff:10.0.0.1', '::ffff:7f00:1', 'fd00:ec2::254', 'fe80::1', 'ff02::1',
    '64:ff9b::a00:1', '2001:db8::1', '2002:a00:1::', 'example.org', '']
  expect(publicOnes.filter((address) => !isPublicAddress(address))).toEqual([])
  expect(others.filter((address) => isPublicAddress(address))).toEqual([])
})

describeEachDatabase('webhook targets without the private-network setting', (dialect) => {
  const receiver = new WebhookReceiver()
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>
  /** What the test's DNS answers; rebind.example changes its answer between the check and the delivery. */
  const names = new Map<string, string[]>([
    ['localhost', ['127.0.0.1', '::1']], ['intranet.example', ['10.0.0.7']], ['metadata.example', ['169.254.169.254']],
    ['public.example', ['93.184.216.34']], ['mixed.example', ['93.184.216.34', '192.168.1.10']], ['v6.example', ['fd00:ec2::254']],
    ['rebind.example', ['93.184.216.34']],
  ])

  beforeAll(async () => {
    await receiver.start()
    h = await startHarness(dialect, { env: { PUBLIC_URL: `${ORIGIN}/` }, webhookResolver: (host) => {
      const addresses = names.get(host)
      if (addresses === undefined) return Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`))
      return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
    } })
    const { clubId } = await setUpCourts(h, 'riverside')
    owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
  })
  afterAll(async () => {
    await h.close()
    await receiver.stop()
  })

  it('refuses http and every URL whose host is or resolves to a loopback, private, link-local or metadata address', async () => {
    const reasonFor = async (url: string) => {
      const response = await owner('POST', `${CLUB}/webhook-endpoints`, { url, event_types: ['booking.created'] })
      expect(response.status, `${url}: ${response.body}`).toBe(400)
      return response.json<{ invalid_params: { name: string, reason: string }[] }>().invalid_params
    }
    expect(await reasonFor('http://public.example/hooks')).toEqual([{ name: 'url', reason: 'must be an https:// URL', code: 'invalid_value' }])
    for (const [url, address] of [
      ['https://127.0.0.1/hooks', '127.0.0.1'], ['https://10.1.2.3/hooks', '10.1.2.3'],
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'], ['https://[::1]/hooks', '::1'],
      ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1'], ['https://2130706433/hooks', '127.0.0.1'],
      ['https://localhost/hooks', '127.0.0.1'], ['https://intranet.example/hooks', '10.0.0.7'],
      ['https://metadata.example/hooks', '169.254.169.254'], ['https://mixed.example/hooks', '192.168.1.10'],
      ['https://v6.example/hooks', 'fd00:ec2::254'],
    ] as const) {
      const [param] = await reasonFor(url)
      expect(param?.name).toBe('url')
      expect(param?.reason, url).toContain(`resolves to ${address}: a loopback, private, link-local or otherwise non-public address`)
    }
    expect((await reasonFor('https://nowhere.example/hooks'))[0]?.reason).toContain('does not resolve')
    expect((await owner('POST', `${CLUB}/webhook-endpoints`, { url: 'https://public.example/hooks',
      event_types: ['booking.created'] })).status).toBe(201)
  })

  it('checks the address again when it connects: a name that re-resolves to loopback is never reached', async () => {
    const port = new URL(receiver.url).port
    const created = await owner('POST', `${CLUB}/webhook-endpoints`, { url: `https://rebind.example:${port}/hooks`,
      event_types: ['booking.created'] })
    expect(created.status, created.body).toBe(201)
    const { endpoint } = created.json<{ endpoint: { id: string } }>()
    names.set('rebind.example', ['127.0.0.1'])
    const booking = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
      court_id: COURT.allDay, start_time: '2026-09-01T10:00:00Z', end_time: '2026-09-01T11:00:00Z', booker_name: 'Gina Guest',
      booker_email: 'gina@example.org' } })
    expect(booking.status, booking.body).toBe(201)
    while (await h.context.webhooks.runOnce() > 0);
    const [delivery] = (await owner('GET', `${CLUB}/webhook-endpoints/${endpoint.id}/deliveries`)).json<{ items: Delivery[] }>().items
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null })
    expect(delivery?.error).toContain('not sent: the URL names a host, rebind.example, that resolves to 127.0.0.1')
    expect(receiver.connections).toBe(0)
    // Its URL unchanged, the endpoint can still be disabled; a new URL is checked again.
    const change = (url: string, enabled: boolean) => owner('PUT', `${CLUB}/webhook-endpoints/${endpoint.id}`, { url,
      event_types: ['booking.created'], enabled })
    expect((await change(`https://rebind.example:${port}/hooks`, false)).status).toBe(200)
    expect((await change('https://intranet.example/hooks', false)).status).toBe(400)
  })
})
