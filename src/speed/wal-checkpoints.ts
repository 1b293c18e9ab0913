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
 * Under a stream of writes the log rarely finds itself wholly copied between two commits, so it
 * grows to the backstop, whose checkpoint then has only the last milliseconds' pages to copy. Its
 * file is not cut back on the way (`journal_size_limit`): truncating 64 MiB on a commit took the
 * event loop 10–20 ms. Instead, ten to twenty seconds after the last write, the thread empties
 * the log (a truncating checkpoint) and ends; the next write starts another.
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

/**
 * The server's connection checkpoints itself once the log holds this many pages (64 MiB of 4 KiB
 * pages): a backstop, reached only while the thread cannot keep up or is failing.
 */
export const BACKSTOP_PAGES = 16_384

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

export class WalCheckpoints {
  private thread: CheckpointThread | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<CheckpointResult | undefined> | undefined
  /** A write came since the last checkpoint began. */
  private dirty = false
  /** A write came since the last idle check. */
  private wroteSinceCheck = false
  private closed = false
  private readonly module: URL
  private readonly delayMs: number
  private delay: number
  private readonly checks: NodeJS.Timeout
  /** Checkpoints run, pages they copied, and checkpoints that failed (the backstop covers for those). */
  readonly counts = { checkpoints: 0, pages: 0, failed: 0 }

  constructor(private readonly file: string, options: WalCheckpointsOptions = {}) {
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
   * answers what it reported; undefined when it failed.
   */
  checkpoint(mode: CheckpointMode = 'passive'): Promise<CheckpointResult | undefined> {
    if (this.running !== undefined) return this.running
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    this.dirty = false
    if (this.thread === undefined || this.thread.stopped) this.thread = new CheckpointThread(this.file, this.module)
    const running = this.thread.request(mode).then((result) => {
      this.counts.checkpoints++
      this.counts.pages += Math.max(0, result.checkpointed)
      this.delay = this.delayMs
      return result
    }, () => {
      this.counts.failed++
      // A thread that answered with a failure still runs: it ends too, and the next checkpoint starts another.
      this.release()
      this.delay = RETRY_AFTER_FAILURE_MS
      return undefined
    }).finally(() => {
      this.running = undefined
      // Writes came while it ran: their pages are the next checkpoint's.
      if (this.dirty && !this.closed) this.schedule()
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
    if (this.running !== undefined) await this.running
    const result = await this.checkpoint('truncate')
    if (this.running === undefined && !this.dirty) this.release()
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
