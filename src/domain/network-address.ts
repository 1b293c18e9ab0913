/**
 * Which network addresses the service's own outbound requests (webhooks) may reach: those the IANA
 * registries call globally reachable. The tables below are the IPv4 and IPv6 Special-Purpose
 * Address Registries (iana.org/assignments/iana-ipv4-special-registry, …/iana-ipv6-special-registry)
 * with their "Globally Reachable" column, and from the address-space registries the multicast
 * ranges and, on IPv6, everything outside global unicast (2000::/3) that those do not name. The
 * most specific range holding an address decides, in whatever order a table is written: a
 * reachable anycast address inside a refused block (2001:4:112::/48 in 2001::/23) is reachable, as
 * the registry says.
 *
 * IPv6 forms that carry an IPv4 address are judged by that address: IPv4-mapped (::ffff:0:0/96)
 * and the NAT64 well-known prefix (64:ff9b::/96). The other forms that embed one are refused
 * whatever it is: IPv4-compatible (::/96, deprecated), IPv4-translated (::ffff:0:0:0/96), local
 * NAT64 (64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32).
 */
import { isIP } from 'node:net'

/** Reachable, not reachable, or judged by the IPv4 address in its last 32 bits. */
export type Reach = boolean | 'embedded-ipv4'
export type Range = readonly [network: string, prefix: number, reach: Reach]

/** IANA IPv4 Special-Purpose Address Registry, and multicast (224.0.0.0/4) from the address space registry. */
export const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 0, true],
  ['0.0.0.0', 8, false], // "this network"
  ['10.0.0.0', 8, false], // private
  ['100.64.0.0', 10, false], // shared address space (CGNAT)
  ['127.0.0.0', 8, false], // loopback
  ['169.254.0.0', 16, false], // link-local (cloud metadata services)
  ['172.16.0.0', 12, false], // private
  ['192.0.0.0', 24, false], // IETF protocol assignments (DS-Lite, NAT64 discovery, …)
  ['192.0.0.9', 32, true], // Port Control Protocol anycast
  ['192.0.0.10', 32, true], // Traversal Using Relays around NAT anycast
  ['192.0.2.0', 24, false], // documentation (TEST-NET-1)
  ['192.31.196.0', 24, true], // AS112-v4
  ['192.52.193.0', 24, true], // AMT
  ['192.88.99.0', 24, false], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16, false], // private
  ['192.175.48.0', 24, true], // direct delegation AS112 service
  ['198.18.0.0', 15, false], // benchmarking
  ['198.51.100.0', 24, false], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, false], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, false], // multicast
  ['240.0.0.0', 4, false], // reserved, and 255.255.255.255 (limited broadcast)
]

/** IANA IPv6 Special-Purpose Address Registry, multicast, and the ranges not allocated for global unicast. */
export const IPV6_RANGES: readonly Range[] = [
  ['::', 0, false], // outside global unicast: reserved by the IETF
  ['2000::', 3, true], // global unicast
  ['::', 96, false], // IPv4-compatible (deprecated), :: (unspecified) and ::1 (loopback) among them
  ['::ffff:0:0', 96, 'embedded-ipv4'], // IPv4-mapped
  ['::ffff:0:0:0', 96, false], // IPv4-translated (SIIT)
  ['64:ff9b::', 96, 'embedded-ipv4'], // IPv4/IPv6 translation, well-known prefix
  ['64:ff9b:1::', 48, false], // IPv4/IPv6 translation, local use
  ['100::', 64, false], // discard-only
  ['100:0:0:1::', 64, false], // dummy prefix
  ['2001::', 23, false], // IETF protocol assignments, Teredo (2001::/32) and benchmarking (2001:2::/48) among them
  ['2001:1::1', 128, true], // Port Control Protocol anycast
  ['2001:1::2', 128, true], // Traversal Using Relays around NAT anycast
  ['2001:1::3', 128, true], // DNS-SD service registration protocol anycast
  ['2001:3::', 32, true], // AMT
  ['2001:4:112::', 48, true], // AS112-v6
  ['2001:20::', 28, true], // ORCHIDv2
  ['2001:30::', 28, true], // drone remote ID protocol entity tags
  ['2001:db8::', 32, false], // documentation
  ['2002::', 16, false], // 6to4
  ['2620:4f:8000::', 48, true], // direct delegation AS112 service
  ['3fff::', 20, false], // documentation
  ['5f00::', 16, false], // segment routing (SRv6) SIDs
  ['fc00::', 7, false], // unique-local
  ['fe80::', 10, false], // link-local
  ['fec0::', 10, false], // site-local (deprecated)
  ['ff00::', 8, false], // multicast
]

interface Compiled { readonly shift: bigint, readonly network: bigint, readonly reach: Reach }

/**
 * A table ready to match: from the least specific range to the most (a stable sort by prefix), so
 * that the last range holding an address is the most specific one. The first must hold every
 * address (prefix 0): it is what an address matches at least.
 */
export function compileRanges(ranges: readonly Range[], bits: 32 | 128): readonly Compiled[] {
  const sorted = [...ranges].sort((a, b) => a[1] - b[1])
  if (sorted[0]?.[1] !== 0) throw new Error('a table of ranges must hold every address: give it a range of prefix 0')
  return sorted.map(([network, prefix, reach]) => {
    const value = bits === 32 ? ipv4Value(network) : ipv6Value(network)
    if (value === undefined) throw new Error(`not an address: ${network}`)
    return { shift: BigInt(bits - prefix), network: value >> BigInt(bits - prefix), reach }
  })
}

const IPV4 = compileRanges(IPV4_RANGES, 32)
const IPV6 = compileRanges(IPV6_RANGES, 128)

/** What the most specific range of `table` that holds `value` says. */
export function reachIn(table: readonly Compiled[], value: bigint): Reach {
  let reach: Reach = false
  for (const range of table) if (value >> range.shift === range.network) reach = range.reach
  return reach
}

/** An IPv4 address in dotted-decimal (four parts, each 0–255) as a number, else undefined. */
function ipv4Value(text: string): bigint | undefined {
  return isIP(text) === 4 ? dotted(text) : undefined
}

/** Four decimal parts that make a valid IPv4 address, as a number. */
function dotted(text: string): bigint {
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n)
}

/** An IPv6 address (with :: and a trailing dotted IPv4 part, without a zone) as a 128-bit number, else undefined. */
function ipv6Value(text: string): bigint | undefined {
  if (isIP(text) !== 6 || text.includes('%')) return undefined
  // A valid address: its last group may be an IPv4 address in dotted form (two groups), and `::` stands for the zeros missing.
  const lastColon = text.lastIndexOf(':')
  const last = text.slice(lastColon + 1)
  const v4 = last.includes('.') ? dotted(last) : undefined
  const groups = v4 === undefined ? text : `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  const [head = '', tail = ''] = groups.split('::')
  const words = (part: string) => part.split(':').filter((word) => word !== '')
  const left = words(head)
  const right = words(tail)
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return all.reduce((value, word) => (value << 16n) | BigInt(parseInt(word, 16)), 0n)
}

/** True for an IP address the registries call globally reachable; false for others, and for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const v4 = ipv4Value(bare)
  if (v4 !== undefined) return reachIn(IPV4, v4) === true
  const v6 = ipv6Value(bare)
  if (v6 === undefined) return false
  const reach = reachIn(IPV6, v6)
  return reach === 'embedded-ipv4' ? reachIn(IPV4, v6 & 0xffffffffn) === true : reach
}

/** The host of a URL as an IP address when it is one (`[::1]` → `::1`), else undefined. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? undefined : bare
}
