import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { REFUSAL_CODES } from '../domain/refusals.js'

/** Why, by code: stable, one of a documented list, for a client to act on and to say in its own words. */
const RefusalCode = Type.Union(REFUSAL_CODES.map((code) => Type.Literal(code)), {
  description: 'Why the request was refused, by a stable code (docs/api.md, "Refusals"): with several reasons, the first '
    + 'one\'s; `invalid_params` has each field\'s own.',
})

/** RFC 9457 problem document (contract §7), with the service's extension members. */
export const Problem = Type.Object({
  type: Type.String({
    format: 'uri-reference',
    description: 'Identifies the kind of problem; one of the URIs listed under /api/v1/problems. '
      + 'Stable across deployments; resolve it against the API\'s origin to read its documentation.',
    examples: ['/api/v1/problems/validation-error'],
  }),
  title: Type.String({ description: 'Short summary of the kind of problem.' }),
  status: Type.Integer({ description: 'The HTTP status code.' }),
  detail: Type.String({ description: 'What went wrong with this request.' }),
  instance: Type.String({ description: 'The request path.' }),
  request_id: Type.String({ description: 'Same as the X-Request-Id response header; quote it when asking for help.' }),
  code: RefusalCode,
  invalid_params: Type.Optional(Type.Array(Type.Object({
    name: Type.String({ description: 'The parameter as the request named it: a body field, a query parameter, a header.' }),
    reason: Type.String({ description: 'Why, in words: on the public endpoints in the language of `Accept-Language`.' }),
    code: RefusalCode,
  }, { additionalProperties: false }), { description: 'Each offending parameter, all of them at once (at most 20).' })),
}, {
  $id: 'Problem',
  additionalProperties: false,
  description: 'An error (RFC 9457 problem details).',
  examples: [{
    type: '/api/v1/problems/validation-error',
    title: 'Invalid request',
    status: 400,
    detail: 'Query parameter "limit" must be <= 100.',
    instance: '/api/v1/groups',
    request_id: '3f4dd1c3-8e3d-4a2c-aae1-7d499876ff92',
    code: 'out_of_range',
    invalid_params: [{ name: 'limit', reason: 'must be <= 100', code: 'out_of_range' }],
  }],
})
export type Problem = Static<typeof Problem>
