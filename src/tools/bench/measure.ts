/**
 * Load and its measure: the Node.js generator and wrk, the bare baseline that answers the service's
 * bytes, the server's garbage collections, and one scenario measured against its baseline.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { freePort, listening } from '../free-port.js'
import { connections, quick, rounds, seconds } from './options.js'

interface Request { method: string, path: string, headers: Record<string, string>, body?: string }
export interface Scenario {
  name: string
  /** The next request, for the Node.js generator (--quick) and for the sample the baseline replays. */
  requests: () => Request
  /** wrk: the sample request every time ('fixed'), or the requests of a Lua script ('script'). */
  wrk?: 'fixed' | 'script'
  lua?: string
}
export interface Result { req_s: number, p50_ms: number, p99_ms: number, errors: number, timeouts?: number, gc?: Collections }
/** The service's garbage collections during a round, from its /metrics (V8's kinds: minor, major, incremental, weakcb). */
interface Collections { ms: Record<string, number>, count: Record<string, number> }

/** A closed-loop load generator: `connections` keep-alive connections, each sending the next request on an answer. */
async function drive(base: string, scenario: Scenario, duration: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const latencies: number[] = []
  let errors = 0
  const until = performance.now() + duration * 1000
  const one = (request: Request) => new Promise<void>((resolve) => {
    const started = performance.now()
    const req = http.request(`${base}${request.path}`, { method: request.method, headers: request.headers, agent }, (res) => {
      res.resume()
      res.on('end', () => {
        latencies.push(performance.now() - started)
        resolve()
      })
    })
    req.on('error', () => {
      errors++
      resolve()
    })
    req.end(request.body)
  })
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) await one(scenario.requests())
  }))
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
  return { req_s: latencies.length / duration, p50_ms: q(0.5), p99_ms: q(0.99), errors }
}

/** wrk's threads: two, for two cores. */
export const WRK_THREADS = 2

/**
 * One wrk run. A script gets the run's number within its scenario and the scenario's number of runs
 * (`-- run runs`): the bookings' script gives each run and thread a range of slots of its own.
 */
export function wrk(base: string, request: Request, duration: number,
  script?: { file: string, run: number, runs: number }): Result {
  const args = [`-t${String(WRK_THREADS)}`, `-c${String(connections)}`, `-d${String(duration)}s`, '--latency',
    ...(script === undefined
      ? Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
      : ['-s', script.file]),
    `${base}${request.path}`, ...(script === undefined ? [] : ['--', String(script.run), String(script.runs)])]
  const text = execFileSync('wrk', args, { encoding: 'utf8' })
  const unit = (value: string, suffix: string) => Number(value) * (suffix === 'us' ? 0.001 : suffix === 's' ? 1000 : 1)
  const latency = (label: string) => {
    const match = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(text)
    return match === null ? 0 : unit(match[1] ?? '0', match[2] ?? 'ms')
  }
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text)
  // A request wrk gave up on (2 s) counts in no percentile: it is reported beside them.
  const timeouts = /Socket errors: .*timeout (\d+)/.exec(text)
  return { req_s: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0), p50_ms: latency('50'), p99_ms: latency('99'),
    errors: errors === null ? 0 : Number(errors[1]), timeouts: timeouts === null ? 0 : Number(timeouts[1]) }
}

/** The baseline: a bare node:http process answering, for every request, the bytes the service gave. */
interface Answer { status: number, headers: Record<string, string>, body: Buffer }

async function baselineServer({ status, headers, body }: Answer): Promise<{ child: ChildProcess, base: string }> {
  const port = await freePort()
  // The body in a file of its own: a script argument has a size limit.
  const file = path.join(os.tmpdir(), `club-platform-bench-body-${randomUUID()}`)
  fs.writeFileSync(file, body)
  const script = `const http = require('node:http');
const body = require('node:fs').readFileSync(${JSON.stringify(file)});
require('node:fs').rmSync(${JSON.stringify(file)});
const headers = ${JSON.stringify(headers)};
http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(${String(status)}, headers); res.end(body) }) })
  .listen(${String(port)}, '127.0.0.1');`
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${String(port)}`
  await listening(port)
  return { child, base }
}

/** One answer as it came over the wire (node:http: fetch would decode a compressed body). */
async function sample(base: string, request: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${request.path}`, { method: request.method, headers: request.headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = String(value)
        }
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
      })
    })
    req.on('error', reject)
    req.end(request.body)
  })
}

/** The server's collections so far (nodejs_gc_duration_seconds from its /metrics), in milliseconds and counts by kind. */
async function collections(base: string): Promise<Collections> {
  const text = (await sample(base, { method: 'GET', path: '/metrics', headers: {} })).body.toString()
  const ms: Record<string, number> = {}
  const count: Record<string, number> = {}
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const [, part = '', kind = '', value = '0'] = match
    if (part === 'sum') ms[kind] = Number(value) * 1000
    else count[kind] = Number(value)
  }
  return { ms, count }
}

/** What a run did between two readings of collections. */
function collectionsBetween(before: Collections, after: Collections): Collections {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([kind, value]) => [kind, Math.round((value - (b[kind] ?? 0)) * 10) / 10]))
  return { ms: minus(after.ms, before.ms), count: minus(after.count, before.count) }
}

/**
 * `server`: 'one' when one process serves (its /metrics are the server's collections); with
 * several (scale-out), each reading would come from whichever answered, so none is taken.
 */
export async function measure(base: string, scenario: Scenario, server: 'one' | 'several' = 'one'): Promise<Record<string, unknown>> {
  // One request first: it warms the path, and uses up the exhausted key's only token.
  await sample(base, scenario.requests())
  const example = scenario.requests()
  const answer = await sample(base, example)
  const useWrk = !quick && scenario.wrk !== undefined
  const lua = scenario.wrk === 'script' ? scenario.lua : undefined
  const script = (run: number) => (lua === undefined ? undefined : { file: lua, run, runs: 2 * rounds })
  const bare = await baselineServer(answer)
  const best = (a: Result | undefined, b: Result) => (a === undefined || b.req_s > a.req_s ? b : a)
  let service: Result | undefined
  let baseline: Result | undefined
  for (let round = 0; round < rounds; round++) {
    const before = server === 'one' ? await collections(base) : undefined
    const result = useWrk ? wrk(base, example, seconds, script(2 * round)) : await drive(base, scenario, seconds)
    const collected = before === undefined ? undefined : collectionsBetween(before, await collections(base))
    service = best(service, collected === undefined ? result : { ...result, gc: collected })
    baseline = best(baseline, useWrk
      ? wrk(bare.base, example, seconds, script(2 * round + 1))
      : await drive(bare.base, { ...scenario, requests: () => example }, seconds))
  }
  bare.child.kill()
  if (service === undefined || baseline === undefined) throw new Error('--rounds must be at least 1')
  const gc = Object.entries(service.gc?.ms ?? {}).map(([kind, ms]) => `${kind} ${ms.toFixed(0)} ms × ${String(service.gc?.count[kind])}`)
  process.stderr.write(`${scenario.name}: ${service.req_s.toFixed(0)} req/s vs ${baseline.req_s.toFixed(0)}`
    + `${gc.length === 0 ? '' : ` (collections: ${gc.join(', ')})`}\n`)
  return { scenario: scenario.name, status: answer.status, bytes: answer.body.length, generator: useWrk ? 'wrk' : 'node',
    service, baseline, ratio: baseline.req_s === 0 ? 0 : service.req_s / baseline.req_s }
}
