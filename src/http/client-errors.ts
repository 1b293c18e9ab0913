/**
 * Requests too malformed for Fastify to route (bad request line, oversized headers) or too slow to
 * arrive (headers or body not complete within Node's timeouts) are answered on the raw socket.
 * They still get a problem document rather than Node's or Fastify's default.
 */
import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import { PROBLEM_CODES, PROBLEM_TYPES, problemTypeUri } from './problem-types.js'
import type { ProblemKind } from './problem-types.js'
import { PROBLEM_CONTENT_TYPE } from './problems.js'

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout' }

function answerOf(error: NodeJS.ErrnoException): { kind: ProblemKind, detail: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { kind: 'request-timeout', detail: 'The request did not arrive in time.' }
  }
  return {
    kind: 'validation-error',
    detail: error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large.' : 'The request is not valid HTTP.',
  }
}

export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const id = randomUUID()
  const { kind, detail } = answerOf(error)
  const spec = PROBLEM_TYPES[kind]
  const body = JSON.stringify({
    type: problemTypeUri(kind),
    title: spec.title,
    status: spec.status,
    detail,
    instance: '/',
    request_id: id,
    code: PROBLEM_CODES[kind],
  })
  socket.end(`HTTP/1.1 ${String(spec.status)} ${REASONS[spec.status] ?? 'Bad Request'}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n`
    + `Content-Length: ${String(Buffer.byteLength(body))}\r\nX-Request-Id: ${id}\r\nX-Content-Type-Options: nosniff\r\n`
    + `Connection: close\r\n\r\n${body}`)
}
