/**
 * The dashboard's access check reads two things on every request: the session of the cookie and
 * the person's membership in the club of the path (src/http/dashboard-access.ts). Both are kept in
 * the process while nothing of them has changed, as API keys are (src/services/api-keys.ts):
 *
 * - SQLite: a look-up is trusted while the scope `dashboard_access` is unchanged. Every sign-out,
 *   revocation, role change or removal from a club bumps it, whichever process makes it (the
 *   triggers of migration 0019), and the committed counter is read at most once per event-loop
 *   turn: a session ended anywhere is refused from the next request on.
 * - PostgreSQL, whose changes arrive as notifications some time after their commit: a look-up is
 *   trusted while no notification of the scope has arrived and for at most `ttlMs` (1 s), the
 *   bound within which a change made by another process takes effect on every instance
 *   (docs/dashboard.md, "Security"). A change made in this process applies at once: its unit of
 *   work names the scope (src/services/unit-of-work.ts).
 *
 * A membership also depends on its club (slug, name, time zone): it is trusted while the `clubs`
 * scope is unchanged too. A session is checked against its maximum age and idle limit on every
 * use; one whose last_seen_at is due to be written (once a minute) is not `known`, so that the
 * request that writes it goes through `session`. Nothing refused is remembered: an unknown or
 * ended session and a missing membership are read again each time, as before.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { ACCESS_SCOPE } from '../db/change-scopes.js'
import type { ChangeFeed } from '../db/changes.js'
import * as admins from '../db/repositories/admins.js'
import type { Membership, SessionRecord } from '../db/repositories/admins.js'
import type { Database } from '../db/schema.js'
import { hashToken, isWellFormedToken } from '../domain/secret-token.js'

/** last_seen_at is written at most this often per session. */
export const TOUCH_INTERVAL_MS = 60_000

export interface DashboardSessionOptions {
  /** How long a look-up is trusted where changes arrive late (PostgreSQL); see above. */
  readonly ttlMs?: number
  /** Sessions, and memberships, kept at most; the oldest go first. */
  readonly maxEntries?: number
}

interface Trust {
  /** The scope's version the look-up was read under. */
  readonly version: number
  /** Clock time of the read. */
  readonly loadedAt: number
}

interface CachedSession extends Trust {
  readonly record: SessionRecord
  readonly expiresAt: number
  /** last_seen_at as this process last read or wrote it. */
  lastSeen: number
}

interface CachedMembership extends Trust {
  readonly membership: Membership
  /** The `clubs` scope's version when it was read. */
  readonly clubsVersion: number
}

type Changes = Pick<ChangeFeed, 'read' | 'version' | 'synchronous'>

export class DashboardSessions {
  /** By the cookie's token, as a browser sends it on every request: the steady state hashes nothing. */
  private readonly sessions = new Map<string, CachedSession>()
  /** By person and club slug. */
  private readonly memberships = new Map<string, CachedMembership>()
  private readonly ttlMs: number
  private readonly maxEntries: number

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly changes: Changes,
    private readonly idleMs: number,
    options: DashboardSessionOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 1_000
    this.maxEntries = options.maxEntries ?? 10_000
  }

  /**
   * The live session of a token when it is known, unchanged, within its limits and not due a write
   * of last_seen_at; undefined when `session` has to decide. Never reads and never waits.
   */
  knownSession(token: string): SessionRecord | undefined {
    const entry = this.sessions.get(token)
    if (entry === undefined || !this.trusted(entry)) return undefined
    const now = this.clock.now()
    return now < entry.expiresAt && now - entry.lastSeen < Math.min(this.idleMs, TOUCH_INTERVAL_MS) ? entry.record : undefined
  }

  /**
   * The live session of a token: not revoked, within its maximum age, used within the idle limit.
   * Writes last_seen_at when it is a minute old.
   */
  async session(token: string): Promise<SessionRecord | undefined> {
    const known = this.knownSession(token)
    if (known !== undefined) return known
    if (!isWellFormedToken('session', token)) return undefined
    const now = this.clock.now()
    let entry = this.sessions.get(token)
    // A session this process saw idle may have been used through another since: it is read again.
    if (entry === undefined || !this.trusted(entry) || now >= entry.expiresAt || now - entry.lastSeen >= this.idleMs) {
      this.sessions.delete(token)
      entry = await this.readSession(token, now)
      if (entry === undefined) return undefined
    }
    if (now - entry.lastSeen >= this.idleMs) return undefined
    if (now - entry.lastSeen >= TOUCH_INTERVAL_MS) {
      await admins.touchSession(this.db, entry.record.id, now)
      entry.lastSeen = now
    }
    return entry.record
  }

  /** The person's membership in the club of a slug when it is known and unchanged; never reads. */
  knownMembership(adminId: string, slug: string): Membership | undefined {
    const entry = this.memberships.get(membershipKey(adminId, slug))
    return entry !== undefined && this.trusted(entry) && entry.clubsVersion === this.changes.version('clubs')
      ? entry.membership
      : undefined
  }

  /** The person's membership in the club of a slug, if they have one. */
  async membership(adminId: string, slug: string): Promise<Membership | undefined> {
    const known = this.knownMembership(adminId, slug)
    if (known !== undefined) return known
    const key = membershipKey(adminId, slug)
    this.memberships.delete(key)
    const clubsVersion = this.changes.version('clubs')
    const now = this.clock.now()
    const { value: membership, version } = await this.changes.read(this.db, ACCESS_SCOPE,
      (db) => admins.membershipBySlug(db, adminId, slug))
    if (membership !== undefined && version !== undefined && clubsVersion !== undefined
      && clubsVersion === this.changes.version('clubs')) {
      remember(this.memberships, key, { membership, version, clubsVersion, loadedAt: now }, this.maxEntries)
    }
    return membership
  }

  private async readSession(token: string, now: number): Promise<CachedSession | undefined> {
    const { value: record, version } = await this.changes.read(this.db, ACCESS_SCOPE,
      (db) => admins.findLiveSession(db, hashToken(token), now))
    if (record === undefined) return undefined
    const entry: CachedSession = { record, version: version ?? Number.NaN, loadedAt: now,
      expiresAt: Date.parse(record.expiresAt), lastSeen: Date.parse(record.lastSeenAt) }
    if (version !== undefined) remember(this.sessions, token, entry, this.maxEntries)
    return entry
  }

  /** A look-up is trusted while its scope is unchanged, and where changes arrive late, for ttlMs at most. */
  private trusted(entry: Trust): boolean {
    if (entry.version !== this.changes.version(ACCESS_SCOPE)) return false
    return this.changes.synchronous || this.clock.now() - entry.loadedAt < this.ttlMs
  }
}

function membershipKey(adminId: string, slug: string): string {
  return `${adminId} ${slug}`
}

function remember<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  if (map.size >= max) {
    // Oldest first: a Map iterates in insertion order.
    const oldest = map.keys().next()
    if (oldest.done !== true) map.delete(oldest.value)
  }
  map.set(key, value)
}
