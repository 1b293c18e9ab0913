import type { Command } from 'commander'
import { Option } from 'commander'
import { shiftedClock } from '../clock.js'
import type { Clock } from '../clock.js'
import { readConfig } from '../config.js'
import type { Config } from '../config.js'
import { createContext } from '../context.js'
import type { AppContext } from '../context.js'
import { migrateToLatest } from '../db/migrate.js'

export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly clock?: Clock
}

/**
 * What every command works with during one run: its output, the server's clock and the database,
 * connected on first use and closed when the run ends.
 */
export interface CliSession {
  readonly io: CliIo
  readonly clock: Clock
  /** The settings, when something has read them (a failure is described in their terms). */
  readonly config: () => Config | undefined
  /** The context on the server's settings, as it is (backup, openapi). */
  readonly open: () => Promise<AppContext>
  /** The context, its database migrated to the latest schema first. */
  readonly migrated: () => Promise<AppContext>
  /** Prints `value` as JSON with --json, else `text`. */
  readonly print: (json: boolean, value: unknown, text: string) => void
  readonly close: () => Promise<void>
}

/** Adds one command or command group to the program. */
export type RegisterCommands = (program: Command, cli: CliSession) => void

export function cliSession(io: CliIo): CliSession {
  let context: AppContext | undefined
  let config: Config | undefined
  const settings = (): Config => config ??= readConfig(io.env)
  // The server's clock (CLOCK_OFFSET_SECONDS moves it), read from the settings when first asked.
  const clock: Clock = io.clock ?? { now: () => shiftedClock(settings().clockOffsetMs).now() }
  const open = async (): Promise<AppContext> => {
    config = settings()
    context ??= await createContext(config, { clock, role: 'admin' })
    return context
  }
  return {
    io,
    clock,
    config: () => config,
    open,
    migrated: async () => {
      const ctx = await open()
      await migrateToLatest(ctx.db)
      return ctx
    },
    print: (json, value, text) => {
      io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
    },
    close: async () => {
      await context?.close()
    },
  }
}

export const jsonOption = (): Option => new Option('--json', 'print machine-readable JSON')

/** Columns padded to their widest cell, two spaces apart. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}
