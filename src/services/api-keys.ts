import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import * as keys from '../db/repositories/api-keys.js'
import type { ApiKeyRecord, LimitOverrides } from '../db/repositories/api-keys.js'
import type { ChangeFeed } from '../db/changes.js'
import { KEY_SCOPE } from '../db/migrations/0012-key-change-tracking.js'
import type { Database } from '../db/schema.js'
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../domain/api-key.js'
import { parseDateTime } from '../domain/date-time.js'
import { InvalidApiKey, InvalidRequest, NotFound } from '../domain/errors.js'
import type { InvalidApiKeyReason } from '../domain/errors.js'
import type { Actor } from './audit.js'
import type { Scope } from '../domain/scopes.js'
import { write } from './unit-of-work.js'

export interface CreatedApiKey {
  /** Shown once; only its hash is stored. */
  readonly key: string
  readonly record: ApiKeyRecord
}

export async function createApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { clubId: string, name: string, scopes: readonly Scope[], expiresAt: string | null, limits?: LimitOverrides },
): Promise<CreatedApiKey> {
  const key = generateApiKey()
  const record = await keys.insertApiKey(db, {
    id: randomUUID(),
    clubId: input.clubId,
    name: input.name,
    displayPrefix: displayPrefix(key),
    secretHash: hashApiKey(key),
    scopes: input.scopes,
    expiresAt: input.expiresAt,
    ...(input.limits === undefined ? {} : { limits: input.limits }),
  }, clock.now())
  return { key, record }
}

export interface NewClubKey {
  readonly clubId: string
  readonly name: string
  readonly scopes: readonly Scope[]
  readonly expiresAt: string | null
  readonly limits?: LimitOverrides
  readonly actor: Actor
}

/**
 * Creates a key for a club on behalf of someone (a club admin in the dashboard, or the operator at
 * the command line) and records it in the audit log (name and prefix; never the key).
 */
export async function issueApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: NewClubKey,
): Promise<CreatedApiKey> {
  if (input.name.trim() === '' || input.name.length > 200) throw new InvalidRequest('field', 'name', 'must be 1–200 characters')
  if (input.scopes.length === 0) throw new InvalidRequest('field', 'scopes', 'must name at least one scope')
  if (input.expiresAt !== null && (parseDateTime(input.expiresAt) ?? 0) <= clock.now()) {
    throw new InvalidRequest('field', 'expires_at', 'must be in the future')
  }
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const created = await createApiKey(trx, clock, { ...input, scopes: [...new Set(input.scopes)] })
    await work.audit(input.actor, input.clubId, { action: 'api_key.created', target: created.record.id,
      targetName: `${created.record.name} (${created.record.displayPrefix}…)`, detail: created.record.scopes.join(' ') })
    return created
  })
}

/**
 * Revokes a key, of the given club only when `clubId` is set (the dashboard; the operator may
 * revoke any). Returns the key as it is now and whether this call revoked it.
 */
export async function withdrawApiKey(db: Kysely<Database>, clock: Clock, input: { keyId: string, clubId?: string, actor: Actor }):
Promise<{ record: ApiKeyRecord, revoked: boolean }> {
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const existing = await keys.findApiKeyById(trx, input.keyId)
    if (existing === undefined || (input.clubId !== undefined && existing.clubId !== input.clubId)) {
      throw new NotFound(`No API key with the id ${input.keyId}.`)
    }
    const revoked = await keys.revokeApiKey(trx, input.keyId, clock.now())
    if (revoked) {
      await work.audit(input.actor, existing.clubId, { action: 'api_key.revoked', target: existing.id,
        targetName: `${existing.name} (${existing.displayPrefix}…)` })
    }
    return { record: await keys.findApiKeyById(trx, input.keyId) ?? existing, revoked }
  })
}

/** Who is calling: derived from the key alone. The club can never come from the request. */
export interface Principal {
  readonly keyId: string
  readonly clubId: string
  readonly scopes: ReadonlySet<string>
  readonly limits: LimitOverrides
}

interface CachedKey {
  readonly record: ApiKeyRecord | undefined
  readonly loadedAt: number
  /** The version of the keys' change-tracking scope it was read under (SQLite); undefined: trusted for cacheTtlMs only. */
  readonly version: number | undefined
  lastUsedAt: number | null
  /** Built on first use and shared by the requests within the cache's lifetime (it is read-only). */
  principal?: Principal
}

export interface AuthenticatorOptions {
  /**
   * How long a looked-up key is trusted before it is read again where changes of keys are not read
   * from the database (PostgreSQL): bounds how late a revocation made by another process takes effect.
   */
  readonly cacheTtlMs?: number
  readonly maxCachedKeys?: number
  /** last_used_at is written at most this often per key. */
  readonly touchIntervalMs?: number
  readonly onTouchError?: (error: unknown) => void
}

const BEARER = /^Bearer +(\S+) *$/i

/** Why a looked-up key is refused now, if it is. */
function refusalOf(record: ApiKeyRecord | undefined, now: number): InvalidApiKeyReason | undefined {
  if (record === undefined) return 'unknown'
  if (record.revokedAt !== null) return 'revoked'
  if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now) return 'expired'
  return undefined
}

