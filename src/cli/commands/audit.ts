/** audit: the dashboard's audit log, newest first. */
import type { Command } from 'commander'
import { InvalidInput } from '../../domain/errors.js'
import { auditLog } from '../../services/audit.js'
import { requireClub } from '../../services/clubs.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** audit: prints the audit log. */
export function registerAudit(program: Command, cli: CliSession): void {
  const { migrated, print } = cli
  program.command('audit').description('print the audit log of the dashboard (newest first)')
    .option('--club <slug>', 'only this club\'s entries')
    .option('--limit <n>', 'how many entries', '50')
    .addOption(jsonOption())
    .action(async (options: { club?: string, limit: string, json?: boolean }) => {
      if (!/^\d{1,4}$/.test(options.limit) || Number(options.limit) < 1) throw new InvalidInput('--limit: a number from 1 to 9999')
      const ctx = await migrated()
      const club = options.club === undefined ? undefined : await requireClub(ctx.db, options.club)
      const entries = await auditLog(ctx.db, club?.id, {}, Number(options.limit))
      print(options.json === true, entries.map((entry) => ({ created_at: entry.createdAt, club_id: entry.clubId,
        actor: entry.actor, action: entry.action, target: entry.target, target_name: entry.targetName, fields: entry.fields,
        detail: entry.detail, address: entry.address })),
      entries.length === 0
        ? 'The audit log is empty.'
        : table(['time', 'actor', 'action', 'target', 'fields', 'detail', 'address'], entries.map((entry) => [entry.createdAt,
            entry.actor, entry.action, entry.targetName ?? entry.target ?? '', entry.fields?.join(' ') ?? '', entry.detail ?? '',
            entry.address ?? ''])))
    })
}
