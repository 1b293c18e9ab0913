/** The benchmark's report: the JSON of the run, and a Markdown table of it on standard output. */
import fs from 'node:fs'
import os from 'node:os'
import type { Result } from './measure.js'
import { clubs, connections, quick, rounds, seconds, values } from './options.js'
import type { MailAfter } from './server.js'
import { COURTS_SCENARIO, PLANNER_SCENARIO } from './scenarios.js'

/** Writes the run's rows and the servers' memory (MiB, by mode) to --out, and prints them as a table. */
export function report(rows: Record<string, unknown>[], rss: Record<string, number>): void {
  const table = ['| mode | scenario | status | ratio | req/s | baseline req/s | p50 ms | p99 ms | non-2xx/3xx |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const service = row.service as Result
      const baseline = row.baseline as Result
      return `| ${String(row.mode)} | ${String(row.scenario)} | ${String(row.status)} | ${(row.ratio as number).toFixed(2)} | `
        + `${service.req_s.toFixed(0)} | ${baseline.req_s.toFixed(0)} | ${service.p50_ms.toFixed(2)} | ${service.p99_ms.toFixed(2)} | `
        + `${String(service.errors)} |`
    })].join('\n')
  const mailNotes = rows.flatMap((row) => {
    const settled = row.mail_after as MailAfter | undefined
    return settled === undefined
      ? []
      : [`After "${String(row.scenario)}", ${String(settled.mails)} mails were due; ${settled.drained
          ? `they went out in ${settled.seconds.toFixed(1)} s (${(settled.mails / settled.seconds).toFixed(0)} a second)`
          : `some were still due after ${settled.seconds.toFixed(0)} s`}, before the next scenario.`]
  })
  // The planner's day of a signed-in session against the public listing's day, both as the steady state answers them.
  const p99 = (name: string) => (rows.find((row) => row.mode === 'embedded' && row.scenario === name)?.service as Result | undefined)?.p99_ms
  const planner = p99(PLANNER_SCENARIO)
  const listing = p99(COURTS_SCENARIO)
  const plannerNote = planner === undefined || listing === undefined
    ? ''
    : `The planner's p99 ${planner.toFixed(2)} ms, the public listing's ${listing.toFixed(2)} ms: `
      + `${planner <= listing ? 'within it' : 'OVER it'}.\n\n`
  const summary = { when: new Date().toISOString(), quick, seconds, rounds, connections, clubs, node: process.version,
    cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', server_rss_mib_after: rss, rows }
  fs.writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
  process.stdout.write(`\n## Benchmark (${quick ? 'quick' : 'full'}: ${String(clubs)} clubs + one 10× club, best of ${String(rounds)} × `
    + `${String(seconds)} s per scenario, `
    + `${String(connections)} connections)\n\n${table}\n\n${mailNotes.map((note) => `${note}\n\n`).join('')}${plannerNote}Server RSS after the run (MiB, largest process): `
    + `${Object.entries(rss).map(([mode, mib]) => `${mode} ${mib.toFixed(0)}`).join(', ')}. JSON: ${values.out}\n`)
}
