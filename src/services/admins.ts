/**
 * The dashboard's people: invitations, sign-in by e-mail link, sessions, team changes, and the
 * audit log that records each of them. One function per operation, shared by the admin API and
 * the command line (docs/dashboard.md).
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { ACCESS_SCOPE } from '../db/change-scopes.js'
import * as admins from '../db/repositories/admins.js'
import type { InvitationRecord, Membership, SessionRecord, TeamMember } from '../db/repositories/admins.js'
import type { Database, SignInMethod } from '../db/schema.js'
import { isoForDb } from '../db/values.js'
import type { AdminRole } from '../domain/admin-roles.js'
import { normaliseEmail } from '../domain/admin-roles.js'
import { Conflict, InvalidRequest, InvalidToken, NotFound, RateLimited } from '../domain/errors.js'
import { generateToken, hashToken, isWellFormedToken } from '../domain/secret-token.js'
import { renderInvitation, renderSignInLink } from '../mail/admin-mail.js'
import { OPERATOR } from './audit.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

export type { PasskeyRecord, SessionRecord } from '../db/repositories/admins.js'

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000
export const INVITATION_TTL_MS = 7 * 86_400_000
/** Sign-in links one address is sent per hour; further requests are answered alike and send nothing. */
export const SIGN_IN_LINKS_PER_HOUR = 5

export interface DashboardSettings {
  readonly publicUrl: URL
  readonly mailFrom: string
  readonly sessionIdleMs: number
  readonly sessionAbsoluteMs: number
  /** Invitation mails one address may be sent in a day, by all clubs together. */
  readonly invitationsPerAddressPerDay: number
  /** Invitation mails one club may send in a day. */
  readonly invitationsPerClubPerDay: number
  /** Sign-in link mails one address may be sent in a day. */
  readonly signInLinksPerAddressPerDay: number
}

const DAY_MS = 86_400_000

const EMAIL = /^[^\s@<>()[\],;:"]{1,64}@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/

/** A plausible address, normalised; InvalidRequest naming the field otherwise. */
export function checkEmail(email: string, field = 'email'): string {
  const normalised = normaliseEmail(email)
  if (normalised.length > 254 || !EMAIL.test(normalised)) throw new InvalidRequest('field', field, 'is not an e-mail address')
  return normalised
}

export function dashboardUrl(settings: DashboardSettings, page: string, token: string): string {
  const url = new URL(`dashboard/${page}`, settings.publicUrl)
  // In the fragment: never sent to a server, so never in an access log or a Referer.
  url.hash = `token=${token}`
  return url.toString()
}

export interface IssuedInvitation {
  readonly invitation: InvitationRecord
  /** The link in the mail; shown to the operator who invites from the command line. */
  readonly url: string
}

/**
 * Invites an address to administer a club: an invitation mail through the outbox, recorded in the
 * audit log. At most `invitationsPerAddressPerDay` invitations go to one address in 24 hours (from
 * all clubs) and `invitationsPerClubPerDay` from one club, as booking mails are limited: a further
 * one is refused (RateLimited, with when the next may be sent) and mails nothing.
 */
export async function inviteAdmin(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  input: { clubId: string, email: string, role: AdminRole, actor: Actor }): Promise<IssuedInvitation> {
  const email = checkEmail(input.email)
  const now = clock.now()
  const token = generateToken('invitation')
  const url = dashboardUrl(settings, 'invitation', token)
  const invitation: InvitationRecord = { id: randomUUID(), clubId: input.clubId, email, role: input.role,
    invitedBy: input.actor.adminId, createdAt: isoForDb(now), expiresAt: isoForDb(now + INVITATION_TTL_MS) }
  await write(db, now, async (work) => {
    const trx = work.db
    // One club's invitations are counted one at a time.
    await admins.lockRow(trx, 'clubs', input.clubId)
    const clubName = await admins.clubNameOf(trx, input.clubId)
    if (clubName === undefined) throw new NotFound('No such club.')
    const existing = await admins.findAdminByEmail(trx, email)
    if (existing !== undefined && await admins.roleInClub(trx, input.clubId, existing.id) !== undefined) {
      throw new Conflict(`${email} administers this club already.`)
    }
    const toAddress = await admins.invitationsSince(trx, { email }, now - DAY_MS)
    if (toAddress.count >= settings.invitationsPerAddressPerDay) {
      throw new RateLimited(secondsUntilDayAfter(toAddress.first, now), `${email} was sent ${String(toAddress.count)} `
        + `invitation${toAddress.count === 1 ? '' : 's'} in the last 24 hours, the most allowed; try again later.`)
    }
    const fromClub = await admins.invitationsSince(trx, { clubId: input.clubId }, now - DAY_MS)
    if (fromClub.count >= settings.invitationsPerClubPerDay) {
      throw new RateLimited(secondsUntilDayAfter(fromClub.first, now), `The club sent ${String(fromClub.count)} invitations `
        + 'in the last 24 hours, the most allowed; try again later.')
    }
    await admins.revokeOpenInvitations(trx, input.clubId, email, now)
    await admins.insertInvitation(trx, invitation, hashToken(token))
    const mail = renderInvitation({ clubName, role: input.role, url, expiresInDays: INVITATION_TTL_MS / 86_400_000 })
    await work.mail({ clubId: input.clubId, bookingId: null, recipientName: '', recipientEmail: email, ...mail, ics: null },
      settings.mailFrom)
    await work.audit(input.actor, input.clubId, { action: 'invitation.created', target: invitation.id,
      targetName: `${email} as ${input.role}` })
  })
  return { invitation, url }
}

/** Whole seconds until a day has passed since `first` (at least one). */
function secondsUntilDayAfter(first: string | null, now: number): number {
  return Math.max(1, Math.ceil(((first === null ? now : Date.parse(first)) + DAY_MS - now) / 1000))
}

export async function withdrawInvitation(db: Kysely<Database>, clock: Clock,
  input: ClubChange & { invitationId: string }): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    const email = await admins.revokeInvitation(trx, input.clubId, input.invitationId, clock.now())
    if (email === undefined) throw new NotFound('No such open invitation.')
    await work.audit(input.actor, input.clubId, { action: 'invitation.withdrawn', target: input.invitationId,
      targetName: email })
  })
}

