/** The benchmark's command line (docs/performance.md, "Running the benchmark"), read once. */
import { parseArgs } from 'node:util'

export const { values } = parseArgs({ options: {
  quick: { type: 'boolean', default: false },
  seconds: { type: 'string' },
  connections: { type: 'string' },
  /** Service and baseline alternate this many times; the best round of each counts (the machine is shared). */
  rounds: { type: 'string' },
  out: { type: 'string', default: 'bench-results.json' },
  /** Run only the scenarios whose name contains this text (or one of several, separated by `|`). */
  only: { type: 'string' },
  /** Write the server's CPU profile (node --cpu-prof) to this directory. */
  profile: { type: 'string' },
  clubs: { type: 'string' },
  /** The scale run (src/tools/bench/scale.ts): PostgreSQL at a platform's size (--clubs, 10,000) against a small database. */
  scale: { type: 'boolean', default: false },
  /** With --scale: the databases measured, `postgres`, `sqlite` or both (SQLite with a fifth of the clubs). */
  databases: { type: 'string' },
} })
export const quick = values.quick
export const seconds = Number(values.seconds ?? (quick ? '2' : values.scale ? '10' : '5'))
export const rounds = Number(values.rounds ?? (quick ? '1' : '3'))
export const connections = Number(values.connections ?? (values.scale ? '32' : '50'))
export const clubs = Number(values.clubs ?? (quick ? '20' : values.scale ? '10000' : '1000'))
