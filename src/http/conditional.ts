/**
 * Conditional GET: a strong ETag from the bytes of the 200 body, so it changes whenever what is
 * listed changes (and only then); `If-None-Match` with a current tag answers 304 without a body.
 * The hook runs after the route's checks, so a 304 of an authenticated list has been authorised
 * and counted like a 200, and carries the same rate-limit headers.
 */
import type { FastifyReply, onSendHookHandler } from 'fastify'
import { Type } from '@sinclair/typebox'
import { etagOf } from './etag.js'
import { header } from './responses.js'

/** True when an If-None-Match header names this tag (weak comparison, as RFC 9110 prescribes for If-None-Match). */
export function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').map((tag) => tag.trim()).some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare)
}

export function conditionalGet(cacheControl: string, vary?: string): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      done(null, payload)
      return
    }
    const known = reply.getHeader('etag')
    const etag = typeof known === 'string' ? known : etagOf(payload)
    void reply.header('etag', etag).header('cache-control', cacheControl)
    if (vary !== undefined) void reply.header('vary', vary)
    const ifNoneMatch = request.headers['if-none-match']
    if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, etag)) {
      void reply.code(304).removeHeader('content-type').removeHeader('content-length')
      done(null, '')
      return
    }
    done(null, payload)
  }
}

/** Sends an already serialised JSON body whose ETag is known (the conditionalGet hook then needs no hash). */
export function sendJson(reply: FastifyReply, answer: { readonly body: string | Buffer, readonly etag: string }): FastifyReply {
  return reply.header('etag', answer.etag).header('content-type', 'application/json; charset=utf-8').send(answer.body)
}

/** Sent on every 200 and 304 of a conditional GET; `cacheControl` is the value the route sends. */
export function conditionalHeaders(cacheControl: string) {
  return {
    'etag': header(Type.String({ description: 'Strong validator of this representation; send it back in If-None-Match.',
      examples: ['"LXEWQrcmsEQBYnyp-6wy9chTD7G"'] }), { required: true }),
    'cache-control': header(Type.String({ description: `How the response may be cached: always \`${cacheControl}\`.`,
      examples: [cacheControl] }), { required: true }),
  }
}

export const IF_NONE_MATCH = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'ETag(s) of a copy the client holds: 304 when still current.',
    examples: ['"LXEWQrcmsEQBYnyp-6wy9chTD7G"'] })),
})
