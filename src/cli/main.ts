/**
 * The `club-platform` command line: administration of clubs, keys and data, on the same
 * database settings as the server. `runCli` takes its arguments, output streams and environment,
 * so tests run it in-process; bin/club-platform.js runs it for real. Each command group lives in
 * its own module under commands/.
 */
import { Command, CommanderError } from 'commander'
import { ConfigError } from '../config.js'
import { DomainError, InvalidInput } from '../domain/errors.js'
import { describeFailure } from '../startup-errors.js'
import { registerAdmins } from './commands/admins.js'
import { registerAudit } from './commands/audit.js'
import { registerBookings } from './commands/bookings.js'
import { registerSeries } from './commands/series.js'
import { registerClubs } from './commands/clubs.js'
import { registerCourts } from './commands/courts.js'
import { registerBackup, registerMigrate } from './commands/database.js'
import { registerDemo } from './commands/demo.js'
import { registerImport, registerImportSchema } from './commands/import.js'
import { registerKeys } from './commands/keys.js'
import { registerFeeds } from './commands/feeds.js'
import { registerMail } from './commands/mail.js'
import { registerOpenApi } from './commands/openapi.js'
import { registerPersonalData, registerRetention } from './commands/personal-data.js'
import { cliSession } from './session.js'
import type { CliIo, RegisterCommands } from './session.js'

export type { CliIo } from './session.js'

/** The commands in the order the help lists them. */
const COMMANDS: readonly RegisterCommands[] = [
  registerMigrate, registerClubs, registerKeys, registerAdmins, registerAudit, registerImport, registerBackup,
  registerImportSchema, registerDemo, registerCourts, registerBookings, registerSeries, registerRetention, registerPersonalData,
  registerMail, registerOpenApi, registerFeeds,
]

/** Runs one command; resolves to the process exit code (0 ok, 1 failed, 2 usage error). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const cli = cliSession(io)
  const program = new Command('club-platform')
    .description('Administer Club Platform: clubs, API keys, data import and demo data.\n'
      + 'Uses the same settings as the server: DATABASE_URL (postgres://… for PostgreSQL; unset: SQLite in DATA_DIR).')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(add --help for usage)')
  for (const register of COMMANDS) register(program, cli)

  try {
    await program.parseAsync([...argv], { from: 'user' })
    return 0
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    if (error instanceof InvalidInput || error instanceof ConfigError || error instanceof DomainError) {
      io.stderr(`club-platform: ${error.message}\n`)
      return 1
    }
    io.stderr(`club-platform: ${describeFailure(error, cli.config())}\n`)
    return 1
  } finally {
    await cli.close()
  }
}
