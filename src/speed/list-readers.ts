/**
 * List pages missing from the response cache, read and serialised on threads beside the event
 * loop. On SQLite a miss spends most of its time in the query (a page of 50 rows of a 1 GB
 * database costs some hundreds of microseconds, mostly reading pages that SQLite's cache does not
 * hold) and in serialising it; one thread did all of it, and the second core stood idle. Here the
 * event loop checks the key and the budget, looks in the cache, and sends the read to a thread;
 * the thread answers with the serialised page and the data version it read under, and the event
 * loop files and sends it. The page's bytes do not travel in the message: the thread writes them
 * into a slot of memory it shares with the event loop, which sends them from there and frees the
 * slot once the answer is written. A body received as text is copied into the event loop's heap,
 * flattened and encoded again for the socket, and promoted to the old generation on the way: the
 * collector's work of every miss, which a page in a slot spares it.
 *
 * Each thread has its own read-only connection to the database file. A read runs as on the event
 * loop (src/speed/list-reads.ts, in a read transaction with the scope's counter: src/db/changes.ts),
 * so the version a page is filed under is the one of the snapshot it was read from, and a change
 * committed by any connection before the read began is in it (WAL). SQLite writes the page's
 * items as JSON (src/db/json-pages.ts: the rows never become JavaScript values), and the thread
 * puts them in the list's envelope: test/speed/list-json.test.ts holds that text equal to what the
 * route's serialiser writes for any stored value, and test/speed/fast-path.test.ts every answer equal to
 * the route's. A deep page of competition results is read from a keyset anchor the thread keeps
 * (src/db/repositories/result-anchors.ts). Only SQLite in a file: PostgreSQL's queries do
 * not hold the event loop, and an in-memory database cannot be opened twice.
 *
 * One module, both sides: imported, it offers `ListReaders`; started as a thread (with the file in
 * `workerData`), it serves reads. The threads start once misses come often (`MISSES_TO_START`
 * within a second); until then, and until one is ready (it loads its modules and opens the
 * database: 0.1–0.5 s), misses are read on the event loop, so no request waits
 * for a thread. A thread that dies fails the reads in hand (the route reads those pages on the
 * event loop) and the next miss starts another. After ten seconds without a miss the threads end,
 * their memory with them.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { MessagePort, Worker } from 'node:worker_threads'
import type { Clock } from '../clock.js'
import { systemClock } from '../clock.js'
import { openDatabase } from '../db/dialect.js'
import { ResultAnchors } from '../db/repositories/result-anchors.js'
import { etagOf } from '../http/etag.js'
import { RequestThread } from './request-thread.js'
import type { Reply } from './request-thread.js'
import { LIST_READS, readListBody } from './list-reads.js'
import type { KnownTotal, ListArea } from './list-reads.js'

export interface PageRead {
  readonly area: ListArea
  /** The scope of change tracking (`groups:<club id>`). */
  readonly scope: string
  readonly clubId: string
  readonly limit: number
  readonly offset: number
  /** The clock time of the request. */
  readonly now: number
  /** The list's total as last counted, if known. */
  readonly known: KnownTotal | undefined
}

export interface PageReadResult {
  /** The data version the page was read under (undefined: changes could not be observed). */
  readonly version: number | undefined
  readonly validUntil: number
  /** The total, when this read counted it. */
  readonly counted: KnownTotal | undefined
  /**
   * The page as the route's 200 schema serialises it (its UTF-8 bytes in a slot shared with the
   * thread, or its text when it did not fit one), and its ETag.
   */
  readonly body: Buffer | string
  readonly etag: string
  /**
   * Gives the body's slot back, once the answer is written or will not be: the bytes are not to
   * be used after (the cache copies what it keeps). Called more than once, it frees the slot once.
   */
  readonly release: () => void
}

/** A read, and the shared slot the thread writes the page into (-1: none is free, the page comes as text). */
interface SlotRead extends PageRead { readonly slot: number }
/** What the thread answers: the page's length in its slot, or the page itself. */
type ThreadAnswer = Omit<PageReadResult, 'body' | 'release'> & ({ readonly length: number } | { readonly body: string })
interface ReadRequest { readonly id: number, readonly request: SlotRead }
type ReadReply = Reply<ThreadAnswer, string>
interface ThreadData { readonly listReaderFile: string, readonly bodies: SharedArrayBuffer }

/**
 * The slots of each thread's shared memory, and their size: as many pages in hand as a thread
 * takes at once, and a page of 100 news items of 600 characters in each. A page that does not fit
 * (or finds no free slot) comes in the message.
 */
export const BODY_SLOTS = 32
export const BODY_SLOT_BYTES = 96 * 1024

/** The threads end after this long without a read (checked at this interval). */
const IDLE_RELEASE_MS = 10_000

