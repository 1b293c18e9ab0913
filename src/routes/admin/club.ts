/**
 * A club's dashboard API: its API keys (admins and owners), its team and audit log (owners). Every
 * route is under `/clubs/:club/`; the access guard has checked the caller's role in that club, and
 * every query below is scoped to it, whatever ids the request names.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import type { ApiKeyRecord } from '../../services/api-keys.js'
import { listApiKeys } from '../../services/api-keys.js'
import { keyStatus } from '../../domain/api-key.js'
import { InvalidRequest } from '../../domain/errors.js'
import { addDays, formatInZone, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { csvDocument } from '../../http/csv.js'
import { dashboardSettings, memberOf } from '../../http/dashboard-access.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf, clubOf } from './common.js'
import { jsonResponse, noContent, problemResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { ApiKeyCreate, ApiKeyCreated, ApiKeyList, AuditList, AuditQuery, ClubAdminParams, ClubInvitationParams, ClubKeyParams,
  ClubParams, InvitationCreate, RoleChange, Team } from '../../schemas/admin.js'
import type { ApiKey } from '../../schemas/admin.js'
import { changeRole, inviteAdmin, removeAdmin, teamOf, withdrawInvitation } from '../../services/admins.js'
import { auditLog } from '../../services/audit.js'
import type { AuditEntry, AuditFilter } from '../../services/audit.js'
import { issueApiKey, withdrawApiKey } from '../../services/api-keys.js'

/** More actions than a club's owners would read in a spreadsheet at once; the export is one response. */
const AUDIT_EXPORT_LIMIT = 10_000
const AUDIT_CSV_COLUMNS = ['created_at', 'actor', 'action', 'target_name', 'target', 'fields', 'detail', 'address'] as const

const CONFLICT = problemResponse('The change would leave the club without an owner, or the person is a member already.')

export function apiKeyBody(record: ApiKeyRecord, now: number,
  usage: { requestsToday: number | null, defaultQuota: number }): ApiKey {
  return { id: record.id, name: record.name, prefix: record.displayPrefix, scopes: [...record.scopes],
    status: keyStatus(record, now), created_at: record.createdAt, last_used_at: record.lastUsedAt, expires_at: record.expiresAt,
    revoked_at: record.revokedAt, requests_today: usage.requestsToday,
    daily_quota: record.limits.dailyQuota ?? usage.defaultQuota }
}

/** The filter of the audit routes: who, what, and the days at the club from and to (either may be open). */
function auditFilter(query: AuditQuery, timeZone: string): AuditFilter {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw new InvalidRequest('query parameter', 'to', 'is before from')
  }
  return { actor: query.actor?.trim().toLowerCase() === 'operator' ? 'operator' : query.actor?.trim().toLowerCase(),
    kind: query.kind, from: query.from === undefined ? undefined : localToInstant(query.from, 0, timeZone),
    before: query.to === undefined ? undefined : localToInstant(addDays(query.to, 1), 0, timeZone) }
}

function auditBody(entry: AuditEntry, timeZone: string) {
  return { id: entry.id, actor: entry.actor, action: entry.action, target: entry.target, target_name: entry.targetName,
    fields: entry.fields, detail: entry.detail, address: entry.address,
    created_at: formatInZone(Date.parse(entry.createdAt), timeZone) }
}

export function clubRoutes(app: FastifyInstance, context: AppContext): void {
  registerApiKeys(app, context)
  registerTeam(app, context)
  registerAuditLog(app, context)
}

