/**
 * Where mail goes: an SMTP relay (SMTP_URL) through nodemailer, or, without one, `.eml` files in
 * DATA_DIR/mail named after the outbox id (a resend overwrites its file rather than adding one).
 * The server runs its transport on a thread of its own (transport-thread.ts).
 */
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type nodemailer from 'nodemailer'
import type { SendMailOptions, Transporter } from 'nodemailer'

/**
 * nodemailer, loaded when a transport is first made: the server's event loop, whose mail goes
 * through the transport's thread, does without its 3 MiB of heap.
 */
function loadNodemailer(): typeof nodemailer {
  return createRequire(import.meta.url)('nodemailer') as typeof nodemailer
}

export interface OutgoingMail {
  readonly id: string
  readonly messageId: string
  /** MAIL_FROM, or its address with a club's name as the display name. */
  readonly from: string | { readonly name: string, readonly address: string }
  /** Where replies go (a club's contact address), when not to the sender. */
  readonly replyTo?: string
  /** A one-click stop link (RFC 8058): List-Unsubscribe with List-Unsubscribe-Post. */
  readonly unsubscribeUrl?: string
  readonly to: { readonly name: string, readonly address: string }
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly ics: string | null
}

/** Where mail goes, as data: what a transport is made from, on this thread or on another. */
export type TransportTarget
  = | { readonly kind: 'smtp', readonly url: string, readonly connections?: number }
    | { readonly kind: 'files', readonly directory: string }

export function transportFor(target: TransportTarget): MailTransport {
  return target.kind === 'smtp' ? smtpTransport(target.url, target.connections) : fileTransport(target.directory)
}

export function describeTarget(target: TransportTarget): string {
  if (target.kind === 'files') return `files in ${target.directory}`
  const url = new URL(target.url)
  return `SMTP ${url.hostname}:${url.port === '' ? (url.protocol === 'smtps:' ? '465' : '587') : url.port}`
}

export interface MailTransport {
  readonly description: string
  send(mail: OutgoingMail): Promise<void>
  /** No mail has come for a while: let go of what is held for a flow of mail (the next send takes it up again). */
  idle?(): void
  close(): void
}

/** The relay refused the message for good (5xx): retrying cannot help. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode
  return typeof code === 'number' && code >= 500 && code < 600
}

/** The iTIP method of a calendar file (RFC 5546): PUBLISH adds the event, CANCEL removes it. */
function calendarMethod(ics: string): string {
  return /^METHOD:([A-Z-]+)\r?$/m.exec(ics)?.[1] ?? 'PUBLISH'
}

function message(mail: OutgoingMail): SendMailOptions {
  return {
    messageId: mail.messageId,
    from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name, address: mail.from.address },
    ...mail.replyTo === undefined ? {} : { replyTo: mail.replyTo },
    // RFC 8058: a mail program may stop the mails with one POST to the link, without opening it.
    ...mail.unsubscribeUrl === undefined
      ? {}
      : { list: { unsubscribe: mail.unsubscribeUrl }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } },
    to: { name: mail.to.name, address: mail.to.address },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.ics === null
      ? []
      : [{
          filename: calendarMethod(mail.ics) === 'CANCEL' ? 'cancellation.ics' : 'booking.ics',
          content: mail.ics,
          contentType: `text/calendar; charset=utf-8; method=${calendarMethod(mail.ics)}`,
        }],
  }
}

/** An SMTP relay over a pool of up to `connections` connections, kept while mail flows. */
export function smtpTransport(smtpUrl: string, connections = 1): MailTransport {
  const url = new URL(smtpUrl)
  const secure = url.protocol === 'smtps:'
  const transporter: Transporter = loadNodemailer().createTransport({
    host: url.hostname,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    ...(url.username === '' ? {} : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    // One connection, kept open while mails flow: a new connection per message costs a TCP and
    // SMTP greeting round trip (about 100 ms against a local relay), so a booking burst would
    // outrun delivery. The worker sends one mail at a time, so one connection is all it uses.
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    // Closed after a second without mail, so an idle service holds no connection to the relay.
    idleTimeout: 1_000,
    // A connection the relay drops mid-message is retried once at once on a new connection; after
    // that the outbox's back-off takes over (the mail is never lost either way).
    maxRequeues: 1,
    // An unreachable relay fails the attempt quickly; the outbox retries later.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  })
  return {
    description: describeTarget({ kind: 'smtp', url: smtpUrl }),
    async send(mail) {
      await transporter.sendMail(message(mail))
    },
    close() {
      transporter.close()
    },
  }
}

export function fileTransport(directory: string): MailTransport {
  const transporter = loadNodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  // Made once, and again only when a write finds it gone (an operator cleared the data directory).
  let made: Promise<unknown> | undefined
  const write = async (file: string, bytes: Buffer) => {
    made ??= fs.mkdir(directory, { recursive: true })
    await made
    await fs.writeFile(`${file}.tmp`, bytes)
  }
  return {
    description: describeTarget({ kind: 'files', directory }),
    async send(mail) {
      const info = await transporter.sendMail(message(mail)) as { message: Buffer }
      const file = path.join(directory, `${mail.id}.eml`)
      try {
        await write(file, info.message)
      } catch (error) {
        made = undefined
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        await write(file, info.message)
      }
      await fs.rename(`${file}.tmp`, file)
    },
    close() {
      transporter.close()
    },
  }
}
