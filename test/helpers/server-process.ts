/** The real server (dist/server.js) as a child process, for tests of what only a process shows. */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { testClockEnv } from './today.js'

export interface StartedServer {
  readonly child: ChildProcess
  readonly url: string
  /** Lines the server has written to stdout so far (JSON log lines). */
  readonly logs: string[]
}

/**
 * Starts it on a free port (PORT=0), on the run's clock (test/helpers/today.ts), its log beside the
 * harness apps' (test/global-setup.ts checks them all for keys), and resolves once
 * `processes` of them (WORKERS) listen; `nodeOptions` go to node before the script.
 */
export async function startServer(env: Record<string, string>, processes = 1, nodeOptions: readonly string[] = []):
Promise<StartedServer> {
  const child = spawn(process.execPath, [...nodeOptions, 'dist/server.js'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'info',
    ...testClockEnv(), ...env } })
  // Its log goes where the harness apps' go: the run fails at its end if any line holds a key.
  child.stdout.pipe(fs.createWriteStream(path.join(inject('serviceLogDir'), `${String(process.pid)}-server-${String(child.pid)}.ndjson`)))
  return { child, ...await listening(child, processes) }
}

/**
 * Resolves once `processes` servers started by `child` (with PORT=0, LOG_LEVEL=info, stdout piped)
 * have said where they listen: the first one's URL, and the log lines so far and to come.
 */
export async function listening(child: ChildProcess, processes = 1): Promise<{ url: string, logs: string[] }> {
  const logs: string[] = []
  let buffer = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      logs.push(...lines)
      const listening = [...logs.join('\n').matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g)]
      if (listening.length >= processes && listening[0]?.[1] !== undefined) resolve(listening[0][1])
    })
    child.on('exit', (code) => {
      reject(new Error(`server exited with ${String(code)}: ${logs.join('\n')}`))
    })
  })
  return { url, logs }
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => {
    resolve(code)
  }))
}

/** SIGTERM, and the process's exit awaited. */
export async function stopServer(server: StartedServer): Promise<void> {
  const stopped = exitOf(server.child)
  server.child.kill('SIGTERM')
  await stopped
}
