/**
 * The server's mail transport on a thread of its own. Composing a message with nodemailer (its
 * MIME tree, encodings and streams) and handing it to the relay or a file cost the event loop
 * about 0.6 ms a mail, more than the booking that queued it: during a burst of bookings the mail
 * worker took turns from the requests, and afterwards it delivered fewer than 500 mails a second.
 * On this thread the event loop only claims mails and records their outcome; the message is
 * composed and sent beside it.
 *
 * One module, both sides: imported, it offers `threadedTransport`; started as the thread (with
 * its target in `workerData`), it serves sends for the thread that started it. A thread that dies
 * fails the sends in hand, as a relay that dropped its connection does: the outbox retries them,
 * and the next send starts a new thread.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'
import { describeTarget, transportFor } from './transport.js'
import type { MailTransport, OutgoingMail, TransportTarget } from './transport.js'

interface SendRequest { readonly id: number, readonly mail: OutgoingMail }
interface SendReply { readonly id: number, readonly error?: { readonly message: string, readonly responseCode?: number } }
interface ThreadData { readonly mailTransportTarget: TransportTarget }

/**
 * The thread's young generation: a message at a time, some kilobytes each, needs little, and the
 * default would grow to 16 MiB semi-spaces under a burst. The old generation keeps V8's default:
 * a limit the thread reached could end the process, not only the thread (an ArrayBuffer that
 * cannot be allocated is fatal to every thread).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 6 }

export function threadedTransport(target: TransportTarget): ThreadedTransport {
  return new ThreadedTransport(target)
}

export class ThreadedTransport implements MailTransport {
  readonly description: string
  private current: TransportThread | undefined

  constructor(private readonly target: TransportTarget) {
    this.description = `${describeTarget(target)} (on a thread of its own)`
  }

  /** The thread serving sends now, if one is running. */
  get thread(): Worker | undefined {
    return this.current?.stopped === false ? this.current.worker : undefined
  }

  send(mail: OutgoingMail): Promise<void> {
    if (this.current === undefined || this.current.stopped) this.current = new TransportThread(this.target)
    return this.current.send(mail)
  }

  /** The thread ends (its memory with it); the next send starts another. */
  idle(): void {
    this.close()
  }

  close(): void {
    this.current?.close()
    this.current = undefined
  }
}

class TransportThread {
  readonly worker: Worker
  private readonly waiting = new Map<number, { resolve: () => void, reject: (error: Error) => void }>()
  private next = 0
  stopped = false

  constructor(target: TransportTarget) {
    const data: ThreadData = { mailTransportTarget: target }
    this.worker = new Worker(new URL(import.meta.url), { workerData: data, resourceLimits: RESOURCE_LIMITS })
    // Holds the process open only while a send waits for its answer.
    this.worker.unref()
    this.worker.on('message', (reply: SendReply) => {
      const waiter = this.waiting.get(reply.id)
      if (waiter === undefined) return
      this.settled(reply.id)
      if (reply.error === undefined) {
        waiter.resolve()
        return
      }
      // The relay's code travels with the message: a 5xx is final (isPermanentMailError), anything else is retried.
      const { message, responseCode } = reply.error
      waiter.reject(Object.assign(new Error(message), responseCode === undefined ? {} : { responseCode }))
    })
    this.worker.on('error', (error) => {
      this.fail(new Error(`the mail thread failed: ${error.message}`))
    })
    this.worker.on('exit', (code) => {
      this.fail(new Error(`the mail thread stopped (exit code ${String(code)})`))
    })
  }

  send(mail: OutgoingMail): Promise<void> {
    const id = this.next++
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref()
      this.waiting.set(id, { resolve, reject })
      const request: SendRequest = { id, mail }
      this.worker.postMessage(request)
    })
  }

  /** The transport closes its connection; the thread ends when nothing is left to do. */
  close(): void {
    this.stopped = true
    this.worker.postMessage('close')
  }

  private settled(id: number): void {
    this.waiting.delete(id)
    if (this.waiting.size === 0) this.worker.unref()
  }

  private fail(error: Error): void {
    this.stopped = true
    const waiting = [...this.waiting.values()]
    this.waiting.clear()
    this.worker.unref()
    for (const waiter of waiting) waiter.reject(error)
  }
}

function isThreadData(data: unknown): data is ThreadData {
  return typeof data === 'object' && data !== null && 'mailTransportTarget' in data
}

function serve(port: MessagePort, target: TransportTarget): void {
  const transport = transportFor(target)
  port.on('message', (message: SendRequest | 'close') => {
    if (message === 'close') {
      transport.close()
      port.close()
      return
    }
    transport.send(message.mail).then(() => {
      port.postMessage({ id: message.id } satisfies SendReply)
    }, (error: unknown) => {
      const code = (error as { responseCode?: unknown } | null)?.responseCode
      port.postMessage({ id: message.id, error: { message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'number' ? { responseCode: code } : {}) } } satisfies SendReply)
    })
  })
}

if (!isMainThread && parentPort !== null && isThreadData(workerData)) serve(parentPort, workerData.mailTransportTarget)
