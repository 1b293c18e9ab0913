/** keys: API keys, created (shown once), listed, limited and revoked. */
import type { Command } from 'commander'
import type { Clock } from '../../clock.js'
import { findApiKeyById, listApiKeys, setKeyLimits } from '../../db/repositories/api-keys.js'
import type { ApiKeyRecord, LimitOverrides } from '../../db/repositories/api-keys.js'
import { keyStatus } from '../../domain/api-key.js'
import { InvalidInput } from '../../domain/errors.js'
import { parseScopes } from '../../domain/scopes.js'
import { issueApiKey, withdrawApiKey } from '../../services/api-keys.js'
import { OPERATOR } from '../../services/audit.js'
import { requireClub } from '../../services/clubs.js'
import { futureInstantOption, idArgument, textOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** keys create, list, limits and revoke. */
export function registerKeys(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const keys = program.command('keys').description('create, list and revoke API keys')
  keys.command('create').description('create an API key; the key is printed once and cannot be shown again')
    .requiredOption('--club <slug>', 'the club whose data the key reads')
    .requiredOption('--scopes <scopes>', 'comma-separated, e.g. read:groups,read:events')
    .requiredOption('--name <name>', 'what the key is for, e.g. "club website"')
    .option('--expires-at <iso>', 'expiry, RFC 3339 with an offset, e.g. 2027-01-01T00:00:00Z')
    .option('--capacity <n>', 'this key\'s burst (token bucket capacity) instead of RATE_LIMIT_CAPACITY')
    .option('--per-minute <n>', 'this key\'s refill per minute instead of RATE_LIMIT_PER_MINUTE')
    .option('--daily-quota <n>', 'this key\'s requests per UTC day instead of DAILY_QUOTA')
    .addOption(jsonOption())
    .action(async (options: KeyCreateOptions) => {
      const parsed = parseScopes(options.scopes)
      if ('error' in parsed) throw new InvalidInput(`--scopes: ${parsed.error}`)
      const name = textOption('--name', options.name, 200)
      const expiresAt = options.expiresAt === undefined ? null : futureInstantOption('--expires-at', options.expiresAt, clock)
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const limits = limitOptions(options)
      const { key, record } = await issueApiKey(ctx.db, clock, {
        clubId: club.id, name, scopes: parsed.scopes, expiresAt, actor: OPERATOR,
        limits: { ...(limits.capacity == null ? {} : { capacity: limits.capacity }),
          ...(limits.perMinute == null ? {} : { perMinute: limits.perMinute }),
          ...(limits.dailyQuota == null ? {} : { dailyQuota: limits.dailyQuota }) },
      })
      print(options.json === true, { ...keyJson(record), key },
        `Created API key ${record.id} for ${club.slug} (${record.scopes.join(', ')}).\n`
        + 'Store it server-side now (e.g. in an environment variable); it cannot be shown again:\n\n'
        + `  ${key}\n`)
    })
  keys.command('list').description('list the API keys of a club (never the keys themselves)')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const records = await listApiKeys(ctx.db, club.id)
      print(options.json === true, records.map(keyJson), records.length === 0
        ? `No API keys for ${club.slug}.`
        : table(['id', 'name', 'key', 'scopes', 'status', 'limits', 'created', 'last used'], records.map((record) => [
            record.id, record.name, `${record.displayPrefix}…`, record.scopes.join(','), describeStatus(record, clock),
            describeLimits(record.limits), record.createdAt, record.lastUsedAt ?? 'never',
          ])))
    })
  keys.command('limits').description('change a key\'s own rate limits ("default" returns to the configured value); '
    + 'running servers apply it within one second')
    .argument('<key-id>', 'the id shown by keys list')
    .option('--capacity <n|default>', 'burst (token bucket capacity)')
    .option('--per-minute <n|default>', 'refill per minute')
    .option('--daily-quota <n|default>', 'requests per UTC day')
    .addOption(jsonOption())
    .action(async (keyId: string, options: LimitOptions & { json?: boolean }) => {
      const id = idArgument(keyId, 'key', 'keys list')
      const limits = limitOptions(options)
      if (Object.keys(limits).length === 0) throw new InvalidInput('give at least one of --capacity, --per-minute, --daily-quota')
      const ctx = await migrated()
      if (!await setKeyLimits(ctx.db, id, limits)) throw new InvalidInput(`no API key with the id ${id}`)
      const record = await findApiKeyById(ctx.db, id)
      print(options.json === true, record === undefined ? {} : keyJson(record), `Limits of ${id}: ${describeLimits(record?.limits ?? {})}.`)
    })
  keys.command('revoke').description('revoke an API key; it stops working within one second')
    .argument('<key-id>', 'the id shown by keys list')
    .addOption(jsonOption())
    .action(async (keyId: string, options: { json?: boolean }) => {
      const id = idArgument(keyId, 'key', 'keys list')
      const ctx = await migrated()
      const existing = await findApiKeyById(ctx.db, id)
      if (existing === undefined) throw new InvalidInput(`no API key with the id ${id}`)
      const { record, revoked } = await withdrawApiKey(ctx.db, clock, { keyId: id, actor: OPERATOR })
      print(options.json === true, { ...keyJson(record), already_revoked: !revoked },
        revoked ? `Revoked API key ${id}.` : `API key ${id} was already revoked (${record.revokedAt ?? ''}).`)
    })
}

function describeStatus(record: ApiKeyRecord, clock: Clock): string {
  const status = keyStatus(record, clock.now())
  return status === 'active' && record.expiresAt !== null ? `active until ${record.expiresAt}` : status
}

interface LimitOptions {
  capacity?: string
  perMinute?: string
  dailyQuota?: string
}

interface KeyCreateOptions extends LimitOptions {
  club: string
  scopes: string
  name: string
  expiresAt?: string
  json?: boolean
}

/** --capacity/--per-minute/--daily-quota: a positive integer, or "default" (null: back to the configured value). */
type LimitChanges = { capacity?: number | null, perMinute?: number | null, dailyQuota?: number | null }

function limitOptions(options: LimitOptions): LimitChanges {
  const parse = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined
    if (value === 'default') return null
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new InvalidInput(`${flag}: "${value}" is not a positive whole number or "default"`)
    return Number(value)
  }
  const capacity = parse('--capacity', options.capacity)
  const perMinute = parse('--per-minute', options.perMinute)
  const dailyQuota = parse('--daily-quota', options.dailyQuota)
  return {
    ...(capacity === undefined ? {} : { capacity }),
    ...(perMinute === undefined ? {} : { perMinute }),
    ...(dailyQuota === undefined ? {} : { dailyQuota }),
  }
}

function describeLimits(limits: LimitOverrides): string {
  const parts = [
    limits.capacity === undefined ? undefined : `burst ${String(limits.capacity)}`,
    limits.perMinute === undefined ? undefined : `${String(limits.perMinute)}/min`,
    limits.dailyQuota === undefined ? undefined : `${String(limits.dailyQuota)}/day`,
  ].filter((part) => part !== undefined)
  return parts.length === 0 ? 'default' : parts.join(', ')
}

function keyJson(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    prefix: record.displayPrefix,
    scopes: record.scopes,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    revoked_at: record.revokedAt,
    limits: {
      ...(record.limits.capacity === undefined ? {} : { capacity: record.limits.capacity }),
      ...(record.limits.perMinute === undefined ? {} : { per_minute: record.limits.perMinute }),
      ...(record.limits.dailyQuota === undefined ? {} : { daily_quota: record.limits.dailyQuota }),
    },
  }
}
