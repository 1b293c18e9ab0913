/**
 * The address rule of webhook endpoints (src/domain/network-address.ts), as a table run against the
 * dashboard API: an endpoint whose URL names an address the IANA registries do not call globally
 * reachable — or an IPv6 form that carries such an IPv4 address — is refused, and nothing is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IPV4_RANGES, IPV6_RANGES, compileRanges, isPublicAddress, literalAddress, reachIn } from '../../src/domain/network-address.js'
import { setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

/** [address, reachable] */
const TABLE: readonly (readonly [string, boolean])[] = [
  ['93.184.216.34', true], ['8.8.8.8', true], ['1.1.1.1', true], ['192.31.196.1', true], ['192.0.0.9', true],
  ['0.0.0.0', false], ['0.1.2.3', false], ['10.0.0.1', false], ['100.64.0.1', false], ['100.127.255.254', false],
  ['127.0.0.1', false], ['127.255.255.254', false], ['169.254.169.254', false], ['172.16.5.4', false], ['172.31.255.255', false],
  ['192.0.0.1', false], ['192.0.0.170', false], ['192.0.2.1', false], ['192.88.99.1', false], ['192.168.0.1', false],
  ['198.18.0.1', false], ['198.51.100.7', false], ['203.0.113.9', false], ['224.0.0.1', false], ['239.255.255.250', false],
  ['240.0.0.1', false], ['255.255.255.255', false],
  ['2606:4700::1111', true], ['2a00:1450:4001::200e', true], ['2001:4:112::1', true], ['2620:4f:8000::1', true], ['2001:1::1', true],
  ['::ffff:8.8.8.8', true], ['::ffff:808:808', true], ['64:ff9b::808:808', true],
  ['::', false], ['::1', false], ['::127.0.0.1', false], ['::7f00:1', false], ['::8.8.8.8', false], ['::10.0.0.1', false],
  ['::ffff:127.0.0.1', false], ['::ffff:7f00:1', false], ['::ffff:10.0.0.1', false], ['::ffff:169.254.169.254', false],
  ['::ffff:0:7f00:1', false], ['::ffff:0:127.0.0.1', false], ['::ffff:0:808:808', false],
  ['64:ff9b::7f00:1', false], ['64:ff9b::10.0.0.1', false], ['64:ff9b::a9fe:a9fe', false], ['64:ff9b:1::a00:1', false],
  ['100::1', false], ['2001::1', false], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false], ['2001:2::1', false], ['2001:db8::1', false],
  ['2002:7f00:1::1', false], ['2002:808:808::1', false], ['3fff::1', false], ['5f00::1', false], ['fc00::1', false],
  ['fd00:ec2::254', false], ['fe80::1', false], ['fec0::1', false], ['ff02::1', false], ['4000::1', false], ['1::1', false],
]

describe('the address rule', () => {
  it('follows the registries, IPv6 forms that carry an IPv4 address judged by it or refused', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30)
    expect(TABLE.filter(([address, reachable]) => isPublicAddress(address) !== reachable)).toEqual([])
    for (const [address, reachable] of TABLE.filter(([address]) => address.includes(':'))) {
      expect(isPublicAddress(`[${address}]`), address).toBe(reachable)
    }
  })

  it('takes nothing that is not an address, nor a bracket that is not a pair', () => {
    for (const value of ['', 'example.org', '127.1', '1.2.3.4.5', '::g', 'fe80::1%eth0', '[::1', '01.2.3.4', '256.1.1.1',
      '[2606:4700::11111', 'x2606:4700::1111]', '[2606:4700::1111x', '2606:4700::1111]', '[8.8.8.8', '8.8.8.8]']) {
      expect(isPublicAddress(value), value).toBe(false)
    }
    expect(isPublicAddress('[2606:4700::1111]')).toBe(true)
  })

  it('reads a URL\'s host as an address only when it is one', () => {
    expect(literalAddress('[::1]')).toBe('::1')
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1')
    for (const host of ['example.org', '[::11', 'x::1]', '[::1x', '::1]', '[example.org]', '']) {
      expect(literalAddress(host), host).toBeUndefined()
    }
  })

  it('lets the most specific range decide, in whatever order a table is written, and refuses a table it cannot use', () => {
    const value = (address: string) => {
      const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number)
      return (BigInt(a) << 24n) | (BigInt(b) << 16n) | (BigInt(c) << 8n) | BigInt(d)
    }
    const written = IPV4_RANGES
    for (const order of [written, [...written].reverse(), [...written].sort((x, y) => x[0].localeCompare(y[0]))]) {
      const table = compileRanges(order, 32)
      for (const [address, reachable] of TABLE.filter(([candidate]) => !candidate.includes(':'))) {
        expect(reachIn(table, value(address)) === true, `${address} in an order`).toBe(reachable)
      }
    }
    // Two ranges with the same prefix: the one written last decides (the sort keeps their order).
    expect(reachIn(compileRanges([['0.0.0.0', 0, true], ['10.0.0.0', 8, false], ['10.0.0.0', 8, true]], 32), value('10.1.2.3')))
      .toBe(true)
    expect(reachIn(compileRanges([['0.0.0.0', 0, true], ['10.0.0.0', 8, true], ['10.0.0.0', 8, false]], 32), value('10.1.2.3')))
      .toBe(false)
    expect(() => compileRanges([['10.0.0.0', 8, false]], 32)).toThrow(/range of prefix 0/)
    expect(() => compileRanges([], 128)).toThrow(/range of prefix 0/)
    expect(() => compileRanges([['0.0.0.0', 0, true], ['10.0.0.300', 8, false]], 32)).toThrow('not an address: 10.0.0.300')
    expect(() => compileRanges([['::', 0, false], ['fe80::g', 10, false]], 128)).toThrow('not an address: fe80::g')
    expect(IPV6_RANGES.some(([network, prefix]) => network === '::' && prefix === 0)).toBe(true)
  })
})

describeEachDatabase('webhook endpoint addresses through the dashboard API', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let owner: ReturnType<typeof asSession>

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { PUBLIC_URL: `${ORIGIN}/` }, webhookResolver: () => Promise.resolve([]) })
    const { clubId } = await setUpCourts(h, 'riverside')
    owner = asSession(h, await signedIn(h, clubId, 'olivia@example.org', 'owner'))
  })
  afterAll(async () => {
    await h.close()
  })

  it('saves an endpoint at a reachable address and refuses every other, saying which address', async () => {
    const base = '/api/admin/v1/clubs/riverside/webhook-endpoints'
    for (const [address, reachable] of TABLE) {
      const url = `https://${address.includes(':') ? `[${address}]` : address}/hooks`
      const created = await owner('POST', base, { url, event_types: ['booking.created'] })
      if (reachable) {
        expect(created.status, `${url}: ${created.body}`).toBe(201)
        const { endpoint } = created.json<{ endpoint: { id: string } }>()
        expect((await owner('DELETE', `${base}/${endpoint.id}`)).status).toBe(204)
      } else {
        expect(created.status, `${url}: ${created.body}`).toBe(400)
        expect(created.json<{ invalid_params: { name: string, reason: string }[] }>().invalid_params[0]?.reason, url)
          .toMatch(/that resolves to .*: a loopback, private, link-local or otherwise non-public address/)
      }
    }
    expect((await owner('GET', base)).json<{ items: unknown[] }>().items).toEqual([])
  })
})
