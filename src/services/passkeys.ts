/**
 * Passkeys (WebAuthn) for the dashboard, with @simplewebauthn/server: a signed-in person adds one,
 * and later signs in with it instead of an e-mail link. The relying party is the service's public
 * URL (its host name is the RP ID, so it must be a domain name such as `localhost`, not an IP
 * address). Challenges live in the database for five minutes, so any instance may finish a
 * ceremony another began; each is used once.
 */
import { randomUUID } from 'node:crypto'
import type * as SimpleWebAuthn from '@simplewebauthn/server'
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import * as admins from '../db/repositories/admins.js'
import type { PasskeyRecord } from '../db/repositories/admins.js'
import type { Database } from '../db/schema.js'
import { isoForDb } from '../db/values.js'
import { InvalidRequest, InvalidToken, NotFound } from '../domain/errors.js'
import { startSession } from './admins.js'
import type { DashboardSettings, NewSession, SignInRequest } from './admins.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

const CHALLENGE_TTL_MS = 5 * 60_000
const RP_NAME = 'Club Platform'

function relyingParty(settings: DashboardSettings): { rpID: string, origin: string } {
  return { rpID: settings.publicUrl.hostname, origin: settings.publicUrl.origin }
}

/**
 * @simplewebauthn/server and the certificate parsers it brings, loaded with the first ceremony: a
 * server whose administrators do not use passkeys does without their 4 MiB of heap.
 */
function webauthn(): Promise<typeof SimpleWebAuthn> {
  return import('@simplewebauthn/server')
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url')
}

/** The options for adding a passkey to the signed-in person, and the ceremony's id. */
export async function registrationOptions(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  person: { adminId: string, email: string }): Promise<{ challengeId: string, options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await admins.passkeysOf(db, person.adminId)
  const { generateRegistrationOptions } = await webauthn()
  const options = await generateRegistrationOptions({
    rpName: RP_NAME, rpID: relyingParty(settings).rpID, userName: person.email,
    userID: new TextEncoder().encode(person.adminId), attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: [...passkey.transports] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  })
  const challengeId = randomUUID()
  const now = clock.now()
  await admins.deleteExpiredChallenges(db, now)
  await admins.insertChallenge(db, { id: challengeId, adminId: person.adminId, challenge: options.challenge,
    expiresAt: now + CHALLENGE_TTL_MS })
  return { challengeId, options }
}

/** Verifies the browser's answer to registrationOptions and keeps the passkey. */
export async function addPasskey(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  actor: Actor & { adminId: string },
  input: { challengeId: string, name: string, response: RegistrationResponseJSON }): Promise<PasskeyRecord> {
  const now = clock.now()
  const challenge = await admins.takeChallenge(db, input.challengeId, now)
  if (challenge === undefined || challenge.adminId !== actor.adminId) {
    throw new InvalidToken('This passkey ceremony is unknown or expired; start again.')
  }
  const { rpID, origin } = relyingParty(settings)
  const { verifyRegistrationResponse } = await webauthn()
  let verified
  try {
    verified = await verifyRegistrationResponse({ response: input.response, expectedChallenge: challenge.challenge,
      expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false })
  } catch (error) {
    throw new InvalidRequest('field', 'response', `is not a valid passkey registration (${error instanceof Error ? error.message : 'unreadable'})`)
  }
  if (!verified.verified) throw new InvalidRequest('field', 'response', 'is not a valid passkey registration')
  const credential = verified.registrationInfo.credential
  const passkey = { id: credential.id, adminId: actor.adminId, name: input.name.trim() === '' ? 'Passkey' : input.name.trim(),
    publicKey: base64url(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [],
    createdAt: isoForDb(now) }
  await write(db, now, async (work) => {
    const trx = work.db
    await admins.insertPasskey(trx, passkey)
    await work.auditPerson(actor, { action: 'passkey.added', target: passkey.id, targetName: passkey.name })
  })
  return { ...passkey, lastUsedAt: null }
}

/** The options for signing in with any passkey of this service (the browser offers the person's own). */
export async function authenticationOptions(db: Kysely<Database>, clock: Clock, settings: DashboardSettings):
Promise<{ challengeId: string, options: PublicKeyCredentialRequestOptionsJSON }> {
  const { generateAuthenticationOptions } = await webauthn()
  const options = await generateAuthenticationOptions({ rpID: relyingParty(settings).rpID, userVerification: 'preferred' })
  const challengeId = randomUUID()
  const now = clock.now()
  await admins.deleteExpiredChallenges(db, now)
  await admins.insertChallenge(db, { id: challengeId, adminId: null, challenge: options.challenge,
    expiresAt: now + CHALLENGE_TTL_MS })
  return { challengeId, options }
}

/** Verifies a passkey's signature over the challenge and starts a session. */
export async function signInWithPasskey(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  input: { challengeId: string, response: AuthenticationResponseJSON }, request: SignInRequest): Promise<NewSession> {
  const now = clock.now()
  const refused = () => new InvalidToken('This passkey is not known here, or the sign-in took too long; try again.')
  const challenge = await admins.takeChallenge(db, input.challengeId, now)
  if (challenge === undefined || challenge.adminId !== null) throw refused()
  const passkey = typeof input.response.id === 'string' ? await admins.findPasskey(db, input.response.id) : undefined
  if (passkey === undefined) throw refused()
  const { rpID, origin } = relyingParty(settings)
  const { verifyAuthenticationResponse } = await webauthn()
  let verified
  try {
    verified = await verifyAuthenticationResponse({ response: input.response, expectedChallenge: challenge.challenge,
      expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false,
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter,
        transports: [...passkey.transports] } })
  } catch {
    throw refused()
  }
  if (!verified.verified) throw refused()
  return write(db, now, async (work) => {
    const trx = work.db
    // A cloned authenticator replaying an old counter loses the race here.
    if (!await admins.usePasskey(trx, passkey.id, passkey.counter, verified.authenticationInfo.newCounter, now)) throw refused()
    const email = await admins.emailOf(trx, passkey.adminId)
    await work.auditPerson({ adminId: passkey.adminId, label: email, address: request.address }, { action: 'sign_in',
      target: 'passkey', targetName: `passkey "${passkey.name}"` })
    return startSession(trx, now, settings, passkey.adminId, email, 'passkey', request)
  })
}

export async function passkeysOf(db: Kysely<Database>, adminId: string): Promise<PasskeyRecord[]> {
  return admins.passkeysOf(db, adminId)
}

export async function removePasskey(db: Kysely<Database>, clock: Clock, actor: Actor & { adminId: string },
  id: string): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    const passkey = await admins.findPasskey(trx, id)
    if (passkey?.adminId !== actor.adminId || !await admins.deletePasskey(trx, actor.adminId, id)) {
      throw new NotFound('No such passkey.')
    }
    await work.auditPerson(actor, { action: 'passkey.removed', target: id, targetName: passkey.name })
  })
}
