import type { Kysely } from 'kysely'

/** Per-key overrides of the rate limits (a club on a bigger plan); null means the configured default. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('rate_capacity', 'integer').execute()
  await db.schema.alterTable('api_keys').addColumn('rate_per_minute', 'integer').execute()
  await db.schema.alterTable('api_keys').addColumn('daily_quota', 'integer').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['daily_quota', 'rate_per_minute', 'rate_capacity']) {
    await db.schema.alterTable('api_keys').dropColumn(column).execute()
  }
}