/** A change to a club's team, by someone. */
export interface ClubChange {
  readonly clubId: string
  readonly actor: Actor
}

export interface MemberChange extends ClubChange {
  readonly adminId: string
}

export interface Team {
  readonly members: readonly TeamMember[]
  readonly invitations: readonly InvitationRecord[]
}

export async function teamOf(db: Kysely<Database>, clock: Clock, clubId: string): Promise<Team> {
  return { members: await admins.teamOf(db, clubId), invitations: await admins.openInvitations(db, clubId, clock.now()) }
}

/**
 * Changes a member's role. A club always keeps an owner: the last one cannot be made an admin
 * (transfer ownership first: make another member owner, then step down).
 */
export async function changeRole(db: Kysely<Database>, clock: Clock, input: MemberChange & { role: AdminRole }): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    // Two owners cannot both step down at once.
    await admins.lockRow(trx, 'clubs', input.clubId)
    const current = await admins.roleInClub(trx, input.clubId, input.adminId)
    if (current === undefined) throw new NotFound('No such member of this club.')
    if (current === input.role) return
    if (current === 'owner' && await admins.countOwners(trx, input.clubId) <= 1) {
      throw new Conflict('The club would have no owner left: make another member owner first.')
    }
    await admins.setRole(trx, input.clubId, input.adminId, input.role)
    work.changed(ACCESS_SCOPE)
    await work.audit(input.actor, input.clubId, { action: 'member.role_changed', target: input.adminId,
      targetName: await admins.emailOf(trx, input.adminId), detail: `${current} → ${input.role}` })
  })
}

/** Removes a member from the club (not from other clubs); never the last owner. */
export async function removeAdmin(db: Kysely<Database>, clock: Clock, input: MemberChange): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    await admins.lockRow(trx, 'clubs', input.clubId)
    const current = await admins.roleInClub(trx, input.clubId, input.adminId)
    if (current === undefined) throw new NotFound('No such member of this club.')
    if (current === 'owner' && await admins.countOwners(trx, input.clubId) <= 1) {
      throw new Conflict('The club would have no owner left: make another member owner first.')
    }
    await admins.removeMembership(trx, input.clubId, input.adminId)
    work.changed(ACCESS_SCOPE)
    await work.audit(input.actor, input.clubId, { action: 'member.removed', target: input.adminId,
      targetName: await admins.emailOf(trx, input.adminId), detail: `was ${current}` })
  })
}

export interface SignInRequest {
  readonly address: string | null
  readonly userAgent: string | null
}

