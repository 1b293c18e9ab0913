import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * Outbound webhooks (docs/webhooks.md).
 *
 * - webhook_endpoints: a club's receivers: URL, the event types each receives (a JSON array),
 *   enabled or not (and why not: `gone` after a 410, `failing` after days without success), the
 *   signing secret and, during a rotation's overlap, the previous one until `previous_secret_until`.
 *   Secrets are stored as they are: signing needs them.
 * - webhook_messages: one per event, written in the transaction of the change it reports; `id` is
 *   the `webhook-id` every delivery and retry of it carries, `payload` the exact body sent.
 *   `subject_id` names the record (a scheduled news item's publication is withdrawn through it).
 * - webhook_deliveries: one per message and endpoint (and one more per replay or test), the
 *   worker's queue and the endpoint's delivery log: status, attempts, the last attempt's answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema.createTable('webhook_endpoints')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('event_types', 'text', (col) => col.notNull())
    .addColumn('enabled', t.bool, (col) => col.notNull())
    .addColumn('disabled_reason', 'text', (col) => col.check(sql`disabled_reason in ('gone', 'failing')`))
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', t.timestamp)
    .addColumn('failing_since', t.timestamp)
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('updated_at', t.timestamp, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('webhook_endpoints_club_idx').on('webhook_endpoints').column('club_id').execute()

  await db.schema.createTable('webhook_messages')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('webhook_messages_subject_idx').on('webhook_messages').columns(['club_id', 'subject_id']).execute()

  await db.schema.createTable('webhook_deliveries')
    .addColumn('id', t.uuid, (col) => col.primaryKey())
    .addColumn('message_id', 'text', (col) => col.notNull().references('webhook_messages.id').onDelete('cascade'))
    .addColumn('endpoint_id', t.uuid, (col) => col.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('club_id', t.uuid, (col) => col.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (col) => col.notNull().check(sql`trigger in ('event', 'test', 'replay')`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('pending', 'sending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('next_attempt_at', t.timestamp, (col) => col.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('last_attempt_at', t.timestamp)
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (col) => col.notNull())
    .addColumn('finished_at', t.timestamp)
    .execute()
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute()
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at'])
    .execute()
  await db.schema.createIndex('webhook_deliveries_attempted_idx').on('webhook_deliveries').column('last_attempt_at')
    .execute()
  await db.schema.createIndex('webhook_deliveries_message_idx').on('webhook_deliveries').column('message_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_messages', 'webhook_endpoints']) await db.schema.dropTable(table).execute()
}