/**
 * How many misses within one second of the clock start the threads. Fewer are read on the event
 * loop, where one costs well under a millisecond, while starting two threads costs 0.75–1 s of CPU
 * and some 50 MiB for as long as they run: a club's site whose pages
 * miss after each change of its data never needs them, a stream of misses starts them at once.
 */
export const MISSES_TO_START = 100

export interface ListReadersOptions {
  /** The threads' code: this module, built (the in-process tests, which run the sources, give its path in dist/). */
  readonly module?: URL
  readonly clock?: Clock
  /** Misses within one second of the clock that start the threads (default MISSES_TO_START; 1: the first miss). */
  readonly startAfter?: number
}

/**
 * A thread's young generation: a page at a time (tens of kilobytes) needs little, and the default
 * grows to 16 MiB semi-spaces under load. The old generation keeps V8's default (see the mail
 * thread: a limit reached there can end the process).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 }

/** `count` threads reading `file`; a read goes to the ready thread with the fewest in hand. */
export class ListReaders {
  private readonly slots: (ReaderThread | undefined)[]
  private readonly module: URL
  private readonly clock: Clock
  private readonly startAfter: number
  /** The misses counted towards starting the threads, since the clock time `secondFrom`. */
  private secondFrom = Number.NEGATIVE_INFINITY
  private missesInSecond = 0
  private readsSinceCheck = 0
  /** Set when a thread ended before it was ready: no thread starts again until the next check. */
  private startsHeld = false
  private readonly checks: NodeJS.Timeout
  private report: (error: Error) => void = () => undefined
  /**
   * Reads answered by a thread, those of them whose page came as text (no slot was free, or the
   * page is larger than one), and reads that failed there (the route read those on the event loop).
   */
  readonly counts = { read: 0, asText: 0, failed: 0 }

  constructor(private readonly file: string, count: number, options: ListReadersOptions = {}) {
    this.module = options.module ?? new URL(import.meta.url)
    this.clock = options.clock ?? systemClock
    this.startAfter = options.startAfter ?? MISSES_TO_START
    this.slots = Array.from({ length: count }, () => undefined)
    this.checks = setInterval(() => {
      this.check()
    }, IDLE_RELEASE_MS).unref()
  }

  /** How many threads read at most. */
  get size(): number {
    return this.slots.length
  }

  /** The threads running now, ready or starting. */
  get threads(): Worker[] {
    return this.slots.flatMap((slot) => (slot === undefined || slot.stopped ? [] : [slot.worker]))
  }

  /** How many threads are ready to read. */
  get ready(): number {
    return this.slots.filter((slot) => slot !== undefined && !slot.stopped && slot.ready).length
  }

  /** Where a thread that failed is reported (the server's log). */
  reportTo(report: (error: Error) => void): void {
    this.report = report
  }

  /**
   * A ready thread's read of the page, or undefined when no thread is ready: the caller reads it on
   * the event loop, so that no request waits for a thread to start (some 100 ms to half a second).
   * Starts the threads that are not running, once misses come often enough (`startAfter`).
   */
  read(read: PageRead): Promise<PageReadResult> | undefined {
    this.readsSinceCheck++
    const wanted = this.countMiss()
    let chosen: ReaderThread | undefined
    for (const [i, slot] of this.slots.entries()) {
      if (slot === undefined || slot.stopped) {
        if (wanted) this.start(i)
      } else if (slot.ready && (chosen === undefined || slot.inHand < chosen.inHand)) chosen = slot
    }
    return chosen?.readPage(read).then((result) => {
      this.counts.read++
      if (typeof result.body === 'string') this.counts.asText++
      return result
    }, (error: unknown) => {
      this.counts.failed++
      throw error
    })
  }

  /**
   * Every ten seconds: ends the threads if no read came since the last check and none is in hand
   * (the next read starts them again), and lets threads start again after one ended before it was
   * ready.
   */
  check(): void {
    const idle = this.readsSinceCheck === 0 && this.slots.every((slot) => slot === undefined || slot.inHand === 0)
    this.readsSinceCheck = 0
    this.startsHeld = false
    if (idle) this.release()
  }

  /**
   * Ends the threads and settles once they have ended, their connections closed (as the
   * checkpoint thread does, src/speed/wal-checkpoints.ts): nothing opens the database's files after.
   */
  async close(): Promise<void> {
    clearInterval(this.checks)
    const threads = this.slots.filter((slot) => slot !== undefined)
    this.release()
    await Promise.all(threads.map((thread) => thread.exited))
  }

  /** Counts a miss in the clock's current second; true once that second has `startAfter` of them. */
  private countMiss(): boolean {
    const now = this.clock.now()
    if (now < this.secondFrom || now - this.secondFrom >= 1_000) {
      this.secondFrom = now
      this.missesInSecond = 0
    }
    this.missesInSecond++
    return this.missesInSecond >= this.startAfter
  }