export interface NewSession {
  /** The cookie's value; only its hash is stored. */
  readonly token: string
  readonly session: SessionRecord
}

export async function startSession(db: Kysely<Database>, now: number, settings: DashboardSettings, adminId: string, email: string,
  method: SignInMethod, request: SignInRequest): Promise<NewSession> {
  const token = generateToken('session')
  const id = randomUUID()
  const expiresAt = now + settings.sessionAbsoluteMs
  await admins.insertSession(db, { id, tokenHash: hashToken(token), adminId, method, now, expiresAt,
    address: request.address, userAgent: request.userAgent?.slice(0, 300) ?? null })
  await admins.recordSignIn(db, adminId, now)
  return { token, session: { id, adminId, email, method, createdAt: isoForDb(now), lastSeenAt: isoForDb(now),
    expiresAt: isoForDb(expiresAt), address: request.address, userAgent: request.userAgent } }
}

/** Accepts an invitation: the person (created if new) joins the club with the invited role and is signed in. */
export async function acceptInvitation(db: Kysely<Database>, clock: Clock, settings: DashboardSettings, token: string,
  request: SignInRequest): Promise<NewSession> {
  if (!isWellFormedToken('invitation', token)) throw new InvalidToken('This invitation link is not valid.')
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const invitation = await admins.claimInvitation(trx, hashToken(token), now)
    if (invitation === undefined) throw new InvalidToken('This invitation is used, withdrawn or expired; ask for a new one.')
    const adminId = await admins.ensureAdmin(trx, invitation.email, now)
    const current = await admins.roleInClub(trx, invitation.clubId, adminId)
    // Joining never demotes: an owner who accepts an old admin invitation stays owner.
    if (current !== 'owner') await admins.addMembership(trx, invitation.clubId, adminId, invitation.role, now)
    work.changed(ACCESS_SCOPE)
    const actor: Actor = { adminId, label: invitation.email, address: request.address }
    await work.audit(actor, invitation.clubId, { action: 'invitation.accepted', target: invitation.id,
      targetName: `${invitation.email} as ${invitation.role}` })
    return startSession(trx, now, settings, adminId, invitation.email, 'invitation', request)
  })
}

/** What an invitation's link is for, so that its page can say it before it is used: nothing is changed. */
export interface InvitationDescription {
  readonly clubName: string
  readonly role: AdminRole
  readonly email: string
  readonly expiresAt: string
}

export async function describeInvitation(db: Kysely<Database>, clock: Clock, token: string): Promise<InvitationDescription> {
  if (!isWellFormedToken('invitation', token)) throw new InvalidToken('This invitation link is not valid.')
  const invitation = await admins.findOpenInvitation(db, hashToken(token), clock.now())
  if (invitation === undefined) throw new InvalidToken('This invitation is used, withdrawn or expired; ask for a new one.')
  return { clubName: invitation.clubName, role: invitation.role, email: invitation.email, expiresAt: invitation.expiresAt }
}

/** What a sign-in link is for (the address, and the clubs it administers), before it is used: nothing is changed. */
export async function describeSignInLink(db: Kysely<Database>, clock: Clock, token: string):
Promise<{ email: string, expiresAt: string, clubs: Membership[] }> {
  if (!isWellFormedToken('sign-in', token)) throw new InvalidToken('This sign-in link is not valid.')
  const link = await admins.findOpenSignInLink(db, hashToken(token), clock.now())
  if (link === undefined) throw new InvalidToken('This sign-in link is used or expired; ask for a new one.')
  return { email: link.email, expiresAt: link.expiresAt, clubs: await admins.membershipsOf(db, link.adminId) }
}

/**
 * Asks for a sign-in link. The answer is the same whether or not the address belongs to anyone:
 * this returns nothing, and the caller answers before the work is done. An address that
 * administers a club gets a link valid for 15 minutes, at most SIGN_IN_LINKS_PER_HOUR an hour.
 */
export async function requestSignInLink(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  email: string, request: SignInRequest): Promise<'sent' | 'unknown' | 'limited'> {
  const now = clock.now()
  const admin = await admins.findAdminByEmail(db, email)
  if (admin === undefined || (await admins.membershipsOf(db, admin.id)).length === 0) return 'unknown'
  const actor = { adminId: admin.id, label: admin.email, address: request.address }
  const url = await mailSignInLink(db, now, settings, admin, actor,
    { perHour: SIGN_IN_LINKS_PER_HOUR, perDay: settings.signInLinksPerAddressPerDay })
  return url === undefined ? 'limited' : 'sent'
}

