/** clubs: create and list clubs, and set each club's websites and booking rules. */
import type { Command } from 'commander'
import { Option } from 'commander'
import { bookingRulesOf } from '../../db/repositories/bookings.js'
import { listClubs } from '../../db/repositories/clubs.js'
import { OPERATOR } from '../../services/audit.js'
import { changeBookingRules } from '../../services/booking-rules.js'
import { setWebsites, websitesOf } from '../../services/club-websites.js'
import { createClub, requireClub } from '../../services/clubs.js'
import { phoneNumber, postalAddress } from '../../domain/club-contact.js'
import { GUEST_LANGUAGES } from '../../domain/languages.js'
import type { GuestLanguage } from '../../domain/languages.js'
import { boundedInteger, checked, emailOption, optional, webAddressOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** clubs create, list, websites and rules. */
export function registerClubs(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const clubs = program.command('clubs').description('create and list clubs')
  clubs.command('create').description('create a club')
    .requiredOption('--slug <slug>', 'identifier used in public URLs, e.g. tc-riverside')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--timezone <tz>', 'IANA time zone, e.g. Europe/Berlin')
    .addOption(jsonOption())
    .action(async (options: { slug: string, name: string, timezone: string, json?: boolean }) => {
      const ctx = await migrated()
      const club = await createClub(ctx.db, clock, options)
      print(options.json === true, club, `Created club ${club.slug} (${club.id}).`)
    })
  clubs.command('list').description('list clubs').addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated()
      const all = await listClubs(ctx.db)
      print(options.json === true, all, all.length === 0
        ? 'No clubs yet (create one with: club-platform clubs create …).'
        : table(['slug', 'name', 'timezone', 'id'], all.map((club) => [club.slug, club.name, club.timezone, club.id])))
    })

  clubs.command('websites').description('show or set the club\'s websites: the only pages that may frame its booking page /book/SLUG')
    .requiredOption('--club <slug>', 'the club')
    .option('--set <origins>', 'comma-separated, e.g. https://www.tc-riverside.example,https://tc-riverside.example ("" for none)')
    .addOption(jsonOption())
    .action(async (options: { club: string, set?: string, json?: boolean }) => {
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const websites = options.set === undefined
        ? await websitesOf(ctx.db, club.id)
        : await setWebsites(ctx.db, clock, { clubId: club.id, actor: OPERATOR,
            websites: options.set.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '') })
      print(options.json === true, { websites }, websites.length === 0
        ? `No page may frame the booking page of ${club.slug}.`
        : `The booking page of ${club.slug} may be framed by: ${websites.join(', ')}`)
    })
  clubs.command('rules').description('show or change a club\'s booking rules: cancellation deadline, retention, privacy notice')
    .requiredOption('--club <slug>', 'the club')
    .option('--cancellation-deadline-hours <hours>', 'guests may cancel a booking until this many hours before it starts (0–720)')
    .option('--retention-days <days>', 'remove a guest\'s name and address this many days after the booking ended (1–3650)')
    .option('--privacy-url <url>', 'the club\'s privacy notice, linked from the booking mails and pages ("none" removes it)')
    .option('--max-open-per-email <n>', 'at most this many upcoming bookings per e-mail address (1–1000; "default": the service\'s)')
    .addOption(new Option('--members-only <yes|no>', 'whether only addresses on the member list may book').choices(['yes', 'no']))
    .addOption(new Option('--language <code>', 'the guests\' language when their browser asks for none the service speaks')
      .choices([...GUEST_LANGUAGES]))
    .option('--contact-email <address>', 'where guests\' replies to the booking mails go ("none": the service\'s sender only)')
    .addOption(new Option('--waiting-list <on|off>', 'whether guests may wait for a taken time and be mailed when it frees')
      .choices(['on', 'off']))
    .option('--contact-phone <number>', 'the club\'s phone number as guests read it ("none" removes it)')
    .option('--address <address>', 'the club\'s postal address on one line: the calendar event\'s location ("none" removes it)')
    .addOption(jsonOption())
    .action(async (options: RulesOptions) => {
      const hours = optional(options.cancellationDeadlineHours, (value) => boundedInteger('--cancellation-deadline-hours', value, 0, 720))
      const retentionDays = optional(options.retentionDays, (value) => boundedInteger('--retention-days', value, 1, 3650))
      const privacyUrl = optional(options.privacyUrl, (value) => value === 'none' ? null : webAddressOption('--privacy-url', value))
      const maxOpen = optional(options.maxOpenPerEmail,
        (value) => value === 'default' ? null : boundedInteger('--max-open-per-email', value, 1, 1000))
      const contactEmail = optional(options.contactEmail, (value) => value === 'none' ? null : emailOption(value, '--contact-email'))
      const contactPhone = optional(options.contactPhone, (value) => value === 'none' ? null : checked('--contact-phone', phoneNumber(value)))
      const address = optional(options.address, (value) => value === 'none' ? null : checked('--address', postalAddress(value)))
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const changes = {
        ...hours === undefined ? {} : { cancellationDeadlineMinutes: hours * 60 },
        ...retentionDays === undefined ? {} : { retentionDays },
        ...privacyUrl === undefined ? {} : { privacyUrl },
        ...maxOpen === undefined ? {} : { maxOpenPerEmail: maxOpen },
        ...options.membersOnly === undefined ? {} : { guestsMayBook: options.membersOnly === 'no' },
        ...options.language === undefined ? {} : { language: options.language },
        ...contactEmail === undefined ? {} : { contactEmail },
        ...options.waitingList === undefined ? {} : { waitingList: options.waitingList === 'on' },
        ...contactPhone === undefined ? {} : { contactPhone },
        ...address === undefined ? {} : { address },
      }
      const rules = Object.keys(changes).length === 0
        ? await bookingRulesOf(ctx.db, club.id)
        : await changeBookingRules(ctx.db, clock, { clubId: club.id, rules: changes, actor: OPERATOR })
      print(options.json === true, { cancellation_deadline_minutes: rules.cancellationDeadlineMinutes,
        retention_days: rules.retentionDays, privacy_url: rules.privacyUrl, max_open_bookings_per_email: rules.maxOpenPerEmail,
        guests_may_book: rules.guestsMayBook, language: rules.language, contact_email: rules.contactEmail,
        waiting_list: rules.waitingList, contact_phone: rules.contactPhone, address: rules.address },
      `${club.slug}: guests may cancel until ${describeMinutes(rules.cancellationDeadlineMinutes)} before the start; their `
      + `data is removed ${String(rules.retentionDays)} days after the booking; privacy notice: ${rules.privacyUrl ?? 'none'}; `
      + `at most ${rules.maxOpenPerEmail === null ? 'the default number of' : String(rules.maxOpenPerEmail)} upcoming bookings `
      + `per address; ${rules.guestsMayBook ? 'guests and members may book' : 'only members may book'}; guests' language `
      + `${rules.language}; replies to ${rules.contactEmail ?? 'the service\'s sender only'}; waiting list `
      + `${rules.waitingList ? 'on' : 'off'}; phone ${rules.contactPhone ?? 'none'}; address ${rules.address ?? 'none'}.`)
    })
}

interface RulesOptions {
  readonly club: string
  readonly cancellationDeadlineHours?: string
  readonly retentionDays?: string
  readonly privacyUrl?: string
  readonly maxOpenPerEmail?: string
  readonly membersOnly?: 'yes' | 'no'
  readonly language?: GuestLanguage
  readonly contactEmail?: string
  readonly contactPhone?: string
  readonly address?: string
  readonly json?: boolean
  readonly waitingList?: 'on' | 'off'
}

/** 90 → "1 h 30 min", 120 → "2 hours", 0 → "0 minutes". */
function describeMinutes(minutes: number): string {
  if (minutes % 60 === 0 && minutes > 0) return `${String(minutes / 60)} hour${minutes === 60 ? '' : 's'}`
  return minutes < 60 ? `${String(minutes)} minutes` : `${String(Math.floor(minutes / 60))} h ${String(minutes % 60)} min`
}
