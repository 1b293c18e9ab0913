/**
 * Requests too malformed for Fastify to route (bad request line, oversized headers) are answered
 * on the raw socket. They still get a problem document rather than Node's or Fastify's default.
 */
import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import { PROBLEM_TYPES, problemTypeUri } from './problem-types.js'
import { PROBLEM_CONTENT_TYPE } from './problems.js'

export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const id = randomUUID()
  const spec = PROBLEM_TYPES['validation-error']
  const body = JSON.stringify({
    type: problemTypeUri('validation-error'),
    title: spec.title,
    status: spec.status,
    detail: error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large.' : 'The request is not valid HTTP.',
    instance: '/',
    request_id: id,
  })
  socket.end(`HTTP/1.1 ${spec.status} Bad Request\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`)
}
