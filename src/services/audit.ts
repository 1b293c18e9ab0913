/**
 * The audit log (docs/dashboard.md, "Audit log"): who did what in a club, when, from which address,
 * to what — named as it was called then — and why, where the actor said. Written in the
 * transaction of the change it records (src/services/unit-of-work.ts); never a key, a token or a guest's address. A person's own
 * actions (sign-ins, sign-outs, passkeys) belong to no club: they are written once for each club
 * the person administers, so that each club's owners read them in its log.
 */
import type { Kysely } from 'kysely'
import { auditOf } from '../db/repositories/audit.js'
import type { AuditEntry, AuditFilter } from '../db/repositories/audit.js'
import type { Database } from '../db/schema.js'

export type { AuditEntry, AuditFilter } from '../db/repositories/audit.js'

/** Who acts: a signed-in person, or the operator at the command line. */
export interface Actor {
  readonly adminId: string | null
  /** As recorded in the audit log: the person's e-mail address, or `operator`. */
  readonly label: string
  readonly address: string | null
}

export const OPERATOR: Actor = { adminId: null, label: 'operator', address: null }

/** One action as the log records it. */
export interface AuditRecord {
  /** What was done: `court.changed`, `booking.cancelled`, … */
  readonly action: string
  /** What it was done to: its id (or, for some actions, a description). */
  readonly target?: string | null
  /** What the target is called: a court's name, a key's name and prefix, a person's address. */
  readonly targetName?: string | null
  /** The fields an edit changed, by name (never their values). */
  readonly fields?: readonly string[] | null
  /** Why, in the actor's words: the reason a booking was cancelled. */
  readonly detail?: string | null
}

/** The newest entries of a club's log (every club's: `clubId` undefined) that pass the filter, at most `limit`. */
export async function auditLog(db: Kysely<Database>, clubId: string | undefined, filter: AuditFilter = {},
  limit = 200): Promise<AuditEntry[]> {
  return auditOf(db, clubId, filter, limit)
}
