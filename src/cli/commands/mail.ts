/** mail: the outbox of mails, and sending a failed one again. */
import type { Command } from 'commander'
import { listMails, retryMail } from '../../db/repositories/outbox.js'
import { InvalidInput } from '../../domain/errors.js'
import { idArgument } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** mail list and retry. */
export function registerMail(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const mail = program.command('mail').description('inspect the outbox of confirmation mails and retry failed ones')
  mail.command('list').description('list mails in the outbox, oldest first')
    .option('--failed', 'only mails that failed for good')
    .addOption(jsonOption())
    .action(async (options: { failed?: boolean, json?: boolean }) => {
      const ctx = await migrated()
      const mails = await listMails(ctx.db, options.failed === true ? 'failed' : undefined)
      print(options.json === true, mails.map((m) => ({
        id: m.id, club_id: m.clubId, booking_id: m.bookingId, status: m.status, recipient: m.recipient, subject: m.subject,
        attempts: m.attempts, next_attempt_at: m.nextAttemptAt, last_error: m.lastError, created_at: m.createdAt,
        sent_at: m.sentAt,
      })), mails.length === 0
        ? (options.failed === true ? 'No failed mails.' : 'The outbox is empty.')
        : table(['id', 'status', 'attempts', 'recipient', 'created', 'last error'], mails.map((m) => [
            m.id, m.status, String(m.attempts), m.recipient, m.createdAt, (m.lastError ?? '').slice(0, 60),
          ])))
    })
  mail.command('retry').description('send a failed mail again (the running server picks it up within a second)')
    .argument('<mail-id>', 'the id shown by mail list')
    .addOption(jsonOption())
    .action(async (mailId: string, options: { json?: boolean }) => {
      const id = idArgument(mailId, 'mail', 'mail list')
      const ctx = await migrated()
      if (!await retryMail(ctx.db, id, clock.now())) {
        throw new InvalidInput(`no failed or waiting mail with the id ${mailId} (see: club-platform mail list)`)
      }
      print(options.json === true, { id, status: 'pending' }, `Mail ${id} will be sent again.`)
    })
}
