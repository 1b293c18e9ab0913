/** The dashboard's people, memberships, invitations, sign-in links, sessions and passkeys (the audit log: audit.ts). */
import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { AdminRole } from '../../domain/admin-roles.js'
import type { Database, PasskeysTable, SignInMethod } from '../schema.js'
export { lockRow } from '../dialect.js'
import { isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'

export interface AdminRecord {
  readonly id: string
  readonly email: string
  readonly createdAt: string
  readonly lastSignInAt: string | null
}

export interface Membership {
  readonly clubId: string
  readonly clubSlug: string
  readonly clubName: string
  /** The club's IANA time zone, in which the dashboard shows and takes its times. */
  readonly clubTimezone: string
  readonly role: AdminRole
}

export interface TeamMember {
  readonly adminId: string
  readonly email: string
  readonly role: AdminRole
  readonly since: string
  readonly lastSignInAt: string | null
}

export interface InvitationRecord {
  readonly id: string
  readonly clubId: string
  readonly email: string
  readonly role: AdminRole
  readonly invitedBy: string | null
  readonly createdAt: string
  readonly expiresAt: string
}

export interface SessionRecord {
  readonly id: string
  readonly adminId: string
  readonly email: string
  readonly method: SignInMethod
  readonly createdAt: string
  readonly lastSeenAt: string
  readonly expiresAt: string
  readonly address: string | null
  readonly userAgent: string | null
}

export async function findAdminByEmail(db: Kysely<Database>, email: string): Promise<AdminRecord | undefined> {
  const row = await db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirst()
  return row === undefined
    ? undefined
    : { id: row.id, email: row.email, createdAt: isoFromDb(row.created_at),
        lastSignInAt: isoFromDbOrNull(row.last_sign_in_at) }
}

export async function emailOf(db: Kysely<Database>, adminId: string): Promise<string> {
  return (await db.selectFrom('admins').select('email').where('id', '=', adminId).executeTakeFirstOrThrow()).email
}

export async function clubNameOf(db: Kysely<Database>, clubId: string): Promise<string | undefined> {
  return (await db.selectFrom('clubs').select('name').where('id', '=', clubId).executeTakeFirst())?.name
}

/** The admin with this address, created if new. */
export async function ensureAdmin(db: Kysely<Database>, email: string, now: number): Promise<string> {
  await db.insertInto('admins').values({ id: randomUUID(), email, created_at: isoForDb(now), last_sign_in_at: null })
    .onConflict((conflict) => conflict.column('email').doNothing()).execute()
  const row = await db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirstOrThrow()
  return row.id
}

export async function membershipsOf(db: Kysely<Database>, adminId: string): Promise<Membership[]> {
  const rows = await db.selectFrom('club_admins').innerJoin('clubs', 'clubs.id', 'club_admins.club_id')
    .select(['clubs.id as club_id', 'clubs.slug', 'clubs.name', 'clubs.timezone', 'club_admins.role'])
    .where('club_admins.admin_id', '=', adminId).orderBy('clubs.slug').execute()
  return rows.map((row) => ({ clubId: row.club_id, clubSlug: row.slug, clubName: row.name, clubTimezone: row.timezone,
    role: row.role }))
}

/** The admin's membership in the club with this slug; undefined when there is none (or no such club). */
export async function membershipBySlug(db: Kysely<Database>, adminId: string, slug: string): Promise<Membership | undefined> {
  const row = await db.selectFrom('club_admins').innerJoin('clubs', 'clubs.id', 'club_admins.club_id')
    .select(['clubs.id as club_id', 'clubs.slug', 'clubs.name', 'clubs.timezone', 'club_admins.role'])
    .where('club_admins.admin_id', '=', adminId).where('clubs.slug', '=', slug).executeTakeFirst()
  return row === undefined
    ? undefined
    : { clubId: row.club_id, clubSlug: row.slug, clubName: row.name, clubTimezone: row.timezone, role: row.role }
}

export async function teamOf(db: Kysely<Database>, clubId: string): Promise<TeamMember[]> {
  const rows = await db.selectFrom('club_admins').innerJoin('admins', 'admins.id', 'club_admins.admin_id')
    .select(['admins.id', 'admins.email', 'admins.last_sign_in_at', 'club_admins.role', 'club_admins.created_at'])
    .where('club_admins.club_id', '=', clubId).orderBy('admins.email').execute()
  return rows.map((row) => ({ adminId: row.id, email: row.email, role: row.role, since: isoFromDb(row.created_at),
    lastSignInAt: isoFromDbOrNull(row.last_sign_in_at) }))
}

export async function roleInClub(db: Kysely<Database>, clubId: string, adminId: string): Promise<AdminRole | undefined> {
  const row = await db.selectFrom('club_admins').select('role').where('club_id', '=', clubId).where('admin_id', '=', adminId)
    .executeTakeFirst()
  return row?.role
}

export async function countOwners(db: Kysely<Database>, clubId: string): Promise<number> {
  const row = await db.selectFrom('club_admins').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('club_id', '=', clubId).where('role', '=', 'owner').executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function addMembership(db: Kysely<Database>, clubId: string, adminId: string, role: AdminRole,
  now: number): Promise<void> {
  await db.insertInto('club_admins').values({ club_id: clubId, admin_id: adminId, role, created_at: isoForDb(now) })
    .onConflict((conflict) => conflict.columns(['club_id', 'admin_id']).doUpdateSet({ role })).execute()
}

export async function setRole(db: Kysely<Database>, clubId: string, adminId: string, role: AdminRole): Promise<boolean> {
  const result = await db.updateTable('club_admins').set({ role }).where('club_id', '=', clubId).where('admin_id', '=', adminId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function removeMembership(db: Kysely<Database>, clubId: string, adminId: string): Promise<boolean> {
  const result = await db.deleteFrom('club_admins').where('club_id', '=', clubId).where('admin_id', '=', adminId).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function insertInvitation(db: Kysely<Database>, invitation: InvitationRecord, tokenHash: string): Promise<void> {
  await db.insertInto('admin_invitations').values({
    id: invitation.id, club_id: invitation.clubId, email: invitation.email, role: invitation.role, token_hash: tokenHash,
    invited_by: invitation.invitedBy, created_at: invitation.createdAt, expires_at: invitation.expiresAt, accepted_at: null,
    revoked_at: null,
  }).execute()
}

/** How many invitations went to an address (across clubs) or from a club since an instant, and when the first of them did. */
export async function invitationsSince(db: Kysely<Database>, by: { clubId: string } | { email: string },
  since: number): Promise<{ count: number, first: string | null }> {
  let query = db.selectFrom('admin_invitations')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<string | Date | null>('created_at').as('first')])
    .where('created_at', '>', isoForDb(since))
  query = 'clubId' in by ? query.where('club_id', '=', by.clubId) : query.where('email', '=', by.email)
  const row = await query.executeTakeFirstOrThrow()
  return { count: Number(row.n), first: row.first === null ? null : isoFromDb(row.first) }
}

/** Withdraws the club's open invitations of an address (a new one replaces them). */
export async function revokeOpenInvitations(db: Kysely<Database>, clubId: string, email: string, now: number): Promise<void> {
  await db.updateTable('admin_invitations').set({ revoked_at: isoForDb(now) }).where('club_id', '=', clubId)
    .where('email', '=', email).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute()
}

/** Withdraws an open invitation of the club; returns the address it was for, undefined when there was none. */
export async function revokeInvitation(db: Kysely<Database>, clubId: string, id: string,
  now: number): Promise<string | undefined> {
  const row = await db.updateTable('admin_invitations').set({ revoked_at: isoForDb(now) }).where('club_id', '=', clubId)
    .where('id', '=', id).where('accepted_at', 'is', null).where('revoked_at', 'is', null).returning('email').executeTakeFirst()
  return row?.email
}

export async function openInvitations(db: Kysely<Database>, clubId: string, now: number): Promise<InvitationRecord[]> {
  const rows = await db.selectFrom('admin_invitations').selectAll().where('club_id', '=', clubId).where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null).where('expires_at', '>', isoForDb(now)).orderBy('created_at').execute()
  return rows.map((row) => ({ id: row.id, clubId: row.club_id, email: row.email, role: row.role, invitedBy: row.invited_by,
    createdAt: isoFromDb(row.created_at), expiresAt: isoFromDb(row.expires_at) }))
}

/** Marks an open, unexpired invitation accepted (once: a second use finds nothing). */
export async function claimInvitation(db: Kysely<Database>, tokenHash: string,
  now: number): Promise<InvitationRecord | undefined> {
  const row = await db.updateTable('admin_invitations').set({ accepted_at: isoForDb(now) }).where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', isoForDb(now))
    .returningAll().executeTakeFirst()
  return row === undefined
    ? undefined
    : { id: row.id, clubId: row.club_id, email: row.email, role: row.role,
        invitedBy: row.invited_by, createdAt: isoFromDb(row.created_at), expiresAt: isoFromDb(row.expires_at) }
}

/** An open, unexpired invitation by its token's hash, with its club's name; nothing is changed. */
export async function findOpenInvitation(db: Kysely<Database>, tokenHash: string, now: number):
Promise<(InvitationRecord & { clubName: string }) | undefined> {
  const row = await db.selectFrom('admin_invitations').innerJoin('clubs', 'clubs.id', 'admin_invitations.club_id')
    .select(['admin_invitations.id', 'admin_invitations.club_id', 'admin_invitations.email', 'admin_invitations.role',
      'admin_invitations.invited_by', 'admin_invitations.created_at', 'admin_invitations.expires_at', 'clubs.name as club_name'])
    .where('admin_invitations.token_hash', '=', tokenHash).where('admin_invitations.accepted_at', 'is', null)
    .where('admin_invitations.revoked_at', 'is', null).where('admin_invitations.expires_at', '>', isoForDb(now))
    .executeTakeFirst()
  return row === undefined
    ? undefined
    : { id: row.id, clubId: row.club_id, email: row.email, role: row.role, invitedBy: row.invited_by,
        createdAt: isoFromDb(row.created_at), expiresAt: isoFromDb(row.expires_at), clubName: row.club_name }
}

/** The person and expiry of an unused, unexpired sign-in link by its token's hash; nothing is changed. */
export async function findOpenSignInLink(db: Kysely<Database>, tokenHash: string, now: number):
Promise<{ adminId: string, email: string, expiresAt: string } | undefined> {
  const row = await db.selectFrom('sign_in_links').innerJoin('admins', 'admins.id', 'sign_in_links.admin_id')
    .select(['sign_in_links.admin_id', 'admins.email', 'sign_in_links.expires_at'])
    .where('sign_in_links.token_hash', '=', tokenHash).where('sign_in_links.used_at', 'is', null)
    .where('sign_in_links.expires_at', '>', isoForDb(now)).executeTakeFirst()
  return row === undefined ? undefined : { adminId: row.admin_id, email: row.email, expiresAt: isoFromDb(row.expires_at) }
}

export async function insertSignInLink(db: Kysely<Database>, adminId: string, tokenHash: string, now: number,
  ttlMs: number): Promise<void> {
  await db.insertInto('sign_in_links').values({ token_hash: tokenHash, admin_id: adminId, created_at: isoForDb(now),
    expires_at: isoForDb(now + ttlMs), used_at: null }).execute()
}

export async function countRecentSignInLinks(db: Kysely<Database>, adminId: string, since: number): Promise<number> {
  const row = await db.selectFrom('sign_in_links').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('admin_id', '=', adminId).where('created_at', '>', isoForDb(since)).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Uses a sign-in link: returns its admin if it was unused and unexpired, and marks it used. */
export async function claimSignInLink(db: Kysely<Database>, tokenHash: string, now: number): Promise<string | undefined> {
  const row = await db.updateTable('sign_in_links').set({ used_at: isoForDb(now) }).where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null).where('expires_at', '>', isoForDb(now)).returning('admin_id').executeTakeFirst()
  return row?.admin_id
}

export async function recordSignIn(db: Kysely<Database>, adminId: string, now: number): Promise<void> {
  await db.updateTable('admins').set({ last_sign_in_at: isoForDb(now) }).where('id', '=', adminId).execute()
}

export interface NewSessionRow {
  readonly id: string
  readonly tokenHash: string
  readonly adminId: string
  readonly method: SignInMethod
  readonly now: number
  readonly expiresAt: number
  readonly address: string | null
  readonly userAgent: string | null
}

export async function insertSession(db: Kysely<Database>, session: NewSessionRow): Promise<void> {
  await db.insertInto('admin_sessions').values({
    id: session.id, token_hash: session.tokenHash, admin_id: session.adminId, method: session.method,
    created_at: isoForDb(session.now), last_seen_at: isoForDb(session.now), expires_at: isoForDb(session.expiresAt),
    address: session.address, user_agent: session.userAgent, revoked_at: null,
  }).execute()
}

const SESSION_COLUMNS = ['admin_sessions.id', 'admin_sessions.admin_id', 'admins.email', 'admin_sessions.method',
  'admin_sessions.created_at', 'admin_sessions.last_seen_at', 'admin_sessions.expires_at', 'admin_sessions.address',
  'admin_sessions.user_agent'] as const

interface SessionRow {
  id: string
  admin_id: string
  email: string
  method: SignInMethod
  created_at: Date | string
  last_seen_at: Date | string
  expires_at: Date | string
  address: string | null
  user_agent: string | null
}

function toSession(row: SessionRow): SessionRecord {
  return { id: row.id, adminId: row.admin_id, email: row.email, method: row.method, createdAt: isoFromDb(row.created_at),
    lastSeenAt: isoFromDb(row.last_seen_at), expiresAt: isoFromDb(row.expires_at), address: row.address,
    userAgent: row.user_agent }
}

/** A session that is neither revoked nor past its absolute end (the idle limit is the caller's rule). */
export async function findLiveSession(db: Kysely<Database>, tokenHash: string, now: number): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('admin_sessions').innerJoin('admins', 'admins.id', 'admin_sessions.admin_id')
    .select(SESSION_COLUMNS).where('admin_sessions.token_hash', '=', tokenHash).where('admin_sessions.revoked_at', 'is', null)
    .where('admin_sessions.expires_at', '>', isoForDb(now)).executeTakeFirst()
  return row === undefined ? undefined : toSession(row)
}

export async function liveSessionsOf(db: Kysely<Database>, adminId: string, now: number): Promise<SessionRecord[]> {
  const rows = await db.selectFrom('admin_sessions').innerJoin('admins', 'admins.id', 'admin_sessions.admin_id')
    .select(SESSION_COLUMNS).where('admin_sessions.admin_id', '=', adminId).where('admin_sessions.revoked_at', 'is', null)
    .where('admin_sessions.expires_at', '>', isoForDb(now)).orderBy('admin_sessions.last_seen_at', 'desc').execute()
  return rows.map(toSession)
}

export async function touchSession(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('admin_sessions').set({ last_seen_at: isoForDb(now) }).where('id', '=', id).execute()
}

/** Revokes one of the admin's sessions, or all of them (`sessionId` undefined); returns how many. */
export async function revokeSessions(db: Kysely<Database>, adminId: string, now: number, sessionId?: string): Promise<number> {
  let query = db.updateTable('admin_sessions').set({ revoked_at: isoForDb(now) }).where('admin_id', '=', adminId)
    .where('revoked_at', 'is', null)
  if (sessionId !== undefined) query = query.where('id', '=', sessionId)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export interface PasskeyRecord {
  readonly id: string
  readonly adminId: string
  readonly name: string
  /** COSE public key, base64url. */
  readonly publicKey: string
  readonly counter: number
  readonly transports: readonly string[]
  readonly createdAt: string
  readonly lastUsedAt: string | null
}

function toPasskey(row: Selectable<PasskeysTable>): PasskeyRecord {
  return { id: row.id, adminId: row.admin_id, name: row.name, publicKey: row.public_key, counter: Number(row.counter),
    transports: row.transports.split(',').filter((transport) => transport !== ''), createdAt: isoFromDb(row.created_at),
    lastUsedAt: isoFromDbOrNull(row.last_used_at) }
}

export async function insertPasskey(db: Kysely<Database>, passkey: Omit<PasskeyRecord, 'lastUsedAt'>): Promise<void> {
  await db.insertInto('passkeys').values({ id: passkey.id, admin_id: passkey.adminId, name: passkey.name,
    public_key: passkey.publicKey, counter: passkey.counter, transports: passkey.transports.join(','),
    created_at: passkey.createdAt, last_used_at: null }).execute()
}

export async function passkeysOf(db: Kysely<Database>, adminId: string): Promise<PasskeyRecord[]> {
  const rows = await db.selectFrom('passkeys').selectAll().where('admin_id', '=', adminId).orderBy('created_at').execute()
  return rows.map(toPasskey)
}

export async function findPasskey(db: Kysely<Database>, id: string): Promise<PasskeyRecord | undefined> {
  const row = await db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst()
  return row === undefined ? undefined : toPasskey(row)
}

/** Records a use: the authenticator's new signature counter, if it has not gone backwards meanwhile. */
export async function usePasskey(db: Kysely<Database>, id: string, previous: number, counter: number,
  now: number): Promise<boolean> {
  const result = await db.updateTable('passkeys').set({ counter, last_used_at: isoForDb(now) }).where('id', '=', id)
    .where('counter', '=', previous).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function deletePasskey(db: Kysely<Database>, adminId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('admin_id', '=', adminId).where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export interface NewChallenge {
  readonly id: string
  readonly adminId: string | null
  readonly challenge: string
  readonly expiresAt: number
}

export async function insertChallenge(db: Kysely<Database>, challenge: NewChallenge): Promise<void> {
  await db.insertInto('webauthn_challenges').values({ id: challenge.id, admin_id: challenge.adminId, challenge: challenge.challenge,
    expires_at: isoForDb(challenge.expiresAt) }).execute()
}

/** Takes a ceremony's challenge (once: it is deleted), if it has not expired. */
export async function takeChallenge(db: Kysely<Database>, id: string, now: number):
Promise<{ adminId: string | null, challenge: string } | undefined> {
  const row = await db.deleteFrom('webauthn_challenges').where('id', '=', id).returning(['admin_id', 'challenge', 'expires_at'])
    .executeTakeFirst()
  if (row === undefined || Date.parse(isoFromDb(row.expires_at)) <= now) return undefined
  return { adminId: row.admin_id, challenge: row.challenge }
}

export async function deleteExpiredChallenges(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', isoForDb(now)).execute()
}
