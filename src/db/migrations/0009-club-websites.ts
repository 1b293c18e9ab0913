import type { Kysely } from 'kysely'

/*
 * clubs.website_origins: the club's own websites (a JSON array of origins such as
 * "https://www.tc-riverside.example"), the only pages that may frame the club's hosted booking
 * page /book/{club} (its Content-Security-Policy's frame-ancestors). Empty: no page may frame it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clubs').addColumn('website_origins', 'text', (col) => col.notNull().defaultTo('[]')).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clubs').dropColumn('website_origins').execute()
}
