/** Guests' personal data: removed after each club's retention period, exported or erased on request. */
import type { Command } from 'commander'
import type { AppContext } from '../../context.js'
import { OPERATOR } from '../../services/audit.js'
import { requireClub } from '../../services/clubs.js'
import { erasePersonalData, exportPersonalData } from '../../services/personal-data.js'
import { applyRetention } from '../../services/retention.js'
import type { PersonalDataRequest } from '../../services/personal-data.js'
import { emailOption } from '../options.js'
import { jsonOption } from '../session.js'
import type { CliSession } from '../session.js'

/** retention: applies the retention periods now. */
export function registerRetention(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  program.command('retention').description('remove guests\' data past their club\'s retention period now (the server does so hourly)')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated()
      const report = await applyRetention(ctx.db, clock.now())
      print(options.json === true, { bookings_anonymised: report.bookingsAnonymised, mails_deleted: report.mailsDeleted,
        idempotency_records_deleted: report.idempotencyRecordsDeleted,
        webhook_deliveries_deleted: report.webhookDeliveriesDeleted, webhook_messages_deleted: report.webhookMessagesDeleted },
      `Anonymised ${String(report.bookingsAnonymised)} bookings, deleted ${String(report.mailsDeleted)} mails, `
      + `${String(report.idempotencyRecordsDeleted)} idempotency records, ${String(report.webhookDeliveriesDeleted)} webhook `
      + `deliveries and ${String(report.webhookMessagesDeleted)} webhook messages.`)
    })
}

/** personal-data export and erase. */
export function registerPersonalData(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const personal = program.command('personal-data').description('export or erase everything held about one e-mail address')
  personal.command('export').description('print everything held about an address: bookings, mails, idempotency records, member records')
    .requiredOption('--email <address>', 'the address')
    .option('--club <slug>', 'only at this club (default: at every club)')
    .addOption(jsonOption())
    .action(async (options: { email: string, club?: string, json?: boolean }) => {
      const email = emailOption(options.email)
      const ctx = await migrated()
      const data = await exportPersonalData(ctx.db, clock, await personalDataRequest(ctx, email, options.club))
      print(options.json === true, data, `${String(data.bookings.length)} bookings, ${String(data.mails.length)} mails, `
      + `${String(data.idempotency_records.length)} idempotency records, ${String(data.members.length)} member records `
      + 'held about this address (--json prints them).')
    })
  personal.command('erase').description('remove an address from every booking (upcoming ones are cancelled) and delete its mails')
    .requiredOption('--email <address>', 'the address')
    .option('--club <slug>', 'only at this club (default: at every club)')
    .addOption(jsonOption())
    .action(async (options: { email: string, club?: string, json?: boolean }) => {
      const email = emailOption(options.email)
      const ctx = await migrated()
      const erased = await erasePersonalData(ctx.db, clock, await personalDataRequest(ctx, email, options.club))
      print(options.json === true, { bookings: erased.bookings, mails: erased.mails,
        idempotency_records: erased.idempotencyRecords, member_records_kept: erased.memberRecordsKept },
      `Erased the address from ${String(erased.bookings)} bookings and `
      + `deleted ${String(erased.mails)} mails.${erased.memberRecordsKept > 0
        ? ` ${String(erased.memberRecordsKept)} member `
        + 'records remain: they come from the club\'s member list and are changed there.'
        : ''}`)
    })
}

/** The operator's request about an address: at one club (--club) or at every club. */
async function personalDataRequest(ctx: AppContext, email: string, slug: string | undefined): Promise<PersonalDataRequest> {
  const club = slug === undefined ? undefined : await requireClub(ctx.db, slug)
  return { email, clubId: club?.id ?? null, actor: OPERATOR }
}
