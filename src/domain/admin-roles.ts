/**
 * Who may do what in a club's dashboard (docs/dashboard.md, "Roles"). A club's administrators
 * have one role each; each role includes everything the one below it may do: `owner` ⊃ `admin` ⊃ `editor`.
 */
export const ADMIN_ROLES = ['owner', 'admin', 'editor'] as const
export type AdminRole = (typeof ADMIN_ROLES)[number]

/** What each role may do, as shown in docs/dashboard.md. */
export const PERMISSIONS = {
  'see the club and its dashboard': ['owner', 'admin', 'editor'],
  'keep groups, events, news, competition results and members': ['owner', 'admin', 'editor'],
  'courts, bookings, the website and import or export of the club\'s data': ['owner', 'admin'],
  'create, list and revoke API keys': ['owner', 'admin'],
  'see the team, invite and remove admins, change roles': ['owner'],
  'transfer or share ownership': ['owner'],
  'read the audit log': ['owner'],
} as const satisfies Record<string, readonly AdminRole[]>

const RANK: Readonly<Record<AdminRole, number>> = { editor: 0, admin: 1, owner: 2 }

/** Whether a member with `role` may use a route that needs `needed`. */
export function roleAllows(role: AdminRole, needed: AdminRole): boolean {
  return RANK[role] >= RANK[needed]
}

export function isAdminRole(value: unknown): value is AdminRole {
  return (ADMIN_ROLES as readonly unknown[]).includes(value)
}

/** E-mail addresses are compared and stored lower-case, without surrounding space. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}
