/**
 * The one way a change reaches the database. `write` runs a change in one transaction and hands it
 * a unit of work, through which the change queues its mails, records its webhook events and audit
 * entries, and names the cached answers it makes stale (`courts:<club id>`, `news:<club id>`, …).
 * The rows it appends (mails, events, audit entries, and what a service adds with `insert`) are
 * written together when the change ends, before the commit: on PostgreSQL one statement for all of
 * them (src/db/insert-batch.ts). Once the transaction has committed, and only then, the unit of work acts on what it collected:
 * it wakes the mail worker when mails were queued, the webhook worker when deliveries were, and
 * marks the changed scopes in this process's change feed so that its next answer is fresh before
 * the database's notification arrives. A change that rolls back leaves nothing to act on.
 *
 * What it acts on belongs to the context that opened the database (`actAfterCommit`): the
 * server's workers and change feed, or nothing at all for a bare database in a test. No route or
 * service wakes a worker or marks the change feed itself.
 */
import type { CompiledQuery, Kysely, Transaction } from 'kysely'
import { recordChange } from '../db/dialect.js'
import { insertTogether } from '../db/insert-batch.js'
import { membershipsOf } from '../db/repositories/admins.js'
import { auditInsert } from '../db/repositories/audit.js'
import { mailInsert } from '../db/repositories/outbox.js'
import type { NewMail } from '../db/repositories/outbox.js'
import type { Database } from '../db/schema.js'
import { eventInserts } from '../webhooks/events.js'
import type { NewEvent, Subscribers } from '../webhooks/events.js'
import type { Actor, AuditRecord } from './audit.js'

/** What a committed unit of work changed, for the context to act on. */
export interface Committed {
  /** Mails queued in the outbox. */
  readonly mails: number
  /** Webhook deliveries queued. */
  readonly deliveries: number
  /** Audit entries written. */
  readonly audits: number
  /** The cache scopes whose data changed. */
  readonly scopes: ReadonlySet<string>
}

/** What a committed unit of work acts on: the context's workers and its change feed. */
export interface CommitTargets {
  readonly mail: { wake(): void }
  readonly webhooks: { wake(): void }
  readonly changes: { changedHere(scope: string): void }
}

const targetsOf = new WeakMap<Kysely<Database>, CommitTargets>()

/** Names what every commit of a unit of work on `db` acts on (the context, once, when it opens the database). */
export function actAfterCommit(db: Kysely<Database>, targets: CommitTargets): void {
  targetsOf.set(db, targets)
}

/** After commit: the workers look at once for what the change queued; this process's caches see its changes. */
function acted(targets: CommitTargets | undefined, committed: Committed): void {
  if (targets === undefined) return
  if (committed.mails > 0) targets.mail.wake()
  if (committed.deliveries > 0) targets.webhooks.wake()
  for (const scope of committed.scopes) targets.changes.changedHere(scope)
}

export class UnitOfWork implements Committed {
  mails = 0
  deliveries = 0
  audits = 0
  readonly scopes = new Set<string>()
  /** The rows the change appends, written together at its end (src/db/insert-batch.ts). */
  private readonly inserts: CompiledQuery[] = []

  /** `db`: the transaction; `now`: the instant the change happens at, as every row it writes records it. */
  constructor(readonly db: Transaction<Database>, readonly now: number) {}

  /**
   * Appends a row with the change's other inserts, written when the change ends (before its commit)
   * or at `flush`: a row nothing in the change reads back, in the order the inserts were made.
   */
  insert(query: CompiledQuery): void {
    this.inserts.push(query)
  }

  /** Writes the inserts collected so far: before a statement of the change that must see them. */
  async flush(): Promise<void> {
    if (this.inserts.length === 0) return
    await insertTogether(this.db, this.inserts.splice(0))
  }

  /** Queues a mail in the outbox; returns its id. */
  mail(mail: NewMail, from: string): Promise<string> {
    const { id, query } = mailInsert(this.db, mail, from, this.now)
    this.insert(query)
    this.mails += 1
    return Promise.resolve(id)
  }

  /**
   * Records webhook events of the club; returns how many deliveries were queued. `endpoints`: the
   * club's, if the change read them with its other reads, or read here.
   */
  async events(clubId: string, events: readonly NewEvent[], endpoints?: Subscribers): Promise<number> {
    const rows = await eventInserts(this.db, this.now, clubId, events, endpoints)
    for (const insert of rows.inserts) this.insert(insert)
    this.deliveries += rows.deliveries
    return rows.deliveries
  }

  /** Counts deliveries the change queued itself rather than through events (a test event, a replay). */
  queuedDeliveries(count: number): void {
    this.deliveries += count
  }

  /** Records an action in a club's audit log (`clubId` null: in no club's). */
  audit(actor: Actor, clubId: string | null, record: AuditRecord): Promise<void> {
    this.insert(auditInsert(this.db, { clubId, actorAdminId: actor.adminId, actor: actor.label, action: record.action,
      target: record.target ?? null, targetName: record.targetName ?? null,
      fields: record.fields === undefined || record.fields === null ? null : [...record.fields], detail: record.detail ?? null,
      address: actor.address }, this.now))
    this.audits += 1
    return Promise.resolve()
  }

  /** Records a person's own action in the log of every club they administer (in no club's when they administer none). */
  async auditPerson(actor: Actor & { adminId: string }, record: AuditRecord): Promise<void> {
    const clubs = await membershipsOf(this.db, actor.adminId)
    if (clubs.length === 0) await this.audit(actor, null, record)
    for (const club of clubs) await this.audit(actor, club.clubId, record)
  }

  /** Names a cache scope whose data this change alters (`courts:<club id>`). */
  changed(scope: string): void {
    this.scopes.add(scope)
  }

  /**
   * Names a scope whose data this change alters where the migrations' triggers do not see it (a
   * club's setting or waiting list that a listing shows): recorded in the transaction for every
   * process (src/db/dialect.ts, recordChange), and marked here as `changed` marks it.
   */
  async changedUntracked(scope: string): Promise<void> {
    await recordChange(this.db, scope)
    this.changed(scope)
  }
}

/**
 * Runs `change` in one transaction of `db` at the instant `now`; after it commits, the context acts
 * on what the unit of work collected. Returns what `change` returned.
 */
export async function write<T>(db: Kysely<Database>, now: number, change: (work: UnitOfWork) => Promise<T>): Promise<T> {
  let work: UnitOfWork | undefined
  const result = await db.transaction().execute(async (trx) => {
    const unit = new UnitOfWork(trx, now)
    work = unit
    const value = await change(unit)
    await unit.flush()
    return value
  })
  if (work !== undefined) acted(targetsOf.get(db), work)
  return result
}
