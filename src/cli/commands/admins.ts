/** admins: the people who administer a club in the dashboard. */
import type { Command } from 'commander'
import { Option } from 'commander'
import { ADMIN_ROLES } from '../../domain/admin-roles.js'
import type { AdminRole } from '../../domain/admin-roles.js'
import { dashboardSettings } from '../../http/dashboard-access.js'
import { inviteAdmin, removeAdmin, teamOf } from '../../services/admins.js'
import { OPERATOR } from '../../services/audit.js'
import { requireClub } from '../../services/clubs.js'
import { idArgument } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** admins invite, list and remove. */
export function registerAdmins(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const admins = program.command('admins').description('invite, list and remove the people who administer a club in the dashboard')
  admins.command('invite').description('invite someone to administer a club: mails the invitation and prints its link')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--email <address>', 'whom to invite')
    .addOption(new Option('--role <role>', 'owner (everything, incl. the team), admin (all but the team) or editor (content only)').choices(ADMIN_ROLES).default('owner'))
    .addOption(jsonOption())
    .action(async (options: { club: string, email: string, role: AdminRole, json?: boolean }) => {
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const { invitation, url } = await inviteAdmin(ctx.db, clock, dashboardSettings(ctx), {
        clubId: club.id, email: options.email, role: options.role, actor: OPERATOR })
      print(options.json === true, { invitation_id: invitation.id, club_slug: club.slug, email: invitation.email,
        role: invitation.role, expires_at: invitation.expiresAt, invitation_url: url },
      `Invited ${invitation.email} to administer ${club.slug} as ${invitation.role}; the invitation is mailed (the running `
      + `server sends it within a second). Its link, valid once until ${invitation.expiresAt}:\n\n  ${url}\n`)
    })
  admins.command('list').description('list the people who administer a club, and open invitations')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const team = await teamOf(ctx.db, clock, club.id)
      print(options.json === true, {
        members: team.members.map((member) => ({ admin_id: member.adminId, email: member.email, role: member.role,
          since: member.since, last_sign_in_at: member.lastSignInAt })),
        invitations: team.invitations.map((invitation) => ({ id: invitation.id, email: invitation.email, role: invitation.role,
          expires_at: invitation.expiresAt })),
      }, team.members.length + team.invitations.length === 0
        ? `Nobody administers ${club.slug} yet (invite someone with: club-platform admins invite --club ${club.slug} --email …).`
        : table(['admin id', 'e-mail', 'role', 'since', 'last sign-in'], [
            ...team.members.map((member) => [member.adminId, member.email, member.role, member.since, member.lastSignInAt ?? 'never']),
            ...team.invitations.map((invitation) => [`(invited) ${invitation.id}`, invitation.email, invitation.role,
              `until ${invitation.expiresAt}`, '']),
          ]))
    })
  admins.command('remove').description('stop someone administering a club (a club keeps at least one owner)')
    .requiredOption('--club <slug>', 'the club')
    .argument('<admin-id>', 'the id shown by admins list')
    .addOption(jsonOption())
    .action(async (adminId: string, options: { club: string, json?: boolean }) => {
      const id = idArgument(adminId, 'admin', 'admins list')
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      await removeAdmin(ctx.db, clock, { clubId: club.id, adminId: id, actor: OPERATOR })
      print(options.json === true, { admin_id: id, club_slug: club.slug, removed: true }, `Removed ${id} from ${club.slug}.`)
    })
}
