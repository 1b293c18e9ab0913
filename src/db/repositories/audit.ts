/** The audit log: who did what in a club, when, from where, to what. */
import { randomUUID } from 'node:crypto'
import type { CompiledQuery, Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDb } from '../values.js'

export interface AuditEntry {
  readonly id: string
  readonly clubId: string | null
  readonly actor: string
  readonly action: string
  /** What it was done to: an id, or for older entries and some actions a description. */
  readonly target: string | null
  /** What the target was called then; null for older entries. */
  readonly targetName: string | null
  /** The fields an edit changed, by name; null for other actions. */
  readonly fields: string[] | null
  /** Why, in the actor's words where there are some. */
  readonly detail: string | null
  readonly address: string | null
  readonly createdAt: string
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'createdAt'> & { readonly actorAdminId: string | null }

/** The part of an action before its dot, what the log is filtered by: `booking` of `booking.cancelled`. */
export function kindOf(action: string): string {
  return action.split('.', 1)[0] ?? action
}

/** The insert of an entry (a unit of work sends it with its other inserts). */
export function auditInsert(db: Kysely<Database>, entry: NewAuditEntry, now: number): CompiledQuery {
  return db.insertInto('audit_log').values({ id: randomUUID(), club_id: entry.clubId, actor_admin_id: entry.actorAdminId,
    actor: entry.actor, action: entry.action, kind: kindOf(entry.action), target: entry.target, target_name: entry.targetName,
    detail: entry.detail, address: entry.address, fields: entry.fields === null ? null : JSON.stringify(entry.fields),
    created_at: isoForDb(now) }).compile()
}

/** Which entries of a club's log: by whom (the actor as recorded), what kind, and from and before which instants. */
export interface AuditFilter {
  readonly actor?: string | undefined
  readonly kind?: string | undefined
  readonly from?: number | undefined
  readonly before?: number | undefined
}

/**
 * The newest entries first, read through the index of the filter (a club's entries by kind, by actor,
 * or by time). `clubId` undefined: every club's (the operator's command line).
 */
export async function auditOf(db: Kysely<Database>, clubId: string | undefined, filter: AuditFilter, limit: number):
Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').select(['id', 'club_id', 'actor', 'action', 'target', 'target_name', 'fields', 'detail',
    'address', 'created_at'])
  if (clubId !== undefined) query = query.where('club_id', '=', clubId)
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind)
  if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor)
  if (filter.from !== undefined) query = query.where('created_at', '>=', isoForDb(filter.from))
  if (filter.before !== undefined) query = query.where('created_at', '<', isoForDb(filter.before))
  const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute()
  return rows.map((row) => ({ id: row.id, clubId: row.club_id, actor: row.actor, action: row.action, target: row.target,
    targetName: row.target_name, fields: row.fields === null ? null : JSON.parse(row.fields) as string[], detail: row.detail,
    address: row.address, createdAt: isoFromDb(row.created_at) }))
}
