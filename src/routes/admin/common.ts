/** What every club route of the dashboard API shares: its path prefix, its refusals, the club, and who acts. */
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import type { Club } from '../../services/clubs.js'
import { ClubNotFound, NotFound } from '../../domain/errors.js'
import { clubLookup } from '../../speed/club-lookup.js'
import type { InvalidInput } from '../../domain/errors.js'
import { ADMIN_PREFIX, memberOf } from '../../http/dashboard-access.js'
import { ProblemError } from '../../http/problems.js'
import { problemResponse } from '../../http/responses.js'
import type { Actor } from '../../services/audit.js'

export const CLUB = `${ADMIN_PREFIX}/clubs/:club`
export const NOT_SIGNED_IN = problemResponse('No session, or the session has ended.')
export const FORBIDDEN = problemResponse('Cross-site request, or a role that does not allow this.')
export const NO_CLUB = problemResponse('No such club among those the signed-in person administers (or no such record in it).')
export const INVALID = problemResponse('The body or a parameter is malformed.')

/** The signed-in person, as the audit log records them. */
export function actorOf(request: FastifyRequest): Actor & { adminId: string } {
  const { session } = memberOf(request)
  return { adminId: session.adminId, label: session.email, address: request.ip }
}

/** The club the access guard admitted the request to, with its time zone. */
export async function clubOf(context: AppContext, request: FastifyRequest): Promise<Club> {
  try {
    return await clubLookup(context)(memberOf(request).membership.clubSlug)
  } catch (error) {
    if (error instanceof ClubNotFound) throw new NotFound('No such club.')
    throw error
  }
}

/**
 * The import's refusal of one entry sent as a request body, naming the body's fields: the import
 * says `groups[0].name: …`, the answer says `name: …`.
 */
export function bodyFieldProblem(error: InvalidInput): ProblemError {
  const params = error.problems.map((problem) => {
    const match = /^\w+\[\d+\](?:\.([\w.]+))?: (.*)$/s.exec(problem)
    return match === null ? { name: 'body', reason: problem } : { name: match[1] ?? 'body', reason: match[2] ?? problem }
  })
  return new ProblemError('validation-error', params.map((param) => `${param.name}: ${param.reason}`).join('; '), {}, params)
}
