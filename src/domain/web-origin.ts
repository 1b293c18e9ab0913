/**
 * A club's website as an exact origin: scheme (http or https), host and optional port, as a
 * browser compares them in a Content-Security-Policy's frame-ancestors. Nothing else is one: no
 * wildcard (`https://*`, `https://*.com` would let any site frame the booking page), no path, query
 * or credentials, and no comma, semicolon, quote or space (which would end the source list or the
 * policy and start another). The rule is applied when a club saves its websites and again where the
 * header is built, so that a value stored before it cannot reach the header.
 */

/** A DNS name (letters, digits and hyphens in labels of up to 63, at most 253 in all) or an IPv4 address. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/
/** An IPv6 address in brackets, as a URL writes it (lower case, compressed). */
const IPV6_HOST = /^\[[0-9a-f:.]{2,45}\]$/
/** Scheme, host and optional port (not 0, no leading zero; its range and a default port are the URL's to check). */
const EXACT = /^https?:\/\/([^/:]+|\[[^\]]+\])(?::[1-9]\d{0,4})?$/

/**
 * The value as an exact origin (`https://www.tc-riverside.example`, `http://localhost:8080`), host
 * lower-case and in ASCII (an international name as its xn-- form), a default port dropped, a lone
 * trailing slash allowed. Anything else is refused with the reason, in words a club's secretary can
 * act on.
 */
export function readOrigin(value: string): { origin: string } | { refused: string } {
  const text = value.trim()
  if (text === '') return { refused: 'is empty' }
  if (/[\s,;'"*`<>\\]/.test(text)) {
    return { refused: 'may hold no spaces, commas, semicolons, quotes or wildcards (*): one address per line' }
  }
  const form = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(text)
  if (form === null) return { refused: 'is not a web address (e.g. https://www.example.org)' }
  const scheme = String(form[1]).toLowerCase()
  const authority = String(form[2]).toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return { refused: 'is not an http or https address' }
  if (authority.includes('@')) return { refused: 'must not carry a user name or password' }
  if (!['', '/'].includes(text.slice(form[0].length))) {
    return { refused: `must be the site's address alone, without a path, query or fragment (e.g. ${scheme}://${authority})` }
  }
  let url: URL
  try {
    url = new URL(`${scheme}://${authority}`)
  } catch {
    return { refused: 'is not a web address (e.g. https://www.example.org)' }
  }
  const origin = url.origin
  return isExactOrigin(origin) ? { origin } : { refused: 'does not name a host that a browser can reach (e.g. https://www.example.org)' }
}

/** Whether `value` is, character for character, an origin as readOrigin returns it. */
export function isExactOrigin(value: string): boolean {
  const host = EXACT.exec(value)?.[1]
  if (host === undefined || (!HOST_NAME.test(host) && !IPV6_HOST.test(host))) return false
  try {
    return new URL(value).origin === value
  } catch {
    return false
  }
}
