/**
 * The scale run's mail relay: an SMTP server on loopback (smtp-server) in a process of its own that
 * takes every message and keeps none, so that the service delivers its mail as it does in
 * production (pooled SMTP connections, MAIL_CONNECTIONS) rather than to files, whose creation
 * costs about 0.8 ms of kernel time each on a virtual machine's disk.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { freePort, listening } from '../free-port.js'

export interface SmtpSink {
  readonly url: string
  stop(): void
}

export async function smtpSink(): Promise<SmtpSink> {
  const port = await freePort()
  const script = `const { SMTPServer } = require('smtp-server');
new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], disableReverseLookup: true, logger: false,
  onData(stream, _session, callback) { stream.resume(); stream.on('end', () => callback()) } })
  .listen(${String(port)}, '127.0.0.1');`
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit'] })
  await listening(port)
  return { url: `smtp://127.0.0.1:${String(port)}`, stop: () => child.kill() }
}
