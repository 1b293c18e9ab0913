/**
 * Secrets handed to people (sign-in links, invitations, sessions, a guest's link to manage a
 * booking, a private calendar feed's address, a waiting list entry's stop link): 256 random bits, base64url,
 * with a short prefix that says what they are. Only their SHA-256 is stored, so a copy of the
 * database signs nobody in.
 */
import { createHash, randomBytes } from 'node:crypto'

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
