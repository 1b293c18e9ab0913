/**
 * Server-Sent Events that tell an open page when a change-feed scope changed (src/db/changes.ts):
 * the dashboard's planner listens to `courts:<club id>` and reads its day again on each event.
 * The feed sees every process's changes (SQLite's committed counter, PostgreSQL's notifications),
 * so a booking made through another server process, the widget or the command line reaches every
 * open planner.
 *
 * One timer per process compares each watched scope's version with the one last sent, however many
 * pages are open: a scope costs one look-up per interval (on PostgreSQL a map's; on SQLite one read
 * of the counter per turn). A stream that falls behind (its socket's buffer full) is not written
 * to again until it drains: the next event says the same. A comment every 15 s keeps
 * proxies from closing an idle stream; on shutdown every stream ends, and the browser's
 * EventSource reconnects (to this process's successor) after `retry` milliseconds.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ChangeFeed } from '../db/changes.js'

interface Stream {
  readonly reply: FastifyReply
  /** The version last sent (undefined: not known when the stream opened, or not observable). */
  version: number | undefined
  quietSince: number
}

/** A browser reconnects this long after the stream ended (a restart, a network change). */
const RETRY_MS = 3_000
/** How often the watched scopes' versions are compared. */
const INTERVAL_MS = 1_000
/** A stream with nothing to say gets a comment line after this many comparisons (15 s). */
const QUIET_TICKS = 15

export class ChangeStreams {
  private readonly scopes = new Map<string, Set<Stream>>()
  private timer: NodeJS.Timeout | undefined
  private ticks = 0

  constructor(private readonly changes: ChangeFeed) {}

  /** Answers the request with a stream of `change` events of the scope, until the client or the server ends it. */
  stream(scope: string, request: FastifyRequest, reply: FastifyReply): void {
    reply.hijack()
    const raw = reply.raw
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Nginx would otherwise buffer the events.
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    })
    const stream: Stream = { reply, version: this.changes.version(scope), quietSince: this.ticks }
    // The first event at once: the page learns the stream is open, and reads what changed while it connected.
    raw.write(`retry: ${String(RETRY_MS)}\nevent: ready\ndata: {}\n\n`)
    let streams = this.scopes.get(scope)
    if (streams === undefined) {
      streams = new Set()
      this.scopes.set(scope, streams)
    }
    streams.add(stream)
    raw.on('close', () => {
      const open = this.scopes.get(scope)
      open?.delete(stream)
      if (open?.size === 0) this.scopes.delete(scope)
      if (this.scopes.size === 0) this.stop()
    })
    this.timer ??= setInterval(() => {
      this.tick()
    }, INTERVAL_MS).unref()
  }

  /** Ends every stream (the server is stopping). */
  closeAll(): void {
    for (const streams of this.scopes.values()) {
      for (const stream of streams) stream.reply.raw.end()
    }
    this.scopes.clear()
    this.stop()
  }

  private tick(): void {
    this.ticks++
    for (const [scope, streams] of this.scopes) {
      const version = this.changes.version(scope)
      for (const stream of streams) {
        const raw = stream.reply.raw
        if (raw.writableNeedDrain) continue
        if (version !== stream.version) {
          stream.version = version
          stream.quietSince = this.ticks
          if (version !== undefined) raw.write(`event: change\ndata: {}\n\n`)
        } else if (this.ticks - stream.quietSince >= QUIET_TICKS) {
          stream.quietSince = this.ticks
          raw.write(': still here\n\n')
        }
      }
    }
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }
}
