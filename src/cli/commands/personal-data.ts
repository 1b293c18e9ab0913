/** Guests' personal data: removed after each club's retention period, exported or erased on request. */
import type { Command } from 'commander'
import type { AppContext } from '../../context.js'
import { OPERATOR } from '../../services/audit.js'
import { requireClub } from '../../services/clubs.js'
import { erasePersonalData, exportPersonalData } from '../../services/personal-data.js'
import type { PersonalDataRequest } from '../../services/personal-data.js'
import { emailOption } from '../options.js'
import { jsonOption } from '../session.js'
import type { CliSession } from '../session.js'

/**
 * retention: applies the retention periods now, as the server's hourly run does and under the same
 * lease (src/services/periodic-job.ts): not while another process's run is under way, recorded as
 * the last run, and stopped between two batches by Ctrl-C or SIGTERM, the rest left to the next run.
 */
export function registerRetention(program: Command, cli: CliSession): void {
  const { migrated, print } = cli
  program.command('retention').description('remove guests\' data past their club\'s retention period now (the server does so hourly)')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated()
      const stop = () => {
        void ctx.retention.stop()
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      const run = await ctx.retention.runNow().finally(() => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
      })
      const report = run.detail?.retention
      const counts = { bookings_anonymised: report?.bookingsAnonymised ?? 0, mails_deleted: report?.mailsDeleted ?? 0,
        idempotency_records_deleted: report?.idempotencyRecordsDeleted ?? 0,
        webhook_deliveries_deleted: report?.webhookDeliveriesDeleted ?? 0,
        webhook_messages_deleted: report?.webhookMessagesDeleted ?? 0,
        waiting_list_entries_deleted: report?.waitingEntriesDeleted ?? 0 }
      const done = `Anonymised ${String(counts.bookings_anonymised)} bookings, deleted ${String(counts.mails_deleted)} mails, `
        + `${String(counts.idempotency_records_deleted)} idempotency records, ${String(counts.webhook_deliveries_deleted)} webhook `
        + `deliveries, ${String(counts.webhook_messages_deleted)} webhook messages and ${String(counts.waiting_list_entries_deleted)} `
        + 'waiting list entries.'
      print(options.json === true, { outcome: run.outcome, ...counts }, {
        complete: done,
        stopped: `Stopped before the work was done: ${done} The next run goes on.`,
        skipped: 'Another process is applying the retention periods now; nothing was done.',
      }[run.outcome])
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
      + `${String(data.idempotency_records.length)} idempotency records, ${String(data.waiting_list.length)} waiting list entries, `
      + `${String(data.members.length)} member records `
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
        idempotency_records: erased.idempotencyRecords, waiting_list_entries: erased.waitingEntries,
        member_records_kept: erased.memberRecordsKept },
      `Erased the address from ${String(erased.bookings)} bookings and `
      + `deleted ${String(erased.mails)} mails and ${String(erased.waitingEntries)} waiting list entries.${erased.memberRecordsKept > 0
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
