/**
 * How fast the mail worker empties a backlog: N pending mails (bodies of about 3.5 KB, as the service
 * writes them) sent over real SMTP to a relay on loopback (smtp-server, in this process), on the
 * server's mail thread, with MAIL_CONNECTIONS connections. Prints mails a second.
 *
 *   npm run build && node scripts/mail-drain.js [connections] [DATABASE_URL] [mails]
 *
 * Without DATABASE_URL, SQLite in a temporary directory; with MAIL_DRAIN_FILES=1, to `.eml` files as a
 * server without SMTP_URL delivers (as the benchmark's server does). The relay shares this process's cores: the
 * figures are for comparing settings and versions on one machine, not a relay's capacity.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import process from 'node:process'
import { SMTPServer } from 'smtp-server'
import { readConfig } from '../dist/config.js'
import { createContext } from '../dist/context.js'
import { createClub } from '../dist/services/clubs.js'

const [connections = '4', databaseUrl = '', count = '3000'] = process.argv.slice(2)
const mails = Number(count)
let received = 0
const relay = new SMTPServer({
  authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
  onData(stream, _session, callback) {
    stream.resume()
    stream.on('end', () => {
      received += 1
      callback()
    })
  },
})
await new Promise((resolve) => {
  relay.listen(0, '127.0.0.1', () => {
    resolve(undefined)
  })
})
const { port } = /** @type {import('node:net').AddressInfo} */ (relay.server.address())
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-mail-drain-'))
const toFiles = process.env.MAIL_DRAIN_FILES === '1'
const config = readConfig({ DATA_DIR: dir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', MAIL_CONNECTIONS: connections,
  ...(toFiles ? {} : { SMTP_URL: `smtp://127.0.0.1:${String(port)}` }) })
const clock = { now: () => Date.now() }
const context = await createContext(config, { clock, migrate: true, mailThread: true })
const club = await createClub(context.db, clock, { slug: `drain-${randomUUID().slice(0, 8)}`, name: 'Drain', timezone: 'UTC' })
for (let i = 0; i < mails; i += 500) {
  const at = new Date().toISOString()
  await context.db.insertInto('mail_outbox').values(Array.from({ length: Math.min(500, mails - i) }, (_, j) => {
    const id = randomUUID()
    return { id, club_id: club.id, booking_id: null, message_id: `<${id}@drain.example>`, recipient_name: 'Guest',
      recipient_email: `guest${String(i + j)}@example.org`, subject: 'Your booking', text_body: 't'.repeat(1500),
      html_body: `<p>${'h'.repeat(2000)}</p>`, ics: null, status: /** @type {const} */ ('pending'), attempts: 0, next_attempt_at: at,
      created_at: at }
  })).execute()
}
const started = performance.now()
while (await context.mail.runOnce() > 0);
const seconds = (performance.now() - started) / 1000
process.stdout.write(`MAIL_CONNECTIONS=${connections} on ${databaseUrl === '' ? 'SQLite' : 'PostgreSQL'}: ${String(mails)} mails in `
  + `${seconds.toFixed(2)} s, ${(mails / seconds).toFixed(0)} a second ${toFiles ? '(to files)' : `(the relay received ${String(received)})`}\n`)
await context.close()
relay.close()
fs.rmSync(dir, { recursive: true, force: true })
