/** What every club route of the dashboard API shares: its path prefix, its refusals, the club, and who acts. */
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.js'
import { findClubBySlug } from '../../db/repositories/clubs.js'
import type { Club } from '../../db/repositories/clubs.js'
import { NotFound } from '../../domain/errors.js'
import { ADMIN_PREFIX, memberOf } from '../../http/dashboard-access.js'
import { problemResponse } from '../../http/responses.js'
import type { Actor } from '../../services/admins.js'

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
  const club = await findClubBySlug(context.db, memberOf(request).membership.clubSlug)
  if (club === undefined) throw new NotFound('No such club.')
  return club
}
