/**
 * One webhook request: a POST of the message's body with the Standard Webhooks headers, to an
 * address checked after DNS resolution (the connection goes to the address that was checked, so a
 * name that re-resolves elsewhere cannot slip past), redirects not followed, a deadline over the
 * whole exchange, and at most RESPONSE_PREVIEW_BYTES of the answer read.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { isPublicAddress, literalAddress } from '../domain/network-address.js'

/** How much of a receiver's answer is kept for the delivery log. */
export const RESPONSE_PREVIEW_BYTES = 1024

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Resolves a host name to all its addresses (the system resolver unless a test gives another). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** A target the service will not reach; the message says which address and why, for the delivery log. */
export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RefusedTarget'
  }
}

export interface TargetPolicy {
  /** Loopback, private and link-local addresses and http:// allowed (WEBHOOKS_ALLOW_PRIVATE_NETWORKS). */
  readonly allowPrivateNetworks: boolean
  readonly resolve: Resolver
}

/**
 * Checks a URL as the worker would reach it: https (or http where allowed), no credentials, and
 * every address its host resolves to public. Throws RefusedTarget with a message for the person
 * who typed it.
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<void> {
  checkShape(url, policy)
  if (policy.allowPrivateNetworks) return
  await publicAddresses(url.hostname, policy.resolve)
}

/** The URL's own checks, without resolving its host: https (or http where allowed), no credentials. */
export function checkShape(url: URL, policy: Pick<TargetPolicy, 'allowPrivateNetworks'>): void {
  if (url.protocol !== 'https:' && !(policy.allowPrivateNetworks && url.protocol === 'http:')) {
    throw new RefusedTarget('must be an https:// URL')
  }
  if (url.username !== '' || url.password !== '') throw new RefusedTarget('must not contain a user name or password')
}

async function publicAddresses(hostname: string, resolve: Resolver): Promise<readonly ResolvedAddress[]> {
  const literal = literalAddress(hostname)
  let addresses: readonly ResolvedAddress[]
  if (literal === undefined) {
    try {
      addresses = await resolve(hostname)
    } catch {
      throw new RefusedTarget(`names a host, ${hostname}, that does not resolve to an address`)
    }
  } else {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }]
  }
  if (addresses.length === 0) throw new RefusedTarget(`names a host, ${hostname}, that does not resolve to an address`)
  const refused = addresses.find((entry) => !isPublicAddress(entry.address))
  if (refused !== undefined) {
    throw new RefusedTarget(`names a host, ${hostname}, that resolves to ${refused.address}: a loopback, private, link-local or `
      + 'otherwise non-public address, which webhooks do not reach')
  }
  return addresses
}

/** A connection's look-up: the checked addresses only. */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const resolved = policy.allowPrivateNetworks ? policy.resolve(hostname) : publicAddresses(hostname, policy.resolve)
    resolved.then((addresses) => {
      const family = options.family ?? 0
      const wanted = addresses.filter((entry) => family === 0 || entry.family === family)
      const first = wanted[0]
      if (first === undefined) {
        callback(new RefusedTarget(`names a host, ${hostname}, without an address of the family asked for`), '', 4)
      } else if (options.all === true) {
        callback(null, wanted.map((entry) => ({ address: entry.address, family: entry.family })))
      } else {
        callback(null, first.address, first.family)
      }
    }, (error: unknown) => {
      callback(error instanceof Error ? error : new Error(String(error)), '', 4)
    })
  }
}

export interface SignedRequest {
  readonly url: string
  readonly messageId: string
  /** Unix seconds of this attempt. */
  readonly timestamp: number
  readonly body: string
  /** The current secret first; during a rotation's overlap the previous one too. */
  readonly secrets: readonly string[]
}

/** The Standard Webhooks headers: `webhook-signature` holds one `v1,<base64>` per secret, space-separated. */
export function signatureHeaders(request: SignedRequest): Record<string, string> {
  const at = new Date(request.timestamp * 1000)
  return {
    'webhook-id': request.messageId,
    'webhook-timestamp': String(request.timestamp),
    'webhook-signature': request.secrets.map((secret) => new Webhook(secret).sign(request.messageId, at, request.body)).join(' '),
  }
}

export interface Answer {
  readonly status: number
  /** The first bytes of the body, as text. */
  readonly preview: string
  /** Retry-After, in milliseconds from now, when the receiver sent one that can be read. */
  readonly retryAfterMs: number | undefined
}

/** Sends the request; resolves with the answer (any status) or rejects (refused target, network error, deadline). */
export async function send(request: SignedRequest, policy: TargetPolicy, timeoutMs: number, userAgent: string,
  now: () => number): Promise<Answer> {
  const url = new URL(request.url)
  await checkTarget(url, policy)
  const body = Buffer.from(request.body)
  const client = url.protocol === 'https:' ? https : http
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(policy),
      headers: {
        ...signatureHeaders(request),
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': userAgent,
      },
    }, (response) => {
      const chunks: Buffer[] = []
      let length = 0
      const finish = () => {
        clearTimeout(deadline)
        response.destroy()
        resolve({
          status: response.statusCode ?? 0,
          preview: Buffer.concat(chunks).subarray(0, RESPONSE_PREVIEW_BYTES).toString('utf8'),
          retryAfterMs: retryAfterMs(response.headers['retry-after'], now()),
        })
      }
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        length += chunk.length
        // Enough for the log: the rest is never read.
        if (length >= RESPONSE_PREVIEW_BYTES) finish()
      })
      response.on('end', finish)
      response.on('error', finish)
    })
    const deadline = setTimeout(() => {
      outgoing.destroy(new Error(`no complete answer within ${String(timeoutMs / 1000)} s`))
    }, timeoutMs)
    outgoing.on('error', (error) => {
      clearTimeout(deadline)
      reject(error)
    })
    outgoing.end(body)
  })
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
