/** The database itself: its schema (migrate) and a copy of it (backup). */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Command } from 'commander'
import { migrateToLatest } from '../../db/migrate.js'
import { InvalidInput } from '../../domain/errors.js'
import { jsonOption } from '../session.js'
import type { CliSession } from '../session.js'

/** migrate: applies pending migrations. */
export function registerMigrate(program: Command, cli: CliSession): void {
  const { open, print } = cli
  program.command('migrate').description('apply pending database migrations').addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await open()
      const outcome = await migrateToLatest(ctx.db)
      print(options.json === true, outcome, outcome.applied.length === 0
        ? 'The database schema is up to date.'
        : `Applied: ${outcome.applied.join(', ')}`)
    })
}

/** backup: copies the SQLite database while the server runs. */
export function registerBackup(program: Command, cli: CliSession): void {
  const { open, print } = cli
  program.command('backup').description('copy the SQLite database while the server runs (PostgreSQL: use pg_dump)')
    .argument('<file>', 'where to write the copy; it must not exist yet')
    .addOption(jsonOption())
    .action(async (file: string, options: { json?: boolean }) => {
      const ctx = await open()
      if (ctx.backup === undefined) {
        throw new InvalidInput('the database is PostgreSQL: back it up with pg_dump (see docs/operations.md)')
      }
      try {
        await fs.access(file)
        throw new InvalidInput(`${file} exists already; choose a new file`)
      } catch (error) {
        if (error instanceof InvalidInput) throw error
      }
      const target = path.resolve(file)
      await ctx.backup(target)
      print(options.json === true, { file: target }, `Backed up the database to ${target}.`)
    })
}
