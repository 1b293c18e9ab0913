import type { Kysely, Selectable } from 'kysely'
import type { ApiKeysTable, Database } from '../schema.js'
import { isoForDb, isoFromDbOrNull, isoFromDb } from '../values.js'

export interface ApiKeyRecord {
  readonly id: string
  readonly clubId: string
  readonly name: string
  readonly displayPrefix: string
  readonly scopes: readonly string[]
  readonly expiresAt: string | null
  readonly createdAt: string
  readonly lastUsedAt: string | null
  readonly revokedAt: string | null
  readonly limits: LimitOverrides
}

/** Per-key overrides of the configured rate limits; absent fields take the default. */
export interface LimitOverrides {
  readonly capacity?: number
  readonly perMinute?: number
  readonly dailyQuota?: number
}

export interface NewApiKey {
  readonly id: string
  readonly clubId: string
  readonly name: string
  readonly displayPrefix: string
  readonly secretHash: string
  readonly scopes: readonly string[]
  readonly expiresAt: string | null
  readonly limits?: LimitOverrides
}

const COLUMNS = ['id', 'club_id', 'name', 'display_prefix', 'scopes', 'expires_at', 'created_at', 'last_used_at',
  'revoked_at', 'rate_capacity', 'rate_per_minute', 'daily_quota'] as const

function toRecord(row: Pick<Selectable<ApiKeysTable>, (typeof COLUMNS)[number]>): ApiKeyRecord {
  return {
    id: row.id,
    clubId: row.club_id,
    name: row.name,
    displayPrefix: row.display_prefix,
    scopes: row.scopes.split(' ').filter((scope) => scope !== ''),
    expiresAt: isoFromDbOrNull(row.expires_at),
    createdAt: isoFromDb(row.created_at),
    lastUsedAt: isoFromDbOrNull(row.last_used_at),
    revokedAt: isoFromDbOrNull(row.revoked_at),
    limits: {
      ...(row.rate_capacity === null ? {} : { capacity: row.rate_capacity }),
      ...(row.rate_per_minute === null ? {} : { perMinute: row.rate_per_minute }),
      ...(row.daily_quota === null ? {} : { dailyQuota: row.daily_quota }),
    },
  }
}

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey, now: number): Promise<ApiKeyRecord> {
  const row = await db.insertInto('api_keys').values({
    id: key.id,
    club_id: key.clubId,
    name: key.name,
    display_prefix: key.displayPrefix,
    secret_hash: key.secretHash,
    scopes: key.scopes.join(' '),
    expires_at: key.expiresAt === null ? null : isoForDb(key.expiresAt),
    created_at: isoForDb(now),
    rate_capacity: key.limits?.capacity ?? null,
    rate_per_minute: key.limits?.perMinute ?? null,
    daily_quota: key.limits?.dailyQuota ?? null,
  }).returning(COLUMNS).executeTakeFirstOrThrow()
  return toRecord(row)
}

/** The authentication look-up: by the hash of the presented key, over all clubs. */
export async function findApiKeyByHash(db: Kysely<Database>, secretHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').select(COLUMNS).where('secret_hash', '=', secretHash).executeTakeFirst()
  return row === undefined ? undefined : toRecord(row)
}

export async function listApiKeys(db: Kysely<Database>, clubId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('api_keys').select(COLUMNS).where('club_id', '=', clubId)
    .orderBy('created_at').orderBy('id').execute()
  return rows.map(toRecord)
}

export async function findApiKeyById(db: Kysely<Database>, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst()
  return row === undefined ? undefined : toRecord(row)
}

/** Returns false when the key does not exist or was already revoked. */
export async function revokeApiKey(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: isoForDb(now) })
    .where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Revokes a club's keys of one name that are still active; returns how many. */
export async function revokeApiKeysNamed(db: Kysely<Database>, clubId: string, name: string, now: number): Promise<number> {
  const result = await db.updateTable('api_keys').set({ revoked_at: isoForDb(now) })
    .where('club_id', '=', clubId).where('name', '=', name).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Sets a key's overrides; a field given as null returns to the default. Returns false for an unknown key. */
export async function setKeyLimits(
  db: Kysely<Database>,
  id: string,
  limits: { capacity?: number | null, perMinute?: number | null, dailyQuota?: number | null },
): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({
    ...(limits.capacity === undefined ? {} : { rate_capacity: limits.capacity }),
    ...(limits.perMinute === undefined ? {} : { rate_per_minute: limits.perMinute }),
    ...(limits.dailyQuota === undefined ? {} : { daily_quota: limits.dailyQuota }),
  }).where('id', '=', id).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function touchApiKey(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: isoForDb(now) }).where('id', '=', id).execute()
}
