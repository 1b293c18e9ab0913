/**
 * Checkpoints of the SQLite database's write-ahead log on a thread beside the event loop. SQLite
 * checkpoints on the connection that commits: once the log holds 1,000 pages, the commit that
 * crossed the mark copies them into the database file and syncs both files, 3–12 ms on the event
 * loop (measured under a stream of bookings: one commit in 56 took that long, and 2.1 s of the 3.5 s
 * spent committing). Every request queued behind it waited as long.
 *
 * With these checkpoints, the server's connection checkpoints itself only past `BACKSTOP_PAGES` (a
 * thread that failed or lags cannot let the log grow without end), and a thread with a connection
 * of its own runs passive checkpoints a short while after writes: they copy what the log holds
 * without taking the write lock, so the event loop never waits for them, and the next write
 * transaction that finds the whole log copied starts it again from its beginning. What is durable
 * when does not change: a commit is in the log (synchronous = NORMAL), and a checkpoint syncs the
 * log before it copies it, on whichever connection runs it.
 *
 * Under a stream of writes the log never finds itself wholly copied between two commits: each
 * checkpoint leaves the pages written while it ran. So once a checkpoint reports a log of
 * `RESTART_PAGES`, the next one holds the connection still (it takes the connection's next turn,
 * ahead of the queries waiting for it): it copies what the one before left, the next write finds
 * the whole log copied and starts it again, and the event loop goes on answering what needs no
 * query meanwhile. Left to the backstop, the same wait fell on the event loop, with the pages of
 * the 20 ms since the last checkpoint to copy and sync: on a database of 1.2 GB the bookings' p99
 * grew 2.4 times from a small one's (docs/performance.md). When the log does not start again (a
 * reader on another connection still reads its pages), the next hold comes 4,096 pages later.
 *
 * The log's file is not cut back on the way (`journal_size_limit`): truncating 64 MiB on a commit
 * took the event loop 10–20 ms. Instead, ten to twenty seconds after the last write, the thread
 * empties the log (a truncating checkpoint) and ends; the next write starts another.
 *
 * One module, both sides: imported, it offers `WalCheckpoints`; started as the thread (with the
 * file in `workerData`), it checkpoints through its own connection (src/db/checkpoint-connection.ts),
 * which loads the driver and nothing else.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { MessagePort, Worker } from 'node:worker_threads'
import { RequestThread } from './request-thread.js'
import type { Reply } from './request-thread.js'
import { openCheckpointConnection } from '../db/checkpoint-connection.js'
import type { CheckpointMode, CheckpointResult } from '../db/checkpoint-connection.js'
import type { Checkpointer, CheckpointerFactory } from '../db/dialect.js'
import type { ConnectionTurns } from '../db/sqlite-turns.js'

/**
 * The server's connection checkpoints itself once the log holds this many pages (64 MiB of 4 KiB
 * pages): a backstop, reached only while the thread cannot keep up or is failing.
 */
export const BACKSTOP_PAGES = 16_384

/** A log of this many pages (16 MiB) is started again: the next checkpoint holds the connection still. */
export const RESTART_PAGES = 4_096

/**
 * A checkpoint runs this long after the first write since the last one began. Under a stream of
 * writes each copies what some milliseconds wrote, so that the backstop's, on the event loop,
 * finds little left to copy (a checkpoint every 200 ms left it 20 ms of copying).
 */
const DELAY_MS = 20

/** The thread ends after this long without a write (checked at this interval). */
const IDLE_RELEASE_MS = 10_000

/** After a thread failed, the next starts no sooner than this. */
const RETRY_AFTER_FAILURE_MS = 10_000

export type { CheckpointResult }

export interface WalCheckpointsOptions {
  /** The thread's code: this module, built (the in-process tests, which run the sources, give its path in dist/). */
  readonly module?: URL
  /** How long after a write the checkpoint runs (default 20 ms; tests give 0). */
  readonly delayMs?: number
}

interface ThreadData { readonly checkpointFile: string }
type CheckpointRequest = { readonly id: number, readonly request: CheckpointMode }

/** A thread's young generation: one statement, no JavaScript to speak of. */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 1 }

/** The checkpoints a connection opened with these options gets (src/db/dialect.ts, `checkpoints`). */
export function walCheckpoints(options: WalCheckpointsOptions = {}): CheckpointerFactory<WalCheckpoints> {
  return { backstopPages: BACKSTOP_PAGES, open: (file, turns) => new WalCheckpoints(file, turns, options) }
}

export class WalCheckpoints implements Checkpointer {
  private thread: CheckpointThread | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<CheckpointResult | undefined> | undefined
  /** A write came since the last checkpoint began. */
  private dirty = false
  /** A write came since the last idle check. */
  private wroteSinceCheck = false
  private closed = false
  /** The next checkpoint holds the connection still. */
  private holdNext = false
  /** The log's size in pages at which a checkpoint asks for the next to hold the connection. */
  private holdAt = RESTART_PAGES
  private readonly module: URL
  private readonly delayMs: number
  private delay: number
  private readonly checks: NodeJS.Timeout
  /**
   * Checkpoints run, pages they copied, those of them that held the connection, and checkpoints
   * that failed (the backstop covers for those).
   */
  readonly counts = { checkpoints: 0, pages: 0, held: 0, failed: 0 }