/**
 * Turns an Authorization header into a Principal. Malformed keys are refused before any look-up.
 *
 * - SQLite: a look-up is trusted while no API key has changed since it was read. Every change of a
 *   key, whichever process makes it, bumps the change-tracking scope `api_keys` (migration 0012),
 *   and the committed counter is read at most once per event-loop turn: a revoked key is refused
 *   from the next request on, and a key in steady use is not read again.
 * - PostgreSQL, whose changes arrive as notifications some time after their commit: a look-up is
 *   trusted for `cacheTtlMs` (1 s), the bound within which a revocation made elsewhere must take
 *   effect on every instance (docs/api.md).
 *
 * A key revoked in this process is refused at once (`invalidate`), and one that expires at its
 * expiry, either way.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedKey>()
  /**
   * The same entries by the Authorization header that named them: a client sends the same header
   * on every request, so the steady state neither parses nor hashes the key again.
   */
  private readonly byHeader = new Map<string, CachedKey>()
  private readonly loading = new Map<string, Promise<CachedKey>>()
  private readonly touches = new Set<Promise<void>>()
  private readonly cacheTtlMs: number
  private readonly maxCachedKeys: number
  private readonly touchIntervalMs: number

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly changes: Pick<ChangeFeed, 'read' | 'version' | 'synchronous'>,
    options: AuthenticatorOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 1_000
    this.maxCachedKeys = options.maxCachedKeys ?? 10_000
    this.touchIntervalMs = options.touchIntervalMs ?? 60_000
    this.onTouchError = options.onTouchError ?? (() => undefined)
  }

  private readonly onTouchError: (error: unknown) => void

  /**
   * Synchronous when the key's look-up is cached (the steady state), so the access check adds no
   * promise hop; a malformed or refused key throws.
   */
  authenticate(authorization: string | undefined): Principal | Promise<Principal> {
    const known = authorization === undefined ? undefined : this.byHeader.get(authorization)
    if (known !== undefined && this.trusted(known)) return this.principalOf(known)
    if (authorization === undefined || authorization.trim() === '') throw new InvalidApiKey('missing')
    const key = BEARER.exec(authorization)?.[1]
    if (key === undefined || !isWellFormedApiKey(key)) throw new InvalidApiKey('malformed')
    const hash = hashApiKey(key)
    const cached = this.cache.get(hash)
    if (cached !== undefined && this.trusted(cached)) {
      this.rememberHeader(authorization, cached)
      return this.principalOf(cached)
    }
    return this.lookUp(hash).then((entry) => {
      this.rememberHeader(authorization, entry)
      return this.principalOf(entry)
    })
  }

  /**
   * The principal of a key looked up within the cache's lifetime and valid now, or undefined when
   * authenticate() has to decide (a key not looked up lately, malformed, unknown, revoked or expired).
   * Never throws and never waits: the answers of src/speed/fast-path.ts start here.
   */
  known(authorization: string | undefined): Principal | undefined {
    const entry = authorization === undefined ? undefined : this.byHeader.get(authorization)
    if (entry === undefined) return undefined
    if (!this.trusted(entry) || refusalOf(entry.record, this.clock.now()) !== undefined) return undefined
    return this.principalOf(entry)
  }

  /** A look-up is trusted while no key has changed since it was read, or for cacheTtlMs when that cannot be told. */
  private trusted(entry: CachedKey): boolean {
    const version = entry.version === undefined ? undefined : this.changes.version(KEY_SCOPE)
    return version === undefined ? this.clock.now() - entry.loadedAt < this.cacheTtlMs : version === entry.version
  }

  private principalOf(entry: CachedKey): Principal {
    const record = entry.record
    const now = this.clock.now()
    const refusal = refusalOf(record, now)
    if (refusal !== undefined || record === undefined) throw new InvalidApiKey(refusal ?? 'unknown')
    this.touch(entry, record.id, now)
    entry.principal ??= { keyId: record.id, clubId: record.clubId, scopes: new Set(record.scopes), limits: record.limits }
    return entry.principal
  }

  /** Forget cached keys, so that a change made in this process applies to the next request. */
  invalidate(): void {
    this.cache.clear()
    this.byHeader.clear()
  }

  /** Waits for pending last_used_at writes. */
  async flush(): Promise<void> {
    await Promise.all([...this.touches])
  }

  private async lookUp(hash: string): Promise<CachedKey> {
    const pending = this.loading.get(hash)
    if (pending !== undefined) return pending
    const read = this.changes.read(this.db, KEY_SCOPE, (db) => keys.findApiKeyByHash(db, hash))
    const load = read.then(({ value: record, version }) => {
      const entry: CachedKey = {
        record,
        loadedAt: this.clock.now(),
        // Trusted by its version only where versions are read from the database itself.
        version: this.changes.synchronous ? version : undefined,
        lastUsedAt: record?.lastUsedAt == null ? null : Date.parse(record.lastUsedAt),
      }
      this.remember(hash, entry)
      return entry
    }).finally(() => this.loading.delete(hash))
    this.loading.set(hash, load)
    return load
  }

  private remember(hash: string, entry: CachedKey): void {
    this.cache.delete(hash)
    if (this.cache.size >= this.maxCachedKeys) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.cache.keys().next()
      if (oldest.done !== true) this.cache.delete(oldest.value)
    }
    this.cache.set(hash, entry)
  }

  private rememberHeader(authorization: string, entry: CachedKey): void {
    if (this.byHeader.size >= this.maxCachedKeys) this.byHeader.clear()
    this.byHeader.set(authorization, entry)
  }

  private touch(entry: CachedKey, keyId: string, now: number): void {
    if (entry.lastUsedAt !== null && now - entry.lastUsedAt < this.touchIntervalMs) return
    entry.lastUsedAt = now
    const write = keys.touchApiKey(this.db, keyId, now).catch(this.onTouchError)
      .finally(() => this.touches.delete(write))
    this.touches.add(write)
  }
}
