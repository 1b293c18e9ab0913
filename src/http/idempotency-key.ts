/** The `Idempotency-Key` request header of the booking endpoints (public and the club's own): its schema and its check. */
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { InvalidBooking } from '../domain/errors.js'

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

export const IdempotencyKeyHeader = Type.Optional(Type.String({ description: 'Any 1–255 printable ASCII characters, unique per '
  + 'booking attempt (e.g. a UUID); remembered per club. A retry with the same key and body gets the original 201 '
  + 'with `Idempotent-Replayed: true`; the same key with another body is `invalid-booking`.',
examples: ['5f0c6a52-7d1e-4b9a-8c3f-2e6d9b1a4c70'] }))

/** The request's key, if it sent one; refuses a malformed one. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key']
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
    throw new InvalidBooking('Idempotency-Key must be 1–255 printable ASCII characters.',
      [{ code: 'idempotency_key_invalid', field: 'Idempotency-Key' }])
  }
  return key
}
