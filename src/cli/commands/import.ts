/** import and import-schema: a club's data from a JSON file (docs/import-format.md), and that file's schema. */
import type { Command } from 'commander'
import { ImportDocument } from '../../schemas/import.js'
import { requireClub } from '../../services/clubs.js'
import { importClubData } from '../../services/import.js'
import { displacedPolicy, readJsonFile } from '../options.js'
import { jsonOption } from '../session.js'
import type { CliSession } from '../session.js'

/** import: loads a file into a club. */
export function registerImport(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  program.command('import').description('load a club\'s data from a JSON file (format: docs/import-format.md)')
    .requiredOption('--club <slug>', 'the club')
    .argument('<file>', 'the JSON document')
    .option('--cancel-bookings', 'cancel upcoming bookings that the file\'s blocks and reservations cover (each guest is mailed); '
    + 'without it such a file is refused')
    .addOption(jsonOption())
    .action(async (file: string, options: { club: string, cancelBookings?: boolean, json?: boolean }) => {
      const document = await readJsonFile(file)
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const summary = await importClubData(ctx.db, clock, club.id, document,
        { displacedBookings: displacedPolicy(ctx, options.cancelBookings) })
      print(options.json === true, summary, `Imported into ${club.slug}: `
      + Object.entries(summary).map(([section, count]) => `${String(count)} ${section}`).join(', '))
    })
}

/** import-schema: prints the JSON Schema of the import file. */
export function registerImportSchema(program: Command, cli: CliSession): void {
  const { io } = cli
  program.command('import-schema').description('print the JSON Schema of the import file').action(() => {
    io.stdout(`${JSON.stringify(ImportDocument, null, 2)}\n`)
  })
}
