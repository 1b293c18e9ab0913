/**
 * The periodic jobs' leases and last runs (job_runs). A process runs a job only while it holds the
 * job's lease: taken when it is free or expired, renewed between batches, given back at the end;
 * a process that dies leaves a lease that expires, and the next process's run takes it over.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDbOrNull } from '../values.js'

export interface JobRun {
  readonly lastStartedAt: number | null
  readonly lastFinishedAt: number | null
  readonly lastDurationMs: number | null
  readonly lastRows: number | null
}

/** The job's last run, as recorded; nothing before its first. */
export async function lastJobRun(db: Kysely<Database>, name: string): Promise<JobRun> {
  const row = await db.selectFrom('job_runs').select(['last_started_at', 'last_finished_at', 'last_duration_ms', 'last_rows'])
    .where('name', '=', name).executeTakeFirst()
  const at = (value: Date | string | null | undefined) => {
    const iso = isoFromDbOrNull(value ?? null)
    return iso === null ? null : Date.parse(iso)
  }
  return { lastStartedAt: at(row?.last_started_at), lastFinishedAt: at(row?.last_finished_at),
    lastDurationMs: row?.last_duration_ms ?? null, lastRows: row?.last_rows ?? null }
}

/**
 * Takes the job's lease for `holder` until `until` if it is free, expired or already `holder`'s, and
 * (unless `finishedBefore` is null) the last run finished before `finishedBefore` or never; true when taken.
 */
export async function takeJobLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: number,
  until: number,
  finishedBefore: number | null,
): Promise<boolean> {
  await db.insertInto('job_runs').values({ name }).onConflict((conflict) => conflict.column('name').doNothing()).execute()
  let update = db.updateTable('job_runs').set({ holder, lease_until: isoForDb(until), last_started_at: isoForDb(now) })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', isoForDb(now)), eb('holder', '=', holder)]))
  if (finishedBefore !== null) {
    update = update.where((eb) => eb.or([eb('last_finished_at', 'is', null), eb('last_finished_at', '<', isoForDb(finishedBefore))]))
  }
  const result = await update.executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Extends `holder`'s lease to `until`; false when it is no longer theirs (it expired and another process took it). */
export async function renewJobLease(db: Kysely<Database>, name: string, holder: string, until: number): Promise<boolean> {
  const result = await db.updateTable('job_runs').set({ lease_until: isoForDb(until) })
    .where('name', '=', name).where('holder', '=', holder).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Gives the lease back, and records the run: a finished run (`complete`) is what the next run's time counts from. */
export async function endJobRun(
  db: Kysely<Database>,
  name: string,
  holder: string,
  run: { readonly now: number, readonly durationMs: number, readonly rows: number, readonly complete: boolean },
): Promise<void> {
  await db.updateTable('job_runs')
    .set({ holder: null, lease_until: null, last_duration_ms: run.durationMs, last_rows: run.rows,
      ...(run.complete ? { last_finished_at: isoForDb(run.now) } : {}) })
    .where('name', '=', name).where('holder', '=', holder).execute()
}
