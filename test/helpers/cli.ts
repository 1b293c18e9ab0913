import { runCli } from '../../src/cli/main.js'
import type { Clock } from '../../src/clock.js'
import { testClockEnv } from './today.js'

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  json<T = unknown>(): T
}

/**
 * Runs the command line in-process, with its own database connection, as a separate process would;
 * on `clock`, or else on the run's clock (test/helpers/today.ts).
 */
export async function cli(env: Record<string, string>, args: string[], clock?: Clock): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, {
    stdout: (text) => { stdout += text },
    stderr: (text) => { stderr += text },
    env: { LOG_LEVEL: 'silent', ...testClockEnv(), ...env },
    ...(clock ? { clock } : {}),
  })
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T }
}
