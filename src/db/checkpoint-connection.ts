/**
 * The connection of the checkpoint thread (src/speed/wal-checkpoints.ts): a connection of its own
 * to the database file, which runs SQLite's `wal_checkpoint` and nothing else. It loads only the
 * driver, so that the thread does without the rest of the service.
 */
import { loadSqliteDriver } from './sqlite-driver.js'

/** `passive` copies what it can without waiting; `truncate` (when idle) also empties the log file. */
export type CheckpointMode = 'passive' | 'truncate'

/** What SQLite's `wal_checkpoint` reports: pages in the log, and of those, copied into the database file. */
export interface CheckpointResult {
  readonly busy: number
  readonly log: number
  readonly checkpointed: number
}

export interface CheckpointConnection {
  /** Runs a checkpoint; throws what SQLite reports when it fails. */
  checkpoint(mode: CheckpointMode): CheckpointResult
  close(): void
}

export function openCheckpointConnection(file: string): CheckpointConnection {
  const database = new (loadSqliteDriver().Database)(file)
  // A truncating checkpoint that finds a reader or writer answers busy at once, instead of waiting for it.
  database.pragma('busy_timeout = 0')
  const statements = { passive: database.prepare('pragma wal_checkpoint(passive)'),
    truncate: database.prepare('pragma wal_checkpoint(truncate)') }
  return {
    checkpoint: (mode) => {
      const row = statements[mode].get() as CheckpointResult
      return { busy: row.busy, log: row.log, checkpointed: row.checkpointed }
    },
    close: () => {
      database.close()
    },
  }
}
