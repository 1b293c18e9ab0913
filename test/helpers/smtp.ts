/** A real SMTP server on loopback (smtp-server) that keeps what it receives, and can be stopped and started on one port. */
import { simpleParser } from 'mailparser'
import type { ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  readonly raw: string
  readonly parsed: ParsedMail
  readonly envelopeTo: readonly string[]
}

export class TestSmtpServer {
  readonly received: ReceivedMail[] = []
  private server: SMTPServer | undefined
  port = 0
  /** When set, RCPT TO answers this permanent error. */
  rejectRecipients = false
  /** How long RCPT TO takes to answer: a slow relay, so that a sender has mails in flight. */
  rcptDelayMs = 0
  /** SMTP connections accepted since the server was created. */
  connections = 0
  /**
   * Called before the server answers a RCPT TO, or the end of a message's DATA (then the message is
   * already in `received`, as a relay that has queued it); the answer waits for it.
   */
  beforeAnswer: ((stage: 'rcpt' | 'data') => Promise<void>) | undefined

  /** The mails received while `runOnce` (a mail worker's) runs until it finds nothing more to send. */
  async deliveredBy(runOnce: () => Promise<number>): Promise<ReceivedMail[]> {
    const before = this.received.length
    while (await runOnce() > 0);
    return this.received.slice(before)
  }

  async start(port = this.port): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      // No reverse DNS look-up of the client: it costs every connection a resolver round trip.
      disableReverseLookup: true,
      logger: false,
      // stop() ends open connections (421) after this long, as a relay going down would.
      closeTimeout: 100,
      onConnect: (_session, callback) => {
        this.connections += 1
        callback()
      },
      onRcptTo: (address, _session, callback) => {
        const hook = this.beforeAnswer
        if (hook !== undefined) {
          void hook('rcpt').then(() => {
            callback()
          }, callback)
        } else if (this.rcptDelayMs > 0) {
          setTimeout(() => {
            callback()
          }, this.rcptDelayMs)
        } else if (this.rejectRecipients) {
          callback(Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 }))
        } else {
          callback()
        }
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          void simpleParser(raw).then((parsed) => {
            this.received.push({ raw, parsed, envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) })
            return this.beforeAnswer?.('data')
          }).then(() => {
            callback()
          }, callback)
        })
      },
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        resolve()
      })
    })
    const address = server.server.address()
    this.port = typeof address === 'object' && address !== null ? address.port : port
    this.server = server
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (server === undefined) return
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve()
      })
    })
  }

  get url(): string {
    return `smtp://127.0.0.1:${String(this.port)}`
  }
}