  private start(slot: number): void {
    if (this.startsHeld) return
    this.slots[slot] = new ReaderThread(this.module, this.file, (error, ready) => {
      if (!ready) this.startsHeld = true
      this.report(error)
    })
  }

  private release(): void {
    for (const [i, slot] of this.slots.entries()) {
      slot?.close()
      this.slots[i] = undefined
    }
  }
}

class ReaderThread extends RequestThread<SlotRead, ThreadAnswer, string> {
  /** Once the thread has opened the database. */
  ready = false
  /** The memory shared with the thread: BODY_SLOTS slots of BODY_SLOT_BYTES. */
  private readonly bodies: SharedArrayBuffer
  /** The slots not in use: neither being written by the thread nor holding a body that is being sent. */
  private readonly free = Array.from({ length: BODY_SLOTS }, (_, i) => i)

  /** `ended`: the thread failed or ended unasked, and whether it had been ready. */
  constructor(module: URL, file: string, ended: (error: Error, ready: boolean) => void) {
    const bodies = new SharedArrayBuffer(BODY_SLOTS * BODY_SLOT_BYTES)
    const data: ThreadData = { listReaderFile: file, bodies }
    super({ module, data, resourceLimits: RESOURCE_LIMITS, name: 'a list reader thread', failed: (message) => new Error(message),
      other: (message) => {
        if (message === 'ready') this.ready = true
      },
      ended: (error) => {
        ended(error, this.ready)
      } })
    this.bodies = bodies
  }

  /** Reads a page, with a free slot for its bytes if there is one. */
  readPage(read: PageRead): Promise<PageReadResult> {
    const slot = this.free.pop() ?? -1
    let freed = slot === -1
    const release = () => {
      if (freed) return
      freed = true
      this.free.push(slot)
    }
    return this.request({ ...read, slot }).then((answer) => {
      const { version, validUntil, counted, etag } = answer
      if ('body' in answer) {
        release()
        return { version, validUntil, counted, etag, body: answer.body, release }
      }
      const body = Buffer.from(this.bodies, slot * BODY_SLOT_BYTES, answer.length)
      return { version, validUntil, counted, etag, body, release }
    }, (error: unknown) => {
      release()
      throw error
    })
  }
}

/**
 * The thread's side: its own read-only connection, which reads pages as JSON (src/db/json-pages.ts),
 * and writes each into the slot of `bodies` that came with its read.
 */
function serve(port: MessagePort, file: string, bodies: SharedArrayBuffer): void {
  const encoder = new TextEncoder()
  const handle = openDatabase({ kind: 'sqlite', file }, { readonly: true })
  // Deep pages of results are read from keyset anchors, kept while the thread runs.
  const anchors = new ResultAnchors()
  port.postMessage('ready')
  let inHand = 0
  let closing = false
  const end = () => {
    port.close()
    void handle.close()
  }
  port.on('message', (message: ReadRequest | 'close') => {
    if (message === 'close') {
      closing = true
      if (inHand === 0) end()
      return
    }
    const { id, request: read } = message
    inHand++
    const page = { limit: read.limit, offset: read.offset }
    const list = LIST_READS[read.area]
    handle.changes.read(handle.db, read.scope, (db, version) => readListBody(list, db, read.clubId, page, read.now, read.known,
      version, anchors)).then(({ value, version }) => {
      const { body, validUntil, counted } = value
      // Tagged here: the event loop does not hash the body (SHA-256 of some 10 kB, 4 % of its time under misses).
      let answer: ThreadAnswer | undefined
      if (read.slot !== -1) {
        const slot = new Uint8Array(bodies, read.slot * BODY_SLOT_BYTES, BODY_SLOT_BYTES)
        const { read: encoded, written } = encoder.encodeInto(body, slot)
        const bytes = slot.subarray(0, written)
        if (encoded === body.length) answer = { version, validUntil, counted, length: written, etag: etagOf(bytes) }
      }
      answer ??= { version, validUntil, counted, body, etag: etagOf(body) }
      const reply: ReadReply = { id, answer }
      port.postMessage(reply)
    }).catch((error: unknown) => {
      const reply: ReadReply = { id, failure: error instanceof Error ? error.message : String(error) }
      port.postMessage(reply)
    }).finally(() => {
      inHand--
      if (closing && inHand === 0) end()
    })
  })
}

const started = workerData as Partial<ThreadData> | null
if (!isMainThread && parentPort !== null && typeof started?.listReaderFile === 'string' && started.bodies !== undefined) {
  serve(parentPort, started.listReaderFile, started.bodies)
}
