/**
 * API key format: `cpk_` + 32 random base62 characters (190 bits) + 6 base62 characters of
 * CRC-32 over the first part. The prefix lets people and secret scanners recognise a leaked key;
 * the checksum lets the service refuse a mistyped or made-up key without a database look-up.
 * Only the SHA-256 of a key is stored: keys are random and long, so a fast hash is enough.
 */
import { hash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const API_KEY_PREFIX = 'cpk_'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`)
/** How much of a key is kept in clear, to tell keys apart in listings and logs. */
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 6

export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH)
  return body + checksum(body)
}

/** Shape and checksum only: true does not mean the key exists. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false
  const body = candidate.slice(0, -CHECKSUM_LENGTH)
  return candidate.slice(-CHECKSUM_LENGTH) === checksum(body)
}

export function hashApiKey(key: string): string {
  // The one-shot form: no Hash object per request.
  return hash('sha256', key, 'hex')
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH)
}

function checksum(body: string): string {
  let value = crc32(body)
  let out = ''
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62.charAt(value % 62) + out
    value = Math.floor(value / 62)
  }
  return out
}

/** Uniform base62 by rejection sampling: bytes ≥ 248 would bias the alphabet and are skipped. */
function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62.charAt(byte % 62)
    }
  }
  return out
}

/** Whether a key works now: revoked (for good), expired, or active. */
export function keyStatus(key: { readonly revokedAt: string | null, readonly expiresAt: string | null }, now: number):
  'active' | 'expired' | 'revoked' {
  if (key.revokedAt !== null) return 'revoked'
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return 'expired'
  return 'active'
}
