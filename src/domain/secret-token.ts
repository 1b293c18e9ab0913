/**
 * Secrets handed to people (sign-in links, invitations, sessions, a guest's link to manage a
 * booking, a private calendar feed's address, a waiting list entry's stop link): 256 random bits, base64url,
 * with a short prefix that says what they are. Only their SHA-256 is stored, so a copy of the
 * database signs nobody in.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

export type TokenKind = 'sign-in' | 'invitation' | 'session' | 'manage' | 'feed' | 'waiting'

const PREFIX: Readonly<Record<TokenKind, string>> = {
  'sign-in': 'cpl_', 'invitation': 'cpi_', 'session': 'cps_', 'manage': 'cpm_', 'feed': 'cpf_', 'waiting': 'cpw_',
}
const BODY = /^[A-Za-z0-9_-]{43}$/

export function generateToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Whether the text has the shape of a token of this kind (checked before any look-up). */
export function isWellFormedToken(kind: TokenKind, token: string): boolean {
  return token.startsWith(PREFIX[kind]) && BODY.test(token.slice(PREFIX[kind].length))
}

function sealingKey(key: string): Buffer {
  return createHash('sha256').update(`club-platform sealed secret\0${key}`).digest()
}

/**
 * A secret kept so that only whoever holds another opens it (a booking's manage token under the
 * client's Idempotency-Key, whose hash alone is stored): AES-256-GCM under a key derived from the
 * other, base64url of its nonce, text and tag.
 */
export function sealUnder(secret: string, key: string): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key), nonce)
  const text = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return Buffer.concat([nonce, text, cipher.getAuthTag()]).toString('base64url')
}

/** The secret sealed under this key; undefined when it is not (another key, or anything else). */
export function openSealed(sealed: string, key: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url')
  if (bytes.length < 12 + 16) return undefined
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(key), bytes.subarray(0, 12))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8')
  } catch {
    return undefined
  }
}
