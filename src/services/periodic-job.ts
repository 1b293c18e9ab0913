/**
 * A job the server runs every so often in the background (retention): one run at a time across
 * every process and host, under a lease in the database (src/db/repositories/jobs.ts), renewed
 * between batches; its next time counted from the last finished run of any process, as recorded,
 * so that a restart, or a second process, does not start another pass; stopped between two batches
 * when the server stops, what is left being the next run's backlog.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { endJobRun, lastJobRun, renewJobLease, takeJobLease } from '../db/repositories/jobs.js'
import type { Database } from '../db/schema.js'

/** What one run did. */
export interface JobOutcome<Detail extends object = object> {
  readonly rows: number
  /** False when it was stopped before its work was done. */
  readonly complete: boolean
  /** For the log line (and the command line's report). */
  readonly detail: Detail
}

export interface JobSpec<Detail extends object = object> {
  readonly name: string
  readonly intervalMs: number
  /** How long a lease lasts unless renewed: longer than any one batch takes. */
  readonly leaseMs: number
  /** One run. `beforeBatch` renews the lease and says whether to go on (false: stopped, or the lease was lost). */
  run(signal: AbortSignal, beforeBatch: () => Promise<boolean>): Promise<JobOutcome<Detail>>
}

/** How a run went (one that fails throws), and what it did when it ran. */
export interface JobRun<Detail extends object = object> {
  readonly outcome: Exclude<RunOutcome, 'failed'>
  readonly detail: Detail | undefined
}

/** Where the job reports its runs, or why one failed. */
export interface JobLog {
  info(details: object, message: string): void
  error(details: object, message: string): void
}

/** The job's figures for /metrics: runs of this process by outcome, and the last run of any process. */
export interface JobFigures {
  readonly runs: Readonly<Record<RunOutcome, number>>
  readonly lastDurationMs: number | null
  readonly lastRows: number | null
  readonly lastFinishedAt: number | null
}

/** complete; stopped before its work was done; failed; skipped (another process's run was under way or had just finished). */
export type RunOutcome = 'complete' | 'stopped' | 'failed' | 'skipped'

/** How soon a process looks again after it found another's run under way, or a run failed. */
const RETRY_MS = 60_000

export class PeriodicJob<Detail extends object = object> {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> = Promise.resolve()
  private abort = new AbortController()
  private started = false
  private log: JobLog | undefined
  private readonly holder = randomUUID()
  private readonly counts: Record<RunOutcome, number> = { complete: 0, stopped: 0, failed: 0, skipped: 0 }
  private last: { durationMs: number | null, rows: number | null, finishedAt: number | null }
    = { durationMs: null, rows: null, finishedAt: null }

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly spec: JobSpec<Detail>,
  ) {}

  reportTo(log: JobLog): void {
    this.log = log
  }

  get figures(): JobFigures {
    return { runs: { ...this.counts }, lastDurationMs: this.last.durationMs, lastRows: this.last.rows,
      lastFinishedAt: this.last.finishedAt }
  }

  /** Schedules the runs: the first when the interval since the last finished run (any process's) is over. */
  start(): void {
    if (this.started) return
    this.started = true
    this.abort = new AbortController()
    this.planNext(0)
  }

  /** Stops scheduling; a run under way stops before its next batch. Resolves when it has. */
  async stop(): Promise<void> {
    this.started = false
    clearTimeout(this.timer)
    this.timer = undefined
    this.abort.abort()
    await this.running
  }

  /**
   * One run now, unless another process's run is under way (it holds the lease) or, with
   * `whenDue`, another process finished one less than the interval ago. Says how it went.
   */
  async runOnce(whenDue = false): Promise<RunOutcome> {
    return (await this.run(whenDue)).outcome
  }

  /**
   * One run now unless another process's is under way (the command line's way), with what it did;
   * `stop` ends it between two batches.
   */
  runNow(): Promise<JobRun<Detail>> {
    return this.run(false)
  }

  private async run(whenDue: boolean): Promise<JobRun<Detail>> {
    const { name, leaseMs, intervalMs } = this.spec
    const startedAt = this.clock.now()
    const finishedBefore = whenDue ? startedAt - intervalMs : null
    if (!await takeJobLease(this.db, name, this.holder, startedAt, startedAt + leaseMs, finishedBefore)) {
      this.counts.skipped += 1
      return { outcome: 'skipped', detail: undefined }
    }
    let outcome: JobOutcome<Detail> | undefined
    try {
      const { signal } = this.abort
      outcome = await this.spec.run(signal, async () => !signal.aborted
        && await renewJobLease(this.db, name, this.holder, this.clock.now() + leaseMs))
    } finally {
      const now = this.clock.now()
      const durationMs = now - startedAt
      const rows = outcome?.rows ?? 0
      const complete = outcome?.complete ?? false
      await endJobRun(this.db, name, this.holder, { now, durationMs, rows, complete })
      this.last = { durationMs, rows, finishedAt: complete ? now : this.last.finishedAt }
      if (outcome !== undefined) {
        this.counts[outcomeOf(outcome)] += 1
        this.log?.info({ job: name, durationMs, rows, complete, ...outcome.detail },
          complete ? `${name} run finished` : `${name} run stopped before its work was done; the next run goes on`)
      }
    }
    return { outcome: outcome.complete ? 'complete' : 'stopped', detail: outcome.detail }
  }

  /** Schedules the next run at its time (the interval after the last finished run), but no sooner than `atLeastMs`. */
  private planNext(atLeastMs: number): void {
    if (!this.started) return
    this.running = lastJobRun(this.db, this.spec.name).then((last) => {
      this.last = { durationMs: last.lastDurationMs, rows: last.lastRows, finishedAt: last.lastFinishedAt }
      const due = last.lastFinishedAt === null ? 0 : last.lastFinishedAt + this.spec.intervalMs - this.clock.now()
      this.schedule(Math.max(atLeastMs, due))
    }, (error: unknown) => {
      this.failed(error)
      this.schedule(Math.min(RETRY_MS, this.spec.intervalMs))
    })
  }

  private schedule(delayMs: number): void {
    if (!this.started) return
    this.timer = setTimeout(() => {
      this.running = this.runOnce(true).then((outcome) => {
        // Another process's run under way: look again in a while (its end sets the next time); otherwise at the next time.
        this.planNext(outcome === 'skipped' ? Math.min(RETRY_MS, this.spec.intervalMs) : 0)
      }, (error: unknown) => {
        this.failed(error)
        this.planNext(Math.min(RETRY_MS, this.spec.intervalMs))
      })
    }, delayMs)
    this.timer.unref()
  }

  private failed(error: unknown): void {
    this.counts.failed += 1
    // The next run tries again; nothing is lost by waiting.
    this.log?.error({ job: this.spec.name, error: error instanceof Error ? error.message : String(error) }, `${this.spec.name} run failed`)
  }
}

/** How a run went, from what it answered (none: it threw). */
function outcomeOf(outcome: JobOutcome | undefined): RunOutcome {
  return outcome === undefined ? 'failed' : outcome.complete ? 'complete' : 'stopped'
}
