/** The dashboard API's club team, API keys and audit log. */
import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'
import { SCOPES } from '../../domain/scopes.js'
import { Nullable, Reference, Uuid } from '../common.js'
import { Email, Instant, LocalDate, Role } from './fields.js'

export const ClubKeyParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  key: Uuid('An API key id.'),
}, { additionalProperties: false })
export const ClubAdminParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  admin: Uuid('A member\'s admin id.'),
}, { additionalProperties: false })
export const ClubInvitationParams = Type.Object({
  club: Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' }),
  invitation: Uuid('An invitation id.'),
}, { additionalProperties: false })

export const ApiKey = Type.Object({
  id: Uuid(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it; never enough to use it.' }),
  scopes: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  created_at: Instant('Creation.'),
  last_used_at: Nullable(Instant('The last authorised request (to the minute).')),
  expires_at: Nullable(Instant('Expiry; null: never.')),
  revoked_at: Nullable(Instant('Revocation.')),
  requests_today: Nullable(Type.Integer({ minimum: 0, description: 'Requests of today\'s quota used (UTC day); null when '
    + 'the rate limiter cannot be asked just now.' })),
  daily_quota: Type.Integer({ minimum: 1, description: 'Authorised requests per UTC day for this key.' }),
}, { $id: 'ApiKey', additionalProperties: false, description: 'An API key of the club, without the key itself.' })
export type ApiKey = Static<typeof ApiKey>

export const ApiKeyList = Type.Object({ items: Type.Array(Reference(ApiKey)) }, {
  $id: 'ApiKeyList', additionalProperties: false, description: 'The club\'s API keys, oldest first.',
})

export const ApiKeyCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'What the key is for, e.g. "club website".' }),
  scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), { minItems: 1, maxItems: SCOPES.length,
    uniqueItems: true, description: 'What the key may read (docs/api.md, "Scopes").' }),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'When the key stops working; '
    + 'absent or null: never.' }))),
}, { $id: 'ApiKeyCreate', additionalProperties: false, description: 'A new API key.' })
export type ApiKeyCreate = Static<typeof ApiKeyCreate>

export const ApiKeyCreated = Type.Object({
  key: Type.String({ description: 'The key, shown this once: only its hash is stored.' }),
  api_key: Reference(ApiKey),
}, { $id: 'ApiKeyCreated', additionalProperties: false, description: 'The new key, shown once, and its record.' })

export const TeamMember = Type.Object({
  admin_id: Uuid(),
  email: Type.String(),
  role: Role(),
  since: Instant('Joined the club.'),
  last_sign_in_at: Nullable(Instant('The last sign-in (any club).')),
}, { $id: 'TeamMember', additionalProperties: false, description: 'A person who administers the club.' })

export const Invitation = Type.Object({
  id: Uuid(),
  email: Type.String(),
  role: Role(),
  created_at: Instant('Sent.'),
  expires_at: Instant('The link stops working.'),
}, { $id: 'Invitation', additionalProperties: false, description: 'An invitation not yet accepted.' })

export const Team = Type.Object({
  members: Type.Array(Reference(TeamMember)),
  invitations: Type.Array(Reference(Invitation)),
}, { $id: 'Team', additionalProperties: false, description: 'The club\'s administrators and open invitations.' })

export const InvitationCreate = Type.Object({ email: Email(), role: Role() }, {
  $id: 'InvitationCreate', additionalProperties: false, description: 'Whom to invite, and as what.',
})
export type InvitationCreate = Static<typeof InvitationCreate>

export const RoleChange = Type.Object({ role: Role() }, {
  $id: 'RoleChange', additionalProperties: false, description: 'A member\'s new role.',
})

export const AuditEntry = Type.Object({
  id: Uuid(),
  actor: Type.String({ description: 'An e-mail address, or `operator` (the command line).' }),
  action: Type.String({ description: 'What was done, e.g. `api_key.created` (docs/dashboard.md, "Audit log").' }),
  target: Nullable(Type.String({ description: 'What it was done to: its id, or for some actions a description; never a key or a '
    + 'token.' })),
  target_name: Nullable(Type.String({ description: 'What the target was called when it happened: a court\'s name, a key\'s name '
    + 'and prefix, a person\'s address, an endpoint\'s URL, a booking\'s court and time (never its guest). Null for entries '
    + 'written before names were kept.' })),
  fields: Nullable(Type.Array(Type.String(), { description: 'The fields an edit changed, by name (never their values); null '
    + 'for other actions.' })),
  detail: Nullable(Type.String({ description: 'Why or how, where there is more to say: a cancellation\'s reason and what '
    + 'caused it, a role\'s change, the bookings a court\'s change cancelled.' })),
  address: Nullable(Type.String({ description: 'The client address of the actor.' })),
  created_at: Instant('When.'),
}, { $id: 'AuditEntry', additionalProperties: false, description: 'One administrative action.' })

export const AuditList = Type.Object({ items: Type.Array(Reference(AuditEntry)) }, {
  $id: 'AuditList', additionalProperties: false, description: 'The club\'s most recent 200 actions that pass the filter, newest '
    + 'first.',
})

export const AuditQuery = Type.Object({
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Who: an e-mail address as recorded, or '
    + '`operator`.' })),
  kind: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}$', description: 'What: the part of the action before its dot, e.g. '
    + '`booking`, `court`, `hold`, `api_key`, `sign_in`, `passkey`, `member`, `webhook`.' })),
  from: Type.Optional(LocalDate('When: the first day, at the club (YYYY-MM-DD).')),
  to: Type.Optional(LocalDate('When: the last day, at the club (YYYY-MM-DD).')),
}, { additionalProperties: false })
export type AuditQuery = Static<typeof AuditQuery>
