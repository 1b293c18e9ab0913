import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

/** Answers when the database does (/readyz); throws when it cannot be reached. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db)
}
