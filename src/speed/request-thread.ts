/**
 * The event loop's side of a worker thread that answers requests: the mail transport's thread
 * (src/mail/transport-thread.ts) and the list readers (src/speed/list-readers.ts). Each request
 * is posted with an id and answered by a reply with the same id; the thread holds the process open
 * only while a request is in hand. If the thread fails or ends unasked, every request in hand fails
 * with that error, and the thread is stopped: its owner starts another for the next request.
 *
 * A reply is `{ id, answer }` or `{ id, failure }`; what a failure becomes is the owner's
 * (`failed`). Messages that are not replies (a thread saying it is ready) go to `other`.
 */
import { Worker } from 'node:worker_threads'
import type { ResourceLimits } from 'node:worker_threads'

export type Reply<Answer, Failure>
  = { readonly id: number, readonly answer: Answer } | { readonly id: number, readonly failure: Failure }

export interface RequestThreadOptions<Failure> {
  /** The thread's code and its `workerData`. */
  readonly module: URL
  readonly data: unknown
  readonly resourceLimits: ResourceLimits
  /** How the thread is named in the errors of its ending: `the mail thread`. */
  readonly name: string
  /** The error a request fails with when the thread answers with a failure. */
  readonly failed: (failure: Failure) => Error
  /** A message that is not a reply. */
  readonly other?: (message: unknown) => void
  /** The thread failed or ended unasked (called once, before the requests in hand fail). */
  readonly ended?: (error: Error) => void
}

export class RequestThread<Request, Answer, Failure> {
  readonly worker: Worker
  /** Settles once the thread has ended, however it ended. */
  readonly exited: Promise<void>
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void, reject: (error: Error) => void }>()
  private next = 0
  /** Set once the thread was asked to close, or failed or ended: it takes no more requests. */
  stopped = false

  constructor(private readonly options: RequestThreadOptions<Failure>) {
    this.worker = new Worker(options.module, { workerData: options.data, resourceLimits: options.resourceLimits })
    // Holds the process open only while a request waits for its answer.
    this.worker.unref()
    this.worker.on('message', (message: unknown) => {
      if (!isReply<Answer, Failure>(message)) {
        options.other?.(message)
        return
      }
      const waiter = this.waiting.get(message.id)
      if (waiter === undefined) return
      this.settled(message.id)
      if ('failure' in message) waiter.reject(options.failed(message.failure))
      else waiter.resolve(message.answer)
    })
    this.worker.on('error', (error) => {
      this.fail(new Error(`${options.name} failed: ${error.message}`))
    })
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        this.fail(new Error(`${options.name} stopped (exit code ${String(code)})`))
        resolve()
      })
    })
  }

  /** Requests posted and not yet answered. */
  get inHand(): number {
    return this.waiting.size
  }

  request(request: Request): Promise<Answer> {
    const id = this.next++
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref()
      this.waiting.set(id, { resolve, reject })
      this.worker.postMessage({ id, request })
    })
  }

  /**
   * Asks the thread to end (it says `close`; what it finishes first is its own), and holds the
   * process open until it has: whoever awaits `exited` is not left with a process that ended
   * under it, its promise never settled.
   */
  close(): void {
    this.stopped = true
    this.worker.ref()
    this.worker.postMessage('close')
  }

  private settled(id: number): void {
    this.waiting.delete(id)
    if (this.waiting.size === 0) this.worker.unref()
  }

  private fail(error: Error): void {
    if (!this.stopped) this.options.ended?.(error)
    this.stopped = true
    const waiting = [...this.waiting.values()]
    this.waiting.clear()
    this.worker.unref()
    for (const waiter of waiting) waiter.reject(error)
  }
}

function isReply<Answer, Failure>(message: unknown): message is Reply<Answer, Failure> {
  return typeof message === 'object' && message !== null && typeof (message as { id?: unknown }).id === 'number'
}
