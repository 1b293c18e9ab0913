/**
 * A webhook receiver on loopback: a real HTTP server that keeps every request it is sent, answers
 * as the test says (a status, a Retry-After, no answer at all), can be stopped and started again
 * on the same port, and verifies deliveries with the `standardwebhooks` package, as a club's
 * receiver would.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { vi } from 'vitest'
import { testNow } from './today.js'

export interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
  readonly path: string
  /** When it arrived, on the clock the receiver was given. */
  readonly at: number
}

/** A verified delivery's body. */
export interface Verified {
  readonly type: string
  readonly timestamp: string
  readonly data: Record<string, unknown>
}

export type Answer = { readonly status: number, readonly headers?: Record<string, string>, readonly body?: string } | 'hang'

export class WebhookReceiver {
  readonly received: Received[] = []
  /** TCP connections accepted, whether or not a request followed. */
  connections = 0
  answer: Answer = { status: 204 }
  /** The receiver's clock: the service's, in a test that moves time; else the run's (test/helpers/today.ts). */
  clock: () => number = testNow
  private server: http.Server | undefined
  private port = 0
  private readonly hanging = new Set<http.ServerResponse>()

  get url(): string {
    return `http://127.0.0.1:${String(this.port)}/hooks`
  }

  async start(): Promise<void> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '',
          at: this.clock() })
        const answer = this.answer
        if (answer === 'hang') {
          this.hanging.add(response)
          return
        }
        response.writeHead(answer.status, answer.headers).end(answer.body ?? '')
      })
    })
    server.on('connection', () => {
      this.connections++
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as AddressInfo).port
    this.server = server
  }

  /** Stops listening: deliveries meet a refused connection until start() again. */
  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy()
    this.hanging.clear()
    const server = this.server
    this.server = undefined
    if (server === undefined) return
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }

  /** The request's payload, if its signature verifies with the secret at the time it arrived (else it throws). */
  static verify(request: Received, secret: string): Verified {
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature']
      .map((name) => [name, String(request.headers[name] ?? '')]))
    // The receiver's clock reads the service's: the library refuses timestamps more than five minutes from its now.
    vi.useFakeTimers({ toFake: ['Date'], now: request.at })
    try {
      return new Webhook(secret).verify(request.body, headers) as Verified
    } finally {
      vi.useRealTimers()
    }
  }
}
