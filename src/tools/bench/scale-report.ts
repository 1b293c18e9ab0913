/** The scale run's report: each figure small and large with its growth, the targets it meets, and the JSON of the run. */
import fs from 'node:fs'
import os from 'node:os'
import type { Result } from './measure.js'
import { values } from './options.js'

export interface SizeFigures {
  clubs: number
  seedSeconds: number
  readySeconds?: number
  retentionSeconds?: number
  exitSeconds?: number
  bookableSlots?: number
  scenarios: Record<string, ScenarioFigures>
  mail?: { pendingAtEnd: number, pendingAfter10s: number, drainedSeconds: number | null }
  backlogExit?: { bookings: number, stillRunning: boolean, seconds: number }
}

/** A scenario's wrk figures; `bounded`: its p99 may grow 1.5× at most; the response cache's hit rate when it was asked. */
export type ScenarioFigures = Result & { bounded: boolean, hit_rate?: number, cpu?: { service_ms: number, database_ms: number } }

type Sizes = Partial<Record<'postgres' | 'sqlite', { small: SizeFigures, large: SizeFigures }>>

const BOOKING = 'booking, distinct free slots'
const ms = (value: number) => value.toFixed(value < 10 ? 1 : 0)
/** The server's CPU per request, and PostgreSQL's (none on SQLite, which works in the server's process). */
const cpu = (result: ScenarioFigures | undefined, postgres: boolean) => (result?.cpu === undefined
  ? '–'
  : `${result.cpu.service_ms.toFixed(2)} ms${postgres ? `; ${result.cpu.database_ms.toFixed(2)} ms` : ''}`)
const s = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1))

function growthTable(small: SizeFigures, large: SizeFigures, postgres: boolean): string[] {
  const hits = (result: ScenarioFigures | undefined) => (result?.hit_rate === undefined ? '' : ` (${(100 * result.hit_rate).toFixed(0)} % hits)`)
  return [`| scenario | req/s (${String(small.clubs)} clubs) | p99 ms | req/s (${String(large.clubs)} clubs) | p99 ms | p99 growth `
    + '| non-2xx, timeouts (small; large) |', '|---|---|---|---|---|---|---|',
  ...Object.entries(large.scenarios).map(([name, result]) => {
    const before = small.scenarios[name]
    const growth = before === undefined || before.p99_ms === 0 ? '–' : `${(result.p99_ms / before.p99_ms).toFixed(2)}×`
    return `| ${name}${result.bounded ? '' : ' (not bounded)'} | ${before === undefined ? '–' : before.req_s.toFixed(0)}${hits(before)} `
      + `| ${before === undefined ? '–' : ms(before.p99_ms)} | ${result.req_s.toFixed(0)}${hits(result)} | ${ms(result.p99_ms)} | ${growth} `
      + `| ${before === undefined ? '–' : `${String(before.errors)}, ${String(before.timeouts ?? 0)}`}; `
      + `${String(result.errors)}, ${String(result.timeouts ?? 0)} |`
  }),
  '', '| | small | large |', '|---|---|---|',
  `| seed | ${s(small.seedSeconds)} s | ${s(large.seedSeconds)} s |`,
  `| start until ready | ${s(small.readySeconds)} s | ${s(large.readySeconds)} s |`,
  `| retention run, nothing to remove | ${s(small.retentionSeconds)} s | ${s(large.retentionSeconds)} s |`,
  `| mail due when the bookings ended, 10 s later | ${String(small.mail?.pendingAtEnd)}, ${String(small.mail?.pendingAfter10s)} `
  + `| ${String(large.mail?.pendingAtEnd)}, ${String(large.mail?.pendingAfter10s)} |`,
  `| CPU per booking: the server${postgres ? '; PostgreSQL' : ''} | ${cpu(small.scenarios[BOOKING], postgres)} `
  + `| ${cpu(large.scenarios[BOOKING], postgres)} |`,
  `| exit after SIGTERM, idle | ${s(small.exitSeconds)} s | ${s(large.exitSeconds)} s |`,
  `| exit after SIGTERM, retention backlog (bookings; run under way) | ${s(small.backlogExit?.seconds)} s `
  + `(${String(small.backlogExit?.bookings)}; ${small.backlogExit?.stillRunning === true ? 'yes' : 'no'}) `
  + `| ${s(large.backlogExit?.seconds)} s (${String(large.backlogExit?.bookings)}; ${large.backlogExit?.stillRunning === true ? 'yes' : 'no'}) |`]
}

