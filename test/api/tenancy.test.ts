/**
 * Tenant isolation, property-based: whatever query string, path trick or header a caller adds,
 * a request made with one club's key never returns a record (or the slug) of the other club,
 * and never fails with a 5xx.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { allIds, clubFixture } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'
import { LIST_ENDPOINTS } from '../helpers/list-endpoints.js'

const ENDPOINTS = LIST_ENDPOINTS.map((endpoint) => endpoint.segment)

interface Tenant { slug: string, clubId: string, key: string, ids: string[] }

describeEachDatabase('tenant isolation', (dialect) => {
  const tenants: Tenant[] = []
  const harness = useHarness(dialect, async (h) => {
    for (const slug of ['north', 'south']) {
      const fixture = clubFixture(slug, START)
      const club = await h.createClub(slug)
      await importClubData(h.context.db, h.clock, club.id, fixture)
      tenants.push({ slug, clubId: club.id, key: (await h.createKey(club.id)).key, ids: [...allIds(fixture), club.id] })
    }
  })

  it('never shows one club\'s data to the other club\'s key', async () => {
    const other = (caller: number) => tenants[1 - caller] as Tenant
    const pathTricks = (endpoint: string, victim: Tenant) => fc.constantFrom(
      `/api/v1/${endpoint}`, `//api/v1/${endpoint}`, `/api/v1//${endpoint}`, `/api/v1/./${endpoint}`,
      `/api/v1/${endpoint}/../${endpoint}`, `/api/v1/${endpoint}/`, `/api/v1/${endpoint}%2F..%2F${endpoint}`,
      `/api/v1/${endpoint};club=${victim.slug}`, `/api/v1/${endpoint}/${victim.clubId}`, `/api/v1/${victim.slug}/${endpoint}`,
      `/api/v1/clubs/${victim.clubId}/${endpoint}`, `/api/v1/public/${victim.slug}/${endpoint}`, `/api/v2/${endpoint}`,
    )
    const queryPart = (victim: Tenant) => fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'offset', 'club', 'club_id', 'clubId', 'club_slug', 'slug', 'tenant', 'key',
        'api_key', 'access_token', 'id', 'filter[club_id]', 'limit[]'), fc.string({ maxLength: 8 })),
      fc.oneof(fc.constantFrom(victim.clubId, victim.slug, victim.key, '1', '100', '0', '10000', '-1', ''),
        fc.string({ maxLength: 12 })),
    ).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    const headers = (victim: Tenant) => fc.dictionary(
      fc.constantFrom('x-club-id', 'x-club', 'x-tenant', 'x-forwarded-host', 'host', 'cookie', 'x-api-key', 'forwarded',
        'x-original-url', 'x-rewrite-url'),
      fc.constantFrom(victim.clubId, victim.slug, `club=${victim.slug}`, `${victim.slug}.example.org`, victim.key,
        `/api/v1/groups?club=${victim.slug}`),
      { maxKeys: 4 },
    )

    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 1 }).chain((caller) => fc.record({
        caller: fc.constant(caller),
        path: fc.constantFrom(...ENDPOINTS).chain((endpoint) => pathTricks(endpoint, other(caller))),
        query: fc.array(queryPart(other(caller)), { maxLength: 4 }),
        headers: headers(other(caller)),
      })),
      async ({ caller, path, query, headers }) => {
        const me = tenants[caller] as Tenant
        const victim = other(caller)
        const url = query.length === 0 ? path : `${path}?${query.join('&')}`
        const response = await harness.current.request({ url, key: me.key, headers })
        expect(response.status).toBeLessThan(500)
        // An error may echo the path the caller wrote; it must hold nothing of the victim beyond that.
        const sent = decodeURIComponent(url) + JSON.stringify(headers)
        for (const id of victim.ids) if (!sent.includes(id)) expect(response.body).not.toContain(id)
        if (response.status === 200) {
          const body = response.json<{ data: Record<string, unknown>[] }>()
          for (const record of body.data) {
            expect(me.ids).toContain(record.id)
            for (const id of victim.ids) expect(JSON.stringify(record)).not.toContain(id)
          }
        }
      },
    ), { numRuns: 300 })
  })

  it('serves each key its own club with the same request', async () => {
    for (const endpoint of ENDPOINTS) {
      const [north, south] = await Promise.all(tenants.map((tenant) =>
        harness.current.request({ url: `/api/v1/${endpoint}?limit=100`, key: tenant.key })))
      const northIds = north?.json<{ data: { id: string }[] }>().data.map((row) => row.id) ?? []
      const southIds = south?.json<{ data: { id: string }[] }>().data.map((row) => row.id) ?? []
      expect(northIds.length).toBeGreaterThan(0)
      expect(southIds.length).toBe(northIds.length)
      for (const id of northIds) expect(tenants[0]?.ids).toContain(id)
      for (const id of southIds) expect(tenants[1]?.ids).toContain(id)
    }
  })
})