/** The club's API keys: list, create (the key is in that answer only) and revoke. */
function registerApiKeys(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/api-keys`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'listApiKeys', summary: 'The club\'s API keys', tags: ['Developer access'],
      description: 'Every API key of the club, active or not, without the keys themselves.',
      params: ClubParams,
      response: { 200: jsonResponse('The keys.', Reference(ApiKeyList)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const now = context.clock.now()
    const records = await listApiKeys(context.db, memberOf(request).membership.clubId)
    const used = await Promise.all(records.map((record) => context.limiter.usedToday(record.id, now).catch(() => null)))
    return { items: records.map((record, i) => apiKeyBody(record, now, { requestsToday: used[i] ?? null,
      defaultQuota: context.config.rateLimit.dailyQuota })) }
  })

  app.post(`${CLUB}/api-keys`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'createApiKey', summary: 'Create an API key', tags: ['Developer access'],
      description: 'Creates a key with the given scopes. The key is in this answer only: store it now.',
      params: ClubParams,
      body: Reference(ApiKeyCreate),
      response: { 201: jsonResponse('Created.', Reference(ApiKeyCreated)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request, reply) => {
    const created = await issueApiKey(context.db, context.clock, { clubId: memberOf(request).membership.clubId,
      name: request.body.name.trim(), scopes: request.body.scopes, expiresAt: request.body.expires_at ?? null,
      actor: actorOf(request) })
    return reply.code(201).send({ key: created.key, api_key: apiKeyBody(created.record, context.clock.now(),
      { requestsToday: 0, defaultQuota: context.config.rateLimit.dailyQuota }) })
  })

  app.delete(`${CLUB}/api-keys/:key`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'revokeApiKey', summary: 'Revoke an API key', tags: ['Developer access'],
      description: 'Revokes the key: every instance refuses it within one second. Revoking a revoked key changes nothing.',
      params: ClubKeyParams,
      response: { 204: noContent('Revoked.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    await withdrawApiKey(context.db, context.clock, { keyId: request.params.key, clubId: memberOf(request).membership.clubId,
      actor: actorOf(request) })
    context.apiKeys.invalidate()
    return reply.code(204).send()
  })
}

/** The club's team (owners only): its members and open invitations, inviting, roles and removal. */
function registerTeam(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const settings = dashboardSettings(context)

  app.get(`${CLUB}/team`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'getTeam', summary: 'The club\'s administrators', tags: ['Team'],
      description: 'The people who administer the club, with their roles, and the invitations not yet accepted.',
      params: ClubParams,
      response: { 200: jsonResponse('The team.', Reference(Team)), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request) => {
    const team = await teamOf(context.db, context.clock, memberOf(request).membership.clubId)
    return {
      members: team.members.map((member) => ({ admin_id: member.adminId, email: member.email, role: member.role,
        since: member.since, last_sign_in_at: member.lastSignInAt })),
      invitations: team.invitations.map((invitation) => ({ id: invitation.id, email: invitation.email, role: invitation.role,
        created_at: invitation.createdAt, expires_at: invitation.expiresAt })),
    }
  })

  app.post(`${CLUB}/invitations`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'inviteAdmin', summary: 'Invite an administrator', tags: ['Team'],
      description: 'Mails an invitation (valid 7 days, single use) to the address; it replaces an earlier open invitation '
        + 'of the same address. One address is sent at most INVITATIONS_PER_ADDRESS_PER_DAY invitations in 24 hours (3 unless '
        + 'the operator sets another number), one club sends at most INVITATIONS_PER_CLUB_PER_DAY (30); beyond that, 429 with '
        + 'Retry-After, and no mail.',
      params: ClubParams,
      body: Reference(InvitationCreate),
      response: { 204: noContent('Invited.'), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: CONFLICT,
        429: problemResponse('The address or the club was sent the most invitations allowed in 24 hours; Retry-After says when '
          + 'the next may be sent.') },
    },
  }, async (request, reply) => {
    await inviteAdmin(context.db, context.clock, settings, { clubId: memberOf(request).membership.clubId,
      email: request.body.email, role: request.body.role, actor: actorOf(request) })
    return reply.code(204).send()
  })

  app.delete(`${CLUB}/invitations/:invitation`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'withdrawInvitation', summary: 'Withdraw an invitation', tags: ['Team'],
      description: 'The invitation\'s link stops working.',
      params: ClubInvitationParams,
      response: { 204: noContent('Withdrawn.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    await withdrawInvitation(context.db, context.clock, { clubId: memberOf(request).membership.clubId,
      invitationId: request.params.invitation, actor: actorOf(request) })
    return reply.code(204).send()
  })

  app.put(`${CLUB}/admins/:admin/role`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'changeRole', summary: 'Change a member\'s role', tags: ['Team'],
      description: 'Makes a member owner or admin. Transferring ownership: make the other member owner, then make yourself '
        + 'admin. The last owner cannot step down.',
      params: ClubAdminParams,
      body: Reference(RoleChange),
      response: { 204: noContent('Changed.'), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: CONFLICT },
    },
  }, async (request, reply) => {
    await changeRole(context.db, context.clock, { clubId: memberOf(request).membership.clubId, adminId: request.params.admin,
      role: request.body.role, actor: actorOf(request) })
    return reply.code(204).send()
  })

  app.delete(`${CLUB}/admins/:admin`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'removeAdmin', summary: 'Remove a member', tags: ['Team'],
      description: 'The person no longer administers this club (other clubs are unaffected). The last owner cannot be removed.',
      params: ClubAdminParams,
      response: { 204: noContent('Removed.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: CONFLICT },
    },
  }, async (request, reply) => {
    await removeAdmin(context.db, context.clock, { clubId: memberOf(request).membership.clubId, adminId: request.params.admin,
      actor: actorOf(request) })
    return reply.code(204).send()
  })
}

/** The club's audit log (owners only): filtered, and as CSV. */
function registerAuditLog(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.get(`${CLUB}/audit`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'getAuditLog', summary: 'The club\'s audit log', tags: ['Team'],
      description: 'The most recent 200 administrative actions in the club that pass the filter, newest first, each with its '
        + 'target\'s name; the times in the club\'s offset. The team\'s sign-ins, sign-outs and passkey changes are among them.',
      params: ClubParams,
      querystring: AuditQuery,
      response: { 200: jsonResponse('The entries.', Reference(AuditList)), 400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => {
    const club = await clubOf(context, request)
    return { items: (await auditLog(context.db, club.id, auditFilter(request.query, club.timezone)))
      .map((entry) => auditBody(entry, club.timezone)) }
  })

  app.get(`${CLUB}/audit/export`, {
    config: { access: { dashboard: 'owner' } },
    schema: {
      operationId: 'exportAuditLog', summary: 'The club\'s audit log as CSV', tags: ['Team'],
      description: `The actions that pass the filter, newest first (at most ${String(AUDIT_EXPORT_LIMIT)}), as CSV (RFC 4180, UTF-8 `
        + 'with a byte order mark; a cell a spreadsheet would take for a formula is prefixed with an apostrophe). Times in the '
        + 'club\'s offset.',
      params: ClubParams,
      querystring: AuditQuery,
      response: { 200: { description: 'The entries, one per line.', content: { 'text/csv': { schema: Type.String() } } },
        400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    const entries = await auditLog(context.db, club.id, auditFilter(request.query, club.timezone), AUDIT_EXPORT_LIMIT)
    const date = localDateOf(context.clock.now(), club.timezone)
    return reply.type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${club.slug}-${date}.csv"`)
      .send(csvDocument(AUDIT_CSV_COLUMNS, entries.map((entry) => {
        const body = auditBody(entry, club.timezone)
        return { ...body, fields: body.fields?.join(' ') ?? null }
      })))
  })
}
