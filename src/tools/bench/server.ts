/** The server under test: started as `npm start` runs it, its memory, and the mail it still has to deliver. */
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { loadSqliteDriver } from '../../db/sqlite-driver.js'
import { freePort } from '../free-port.js'
import { values } from './options.js'

/** Waits until `url` answers 2xx (30 s at most). */
export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer`)
}

/** Limits raised so that the limiter runs on every request but never refuses one. */
const RAISED_LIMITS = { RATE_LIMIT_CAPACITY: '1000000', RATE_LIMIT_PER_MINUTE: '60000000', DAILY_QUOTA: '1000000000',
  PUBLIC_RATE_CAPACITY: '1000000', PUBLIC_RATE_PER_MINUTE: '60000000', BOOKING_RATE_CAPACITY: '1000000',
  BOOKING_RATE_PER_MINUTE: '60000000', BOOKING_MAX_OPEN_PER_EMAIL: '1000', BOOKING_MAX_PER_ADDRESS_PER_DAY: '100000',
  SIGN_IN_RATE_CAPACITY: '1000000', SIGN_IN_RATE_PER_HOUR: '3600000' }

interface RunningServer { base: string, child: ChildProcess, stop(): Promise<void>, rssMiB(): number[] }

/**
 * What `npm start` runs, read from package.json's start script (`[NAME=value …] node <flags>
 * dist/server.js`): its environment and Node.js flags, so that the server is measured as it is run.
 */
function startCommand(): { env: Record<string, string>, flags: string[] } {
  const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts?: Record<string, string> }
  const words = (manifest.scripts?.start ?? '').trim().split(/\s+/)
  const node = words.indexOf('node')
  const assignments = words.slice(0, Math.max(node, 0)).map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
  if (node < 0 || words.at(-1) !== 'dist/server.js' || assignments.some((match) => match === null)) {
    throw new Error(`package.json's start script is not "[NAME=value …] node <flags> dist/server.js": ${manifest.scripts?.start ?? '(none)'}`)
  }
  return { env: Object.fromEntries(assignments.map((match) => [match?.[1] ?? '', match?.[2] ?? ''])), flags: words.slice(node + 1, -1) }
}

export async function startBenchServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort()
  const profile = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`]
  const start = startCommand()
  const base = `http://127.0.0.1:${String(port)}`
  // The dashboard's origin is the address it is reached at: its sessions are made over it.
  const child = spawn(process.execPath, [...start.flags, ...profile, 'dist/server.js'], { stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...start.env, PUBLIC_URL: base, ...env, ...RAISED_LIMITS, PORT: String(port), LOG_LEVEL: 'warn' } })
  await waitFor(`${base}/healthz`)
  return {
    base,
    child,
    // With WORKERS, the processes that serve are the supervisor's children.
    rssMiB: () => {
      const pid = String(child.pid ?? 0)
      const ps = (args: string[]) => spawnSync('ps', args, { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter((field) => field !== '')
      const children = ps(['-o', 'pid=', '--ppid', pid])
      return (children.length > 0 ? children : [pid]).map((process) => Number(ps(['-o', 'rss=', '-p', process])[0] ?? 0) / 1024)
    },
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.on('exit', resolve))
    },
  }
}

export async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.end()
      resolve(true)
    })
    socket.on('error', () => {
      resolve(false)
    })
  })
}

/** The mail a scenario left due: how many mails, how long they took to go out, whether all did. */
export interface MailAfter { mails: number, seconds: number, drained: boolean }

/** How long a scenario's mail may take to go out before the next scenario starts anyway. */
const SETTLE_LIMIT_MS = 300_000

/**
 * Waits until the embedded server's mail outbox holds nothing to deliver (read from its SQLite
 * file, read-only, every 100 ms), and answers how many mails were due at first and how long they
 * took to go out; undefined when none was due. A scenario that queues mail (the bookings) leaves
 * thousands behind, which the server delivers over the next seconds: the next scenario, measured
 * meanwhile, would measure those deliveries too.
 */
export async function settle(file: string): Promise<MailAfter | undefined> {
  const database = new (loadSqliteDriver().Database)(file, { readonly: true, fileMustExist: true })
  try {
    const due = database.prepare('select count(*) as n from mail_outbox where status in (\'pending\', \'sending\')')
    const count = () => (due.get() as { n: number }).n
    const mails = count()
    if (mails === 0) return undefined
    const started = performance.now()
    let left = mails
    while (left > 0 && performance.now() - started < SETTLE_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      left = count()
    }
    return { mails, seconds: (performance.now() - started) / 1000, drained: left === 0 }
  } finally {
    database.close()
  }
}
