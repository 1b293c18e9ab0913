/** The dashboard's tables: its people and their clubs, invitations, sign-in links, sessions, passkeys, audit log, feeds. */
import type { ColumnType } from 'kysely'
import type { AdminRole } from '../domain/admin-roles.js'
import type { Bool, NullableTimestamp, Timestamp } from './schema.js'

export type { AdminRole } from '../domain/admin-roles.js'

export interface AdminsTable {
  id: string
  /** Lower-case. */
  email: string
  created_at: Timestamp
  last_sign_in_at: NullableTimestamp
}

export interface ClubAdminsTable {
  club_id: string
  admin_id: string
  role: AdminRole
  created_at: Timestamp
}

export interface AdminInvitationsTable {
  id: string
  club_id: string
  email: string
  role: AdminRole
  /** SHA-256 of the invitation token, hex. */
  token_hash: string
  invited_by: string | null
  created_at: Timestamp
  expires_at: Timestamp
  accepted_at: NullableTimestamp
  revoked_at: NullableTimestamp
}

export interface SignInLinksTable {
  token_hash: string
  admin_id: string
  created_at: Timestamp
  expires_at: Timestamp
  used_at: NullableTimestamp
}

export type SignInMethod = 'link' | 'invitation' | 'passkey'

export interface AdminSessionsTable {
  id: string
  token_hash: string
  admin_id: string
  method: SignInMethod
  created_at: Timestamp
  last_seen_at: Timestamp
  /** The absolute end of the session, however active it is. */
  expires_at: Timestamp
  address: string | null
  user_agent: string | null
  revoked_at: NullableTimestamp
}

export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string
  admin_id: string
  name: string
  /** COSE public key, base64url. */
  public_key: string
  counter: ColumnType<number | string, number, number>
  /** Comma-separated authenticator transports. */
  transports: string
  created_at: Timestamp
  last_used_at: NullableTimestamp
}

export interface WebauthnChallengesTable {
  id: string
  admin_id: string | null
  challenge: string
  expires_at: Timestamp
}

export interface AuditLogTable {
  id: string
  club_id: string | null
  actor_admin_id: string | null
  actor: string
  action: string
  target: string | null
  address: string | null
  /** JSON array of the names of the fields an edit changed; null for other actions. */
  fields: string | null
  /** What the target was called when it happened (migration 0014); null for older entries. */
  target_name: string | null
  /** Why, in the actor's words where there are some (a cancellation's reason). */
  detail: string | null
  /** The part of `action` before its dot: what the log is filtered by. */
  kind: string | null
  created_at: Timestamp
}

/** A club's private feed of its court bookings, behind a secret address (migration 0021). */
export interface CalendarFeedsTable {
  id: string
  club_id: string
  name: string
  /** SHA-256 of the address's token, base64url; the token itself is shown once. */
  token_hash: string
  show_names: Bool
  created_at: Timestamp
  revoked_at: NullableTimestamp
}