  constructor(private readonly file: string, private readonly turns: ConnectionTurns, options: WalCheckpointsOptions = {}) {
    this.module = options.module ?? new URL(import.meta.url)
    this.delayMs = options.delayMs ?? DELAY_MS
    this.delay = this.delayMs
    this.checks = setInterval(() => {
      if (!this.wroteSinceCheck && this.running === undefined && this.threadRunning) void this.idle()
      this.wroteSinceCheck = false
    }, IDLE_RELEASE_MS).unref()
  }

  /** Whether a thread runs now. */
  get threadRunning(): boolean {
    return this.thread !== undefined && !this.thread.stopped
  }

  /** The thread running now, if any. */
  get worker(): Worker | undefined {
    return this.threadRunning ? this.thread?.worker : undefined
  }

  /** Whether a checkpoint is due or running. */
  get scheduled(): boolean {
    return this.timer !== undefined || this.running !== undefined
  }

  /** A statement of the server's connection changed rows: a checkpoint follows shortly. */
  wrote(): void {
    this.dirty = true
    this.wroteSinceCheck = true
    if (this.timer === undefined && this.running === undefined && !this.closed) this.schedule()
  }

  /**
   * Runs a checkpoint on the thread now, passive unless told (or joins the one running), and
   * answers what it reported; undefined when it failed. `hold`: while the connection is still.
   */
  checkpoint(mode: CheckpointMode = 'passive', hold = false): Promise<CheckpointResult | undefined> {
    if (this.running !== undefined) return this.running
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    this.dirty = false
    if (this.thread === undefined || this.thread.stopped) this.thread = new CheckpointThread(this.file, this.module)
    const thread = this.thread
    const pass = hold ? this.holding(() => thread.request(mode)) : thread.request(mode)
    const running = pass.then((result) => {
      this.counts.checkpoints++
      this.counts.pages += Math.max(0, result.checkpointed)
      if (hold) this.counts.held++
      this.delay = this.delayMs
      if (result.log < RESTART_PAGES) {
        this.holdAt = RESTART_PAGES
      } else if (result.log >= this.holdAt) {
        this.holdNext = true
        this.holdAt = result.log + RESTART_PAGES
      }
      return result
    }, () => {
      this.counts.failed++
      // A thread that answered with a failure still runs: it ends too, and the next checkpoint starts another.
      this.release()
      this.delay = RETRY_AFTER_FAILURE_MS
      return undefined
    }).finally(() => {
      this.running = undefined
      if (this.closed) return
      if (this.holdNext) {
        // At once: what the held one copies is what was written since this one began.
        this.holdNext = false
        void this.checkpoint('passive', true)
      } else if (this.dirty) {
        // Writes came while it ran: their pages are the next checkpoint's.
        this.schedule()
      }
    })
    this.running = running
    return running
  }

  /**
   * Ten seconds without a write: the log, copied already, is emptied (its file would otherwise keep
   * the size it grew to, up to the backstop's 64 MiB), and the thread ends. A write arriving while
   * the log is emptied waits for it (the connection's busy timeout): a few milliseconds, once.
   */
  async idle(): Promise<CheckpointResult | undefined> {
    // A checkpoint that ends may start the held one after it: the log is emptied once none runs, not by joining that one.
    while (this.isRunning()) await this.running
    const result = await this.checkpoint('truncate')
    if (!this.isRunning() && !this.dirty) this.release()
    return result
  }

  /**
   * Ends the thread and settles once it has ended, its connection closed: whoever closes the
   * database next (a test removing its directory, the process exiting) finds no file of the log
   * still being opened or written.
   */
  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.checks)
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    const thread = this.thread
    this.release()
    await thread?.exited
  }

  /** Whether a checkpoint runs now (a method: it changes across every await). */
  private isRunning(): boolean {
    return this.running !== undefined
  }

  /** Runs `pass` in the connection's next turn, with no statement of this process running. */
  private async holding<T>(pass: () => Promise<T>): Promise<T> {
    await this.turns.takeNext()
    try {
      return await pass()
    } finally {
      this.turns.give()
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.checkpoint()
    }, this.delay)
    this.timer.unref()
  }

  private release(): void {
    this.thread?.close()
    this.thread = undefined
  }
}

class CheckpointThread extends RequestThread<CheckpointMode, CheckpointResult, string> {
  constructor(file: string, module: URL) {
    const data: ThreadData = { checkpointFile: file }
    super({ module, data, resourceLimits: RESOURCE_LIMITS, name: 'the checkpoint thread', failed: (message) => new Error(message) })
  }
}

function serve(port: MessagePort, file: string): void {
  const connection = openCheckpointConnection(file)
  port.on('message', (message: CheckpointRequest | 'close') => {
    if (message === 'close') {
      connection.close()
      port.close()
      return
    }
    let reply: Reply<CheckpointResult, string>
    try {
      reply = { id: message.id, answer: connection.checkpoint(message.request) }
    } catch (error) {
      reply = { id: message.id, failure: error instanceof Error ? error.message : String(error) }
    }
    port.postMessage(reply)
  })
}

const started = workerData as Partial<ThreadData> | null
if (!isMainThread && parentPort !== null && typeof started?.checkpointFile === 'string') serve(parentPort, started.checkpointFile)
