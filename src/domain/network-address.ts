/**
 * Which network addresses the service's own outbound requests (webhooks) may reach: public
 * unicast only. Loopback, private, shared (CGNAT), link-local (the cloud metadata service at
 * 169.254.169.254 among them), unique-local, multicast, documentation, benchmarking, reserved and
 * translated ranges are refused, on IPv4 and IPv6 alike, IPv4-mapped IPv6 included.
 */
import { BlockList, isIP } from 'node:net'

const NOT_PUBLIC = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 127], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6')

/** True for an IP address outside every refused range; false for those inside, and for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare)
  if (family === 0) return false
  return !NOT_PUBLIC.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}

/** The host of a URL as an IP address when it is one (`[::1]` → `::1`), else undefined. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? undefined : bare
}
