import { expect, it } from 'vitest'
import { describeEachDatabase } from '../helpers/databases.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { useHarness } from '../helpers/harness.js'
import { LIST_PATHS } from '../helpers/list-endpoints.js'

const ORIGIN = 'https://www.tc-riverside.example'

describeEachDatabase('CORS', (dialect) => {
  let key = ''
  const harness = useHarness(dialect, async (h) => {
    const { clubId } = await setUpCourts(h, 'riverside')
    key = (await h.createKey(clubId)).key
  })

  it('answers the booking preflight from any origin, allowing Content-Type and Idempotency-Key, without credentials', async () => {
    const response = await harness.current.app.inject({ method: 'OPTIONS', url: '/api/v1/public/riverside/courts/book', headers: {
      'origin': ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key',
    } })
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST')
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key')
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type')
    expect(response.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('adds CORS headers to listings, bookings and their errors', async () => {
    const list = await harness.current.request({ url: `/api/v1/public/riverside/courts?date=${TUESDAY}`, headers: { origin: ORIGIN } })
    expect(list.headers['access-control-allow-origin']).toBe('*')
    expect(String(list.headers['access-control-expose-headers'])).toMatch(/Retry-After/i)
    const conflict = await harness.current.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book',
      headers: { origin: ORIGIN }, payload: { court_id: COURT.a, start_time: `${TUESDAY}T10:00:00+02:00`,
        end_time: `${TUESDAY}T11:00:00+02:00`, booker_name: 'C', booker_email: 'c@example.org' } })
    expect(conflict.status).toBe(400)
    expect(conflict.headers['access-control-allow-origin']).toBe('*')
    const unknown = await harness.current.request({ url: '/api/v1/public/nowhere/courts', headers: { origin: ORIGIN } })
    expect(unknown.status).toBe(404)
    expect(unknown.headers['access-control-allow-origin']).toBe('*')
  })

  it('sends no CORS headers anywhere else, and refuses preflights there', async () => {
    for (const url of LIST_PATHS) {
      const preflight = await harness.current.app.inject({ method: 'OPTIONS', url, headers: {
        'origin': ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } })
      expect(preflight.statusCode).toBe(405)
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
      const get = await harness.current.request({ url, key, headers: { origin: ORIGIN } })
      expect(get.status).toBe(200)
      expect(get.headers['access-control-allow-origin']).toBeUndefined()
    }
    const openapi = await harness.current.request({ url: '/api/v1/openapi.json', headers: { origin: ORIGIN } })
    expect(openapi.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers other methods on public paths with 405', async () => {
    const response = await harness.current.request({ method: 'DELETE', url: '/api/v1/public/riverside/courts' })
    expect(response.status).toBe(405)
    expect(String(response.headers.allow)).toContain('GET')
  })
})