/**
 * A sign-in link for a person, mailed through the outbox; returns its URL, or undefined when the
 * person has been sent `perHour` links in the last hour or `perDay` in the last 24 hours (counted
 * under a lock of the person, so that concurrent requests cannot all pass the count).
 */
async function mailSignInLink(db: Kysely<Database>, now: number, settings: DashboardSettings,
  admin: { id: string, email: string }, actor: Actor, limits?: { perHour: number, perDay: number }): Promise<string | undefined> {
  const token = generateToken('sign-in')
  const url = dashboardUrl(settings, 'sign-in', token)
  const mail = renderSignInLink({ url, validMinutes: SIGN_IN_LINK_TTL_MS / 60_000 })
  return write(db, now, async (work) => {
    const trx = work.db
    await admins.lockRow(trx, 'admins', admin.id)
    if (limits !== undefined && (await admins.countRecentSignInLinks(trx, admin.id, now - 3_600_000) >= limits.perHour
      || await admins.countRecentSignInLinks(trx, admin.id, now - DAY_MS) >= limits.perDay)) return undefined
    await admins.insertSignInLink(trx, admin.id, hashToken(token), now, SIGN_IN_LINK_TTL_MS)
    await work.mail({ clubId: null, bookingId: null, recipientName: '', recipientEmail: admin.email, ...mail, ics: null },
      settings.mailFrom)
    await work.auditPerson({ ...actor, adminId: admin.id }, { action: 'sign_in.link_sent', target: admin.id,
      targetName: admin.email })
    return url
  })
}

/**
 * Makes an address an owner of a club (creating the person if new) and mails them a sign-in link,
 * returned for the operator to hand over: the demo's way into its dashboard.
 */
export async function ownerSignInLink(db: Kysely<Database>, clock: Clock, settings: DashboardSettings,
  input: { clubId: string, email: string }): Promise<string> {
  const email = checkEmail(input.email)
  const now = clock.now()
  const adminId = await admins.ensureAdmin(db, email, now)
  if (await admins.roleInClub(db, input.clubId, adminId) !== 'owner') await admins.addMembership(db, input.clubId, adminId, 'owner', now)
  return await mailSignInLink(db, now, settings, { id: adminId, email }, OPERATOR) ?? ''
}

/** Uses a sign-in link (once, within 15 minutes) and starts a session. */
export async function signInWithLink(db: Kysely<Database>, clock: Clock, settings: DashboardSettings, token: string,
  request: SignInRequest): Promise<NewSession> {
  if (!isWellFormedToken('sign-in', token)) throw new InvalidToken('This sign-in link is not valid.')
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const adminId = await admins.claimSignInLink(trx, hashToken(token), now)
    if (adminId === undefined) throw new InvalidToken('This sign-in link is used or expired; ask for a new one.')
    const email = await admins.emailOf(trx, adminId)
    await work.auditPerson({ adminId, label: email, address: request.address }, { action: 'sign_in', target: 'link',
      targetName: 'e-mail link' })
    return startSession(trx, now, settings, adminId, email, 'link', request)
  })
}

export async function sessionsOf(db: Kysely<Database>, clock: Clock, adminId: string): Promise<SessionRecord[]> {
  return admins.liveSessionsOf(db, adminId, clock.now())
}

/** Ends one session of the person, or all of them ("sign out everywhere"). */
export async function signOut(db: Kysely<Database>, clock: Clock, actor: Actor & { adminId: string },
  sessionId?: string): Promise<number> {
  const now = clock.now()
  return write(db, now, async (work) => {
    const trx = work.db
    const ended = await admins.revokeSessions(trx, actor.adminId, now, sessionId)
    work.changed(ACCESS_SCOPE)
    if (sessionId !== undefined && ended === 0) throw new NotFound('No such session.')
    await work.auditPerson(actor, { action: sessionId === undefined ? 'sign_out.everywhere' : 'sign_out',
      target: sessionId ?? null, targetName: sessionId === undefined ? `${String(ended)} sessions` : 'a session' })
    return ended
  })
}

export async function membershipsOf(db: Kysely<Database>, adminId: string): Promise<Membership[]> {
  return admins.membershipsOf(db, adminId)
}
