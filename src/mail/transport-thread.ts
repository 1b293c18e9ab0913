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
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { MessagePort, Worker } from 'node:worker_threads'
import { RequestThread } from '../speed/request-thread.js'
import type { Reply } from '../speed/request-thread.js'
import { describeTarget, transportFor } from './transport.js'
import type { MailTransport, OutgoingMail, TransportTarget } from './transport.js'

type SendRequest = { readonly id: number, readonly request: OutgoingMail }
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

/** The relay's code travels with a failure: a 5xx is final (isPermanentMailError), anything else is retried. */
interface SendFailure { readonly message: string, readonly responseCode?: number }

class TransportThread extends RequestThread<OutgoingMail, undefined, SendFailure> {
  constructor(target: TransportTarget) {
    const data: ThreadData = { mailTransportTarget: target }
    super({ module: new URL(import.meta.url), data, resourceLimits: RESOURCE_LIMITS, name: 'the mail thread',
      failed: ({ message, responseCode }) => Object.assign(new Error(message),
        responseCode === undefined ? {} : { responseCode }) })
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.request(mail)
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
    transport.send(message.request).then(() => {
      port.postMessage({ id: message.id, answer: undefined } satisfies Reply<undefined, SendFailure>)
    }, (error: unknown) => {
      const code = (error as { responseCode?: unknown } | null)?.responseCode
      port.postMessage({ id: message.id, failure: { message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'number' ? { responseCode: code } : {}) } } satisfies Reply<undefined, SendFailure>)
    })
  })
}

if (!isMainThread && parentPort !== null && isThreadData(workerData)) serve(parentPort, workerData.mailTransportTarget)
