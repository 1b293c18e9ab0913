/** The benchmark's command line (docs/performance.md, "Running the benchmark"), read once. */
import { parseArgs } from 'node:util'

export const { values } = parseArgs({ options: {
  quick: { type: 'boolean', default: false },
  seconds: { type: 'string' },
  connections: { type: 'string', default: '50' },
  /** Service and baseline alternate this many times; the best round of each counts (the machine is shared). */
  rounds: { type: 'string' },
  out: { type: 'string', default: 'bench-results.json' },
  /** Run only the scenarios whose name contains this text (or one of several, separated by `|`). */
  only: { type: 'string' },
  /** Write the server's CPU profile (node --cpu-prof) to this directory. */
  profile: { type: 'string' },
  clubs: { type: 'string' },
} })
export const quick = values.quick
export const seconds = Number(values.seconds ?? (quick ? '2' : '5'))
export const rounds = Number(values.rounds ?? (quick ? '1' : '3'))
export const connections = Number(values.connections)
export const clubs = Number(values.clubs ?? (quick ? '20' : '1000'))
