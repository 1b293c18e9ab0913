import type { Kysely } from 'kysely'
import { columnTypes, dialectOf } from '../dialect.js'

/*
 * job_runs: the periodic jobs' (retention) one row each. Its lease says which process runs the job
 * now, so that one run goes at a time across every process and host; when the last run started and
 * finished, how long it took and what it did, so that a restart waits for the next run's time
 * rather than starting a full pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema.createTable('job_runs')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', t.timestamp)
    .addColumn('last_started_at', t.timestamp)
    .addColumn('last_finished_at', t.timestamp)
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_rows', 'integer')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_runs').execute()
}