/** The acceptance targets of docs/performance.md, "At a platform's size", each with what this run measured. */
function targets(sizes: Sizes): string[] {
  const lines: string[] = []
  const check = (ok: boolean, text: string) => lines.push(`- ${ok ? 'met' : 'MISSED'}: ${text}`)
  for (const [kind, pair] of Object.entries(sizes)) {
    const { small, large } = pair
    for (const [name, result] of Object.entries(large.scenarios)) {
      const before = small.scenarios[name]
      if (before === undefined || !result.bounded || (kind === 'sqlite' && !name.startsWith('courts') && name !== BOOKING)) continue
      check(result.p99_ms <= 1.5 * before.p99_ms && before.errors === 0, `${kind}, ${name}: p99 ${ms(result.p99_ms)} ms ≤ 1.5 × `
      + `${ms(before.p99_ms)} ms${before.errors === 0 ? '' : ` (the small run's ${String(before.errors)} non-2xx answers make it no measure)`}`)
    }
    if (kind !== 'postgres') continue
    const booking = large.scenarios[BOOKING]
    if (booking !== undefined) {
      check(booking.p99_ms <= 250 && booking.errors === 0 && (booking.timeouts ?? 0) === 0, `booking p99 ${ms(booking.p99_ms)} ms `
      + `≤ 250 ms, ${String(booking.errors)} non-2xx answers, ${String(booking.timeouts ?? 0)} timeouts`)
    }
    const sqlite = sizes.sqlite?.large.scenarios[BOOKING]
    if (booking !== undefined && sqlite !== undefined) {
      check(booking.req_s >= 0.7 * sqlite.req_s, `PostgreSQL bookings ${booking.req_s.toFixed(0)}/s ≥ 0.7 × SQLite's `
      + `${sqlite.req_s.toFixed(0)}/s`)
    }
    check(large.mail?.pendingAfter10s === 0, `mail due 10 s after the bookings: ${String(large.mail?.pendingAfter10s)}`)
    check((large.retentionSeconds ?? Infinity) <= 5, `retention with nothing to remove: ${s(large.retentionSeconds)} s ≤ 5 s`)
    check((large.readySeconds ?? Infinity) <= 10, `ready after start: ${s(large.readySeconds)} s ≤ 10 s`)
    check(Math.max(large.exitSeconds ?? Infinity, large.backlogExit?.seconds ?? Infinity) <= 10,
      `exit after SIGTERM: ${s(large.exitSeconds)} s idle, ${s(large.backlogExit?.seconds)} s during a retention backlog, ≤ 10 s`)
  }
  return lines
}

export function reportScale(sizes: Sizes, run: { seconds: number, connections: number }): void {
  const sections = Object.entries(sizes).map(([kind, pair]) => `### ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}\n\n`
    + `${growthTable(pair.small, pair.large, kind === 'postgres').join('\n')}\n`)
  const summary = { when: new Date().toISOString(), scale: true, ...run, node: process.version, cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? '', sizes }
  fs.writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
  process.stdout.write(`\n## Benchmark at scale (wrk, ${String(run.connections)} connections, ${String(run.seconds)} s per scenario)\n\n`
    + `${sections.join('\n')}\n### Targets\n\n${targets(sizes).join('\n')}\n\nJSON: ${values.out}\n`)
}
