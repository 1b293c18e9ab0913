/**
 * The `club-platform` command line: administration of clubs, keys and data, on the same
 * database settings as the server. `runCli` takes its arguments, output streams and environment,
 * so tests run it in-process; bin/club-platform.js runs it for real.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Command, CommanderError, Option } from 'commander'
import { buildApp } from '../app.js'
import { shiftedClock } from '../clock.js'
import type { Clock } from '../clock.js'
import { ConfigError, readConfig } from '../config.js'
import type { Config } from '../config.js'
import { createContext } from '../context.js'
import type { AppContext } from '../context.js'
import { findApiKeyById, listApiKeys, setKeyLimits } from '../db/repositories/api-keys.js'
import type { ApiKeyRecord, LimitOverrides } from '../db/repositories/api-keys.js'
import { keyStatus } from '../domain/api-key.js'
import { listClubs } from '../db/repositories/clubs.js'
import { findCourt, listCourts, listHolds } from '../db/repositories/courts.js'
import type { Court, CourtHold } from '../db/repositories/courts.js'
import { listMails, retryMail } from '../db/repositories/outbox.js'
import { migrateToLatest } from '../db/migrate.js'
import { parseDateTime } from '../domain/date-time.js'
import { DEFAULT_SLOT_MINUTES, SLOT_LENGTHS } from '../domain/court.js'
import { DomainError, InvalidInput } from '../domain/errors.js'
import { ADMIN_ROLES } from '../domain/admin-roles.js'
import type { AdminRole } from '../domain/admin-roles.js'
import { parseScopes } from '../domain/scopes.js'
import { parseOpeningHours, WEEKDAYS } from '../domain/slots.js'
import { ImportDocument } from '../schemas/import.js'
import { issueApiKey, withdrawApiKey } from '../services/api-keys.js'
import { checkEmail, inviteAdmin, removeAdmin, teamOf } from '../services/admins.js'
import { OPERATOR, auditLog } from '../services/audit.js'
import { dashboardSettings } from '../http/dashboard-access.js'
import { adminOpenApiDocument } from '../http/admin-openapi.js'
import { createClub, requireClub } from '../services/clubs.js'
import { setWebsites, websitesOf } from '../services/club-websites.js'
import { cancelByClub } from '../services/booking-cancellation.js'
import { applyRetention, erasePersonalData, exportPersonalData } from '../services/personal-data.js'
import type { PersonalDataRequest } from '../services/personal-data.js'
import { bookingRulesOf, listBookings } from '../db/repositories/bookings.js'
import { changeBookingRules } from '../services/booking-rules.js'
import type { ClubBooking } from '../db/repositories/bookings.js'
import { formatInZone, localDateOf, localToInstant, parseClockTime } from '../domain/zoned-time.js'
import { loadDemo, revokedDemoKeysNote } from '../services/demo.js'
import { importClubData } from '../services/import.js'
import { removeHold, saveCourt, saveHold } from '../services/courts.js'
import type { DisplacedBookings } from '../services/holds.js'
import { describeFailure } from '../startup-errors.js'

export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly clock?: Clock
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Runs one command; resolves to the process exit code (0 ok, 1 failed, 2 usage error). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let context: AppContext | undefined
  let config: Config | undefined
  const settings = (): Config => config ??= readConfig(io.env)
  // The server's clock (CLOCK_OFFSET_SECONDS moves it), read from the settings when first asked.
  const clock: Clock = io.clock ?? { now: () => shiftedClock(settings().clockOffsetMs).now() }
  const open = async (): Promise<AppContext> => {
    config = settings()
    context ??= await createContext(config, { clock, role: 'admin' })
    return context
  }
  const print = (json: boolean, value: unknown, text: string) => {
    io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
  }
  const jsonOption = () => new Option('--json', 'print machine-readable JSON')

  const program = new Command('club-platform')
    .description('Administer Club Platform: clubs, API keys, data import and demo data.\n'
      + 'Uses the same settings as the server: DATABASE_URL (postgres://… for PostgreSQL; unset: SQLite in DATA_DIR).')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(add --help for usage)')

  program.command('migrate').description('apply pending database migrations').addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await open()
      const outcome = await migrateToLatest(ctx.db)
      print(options.json === true, outcome, outcome.applied.length === 0
        ? 'The database schema is up to date.'
        : `Applied: ${outcome.applied.join(', ')}`)
    })

  const clubs = program.command('clubs').description('create and list clubs')
  clubs.command('create').description('create a club')
    .requiredOption('--slug <slug>', 'identifier used in public URLs, e.g. tc-riverside')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--timezone <tz>', 'IANA time zone, e.g. Europe/Berlin')
    .addOption(jsonOption())
    .action(async (options: { slug: string, name: string, timezone: string, json?: boolean }) => {
      const ctx = await migrated(open)
      const club = await createClub(ctx.db, clock, options)
      print(options.json === true, club, `Created club ${club.slug} (${club.id}).`)
    })
  clubs.command('list').description('list clubs').addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated(open)
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
      const ctx = await migrated(open)
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
    .addOption(jsonOption())
    .action(async (options: RulesOptions) => {
      const hours = optional(options.cancellationDeadlineHours, (value) => boundedInteger('--cancellation-deadline-hours', value, 0, 720))
      const retentionDays = optional(options.retentionDays, (value) => boundedInteger('--retention-days', value, 1, 3650))
      const privacyUrl = optional(options.privacyUrl, (value) => value === 'none' ? null : webAddressOption('--privacy-url', value))
      const maxOpen = optional(options.maxOpenPerEmail,
        (value) => value === 'default' ? null : boundedInteger('--max-open-per-email', value, 1, 1000))
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const changes = {
        ...hours === undefined ? {} : { cancellationDeadlineMinutes: hours * 60 },
        ...retentionDays === undefined ? {} : { retentionDays },
        ...privacyUrl === undefined ? {} : { privacyUrl },
        ...maxOpen === undefined ? {} : { maxOpenPerEmail: maxOpen },
        ...options.membersOnly === undefined ? {} : { guestsMayBook: options.membersOnly === 'no' },
      }
      const rules = Object.keys(changes).length === 0
        ? await bookingRulesOf(ctx.db, club.id)
        : await changeBookingRules(ctx.db, clock, { clubId: club.id, rules: changes, actor: OPERATOR })
      print(options.json === true, { cancellation_deadline_minutes: rules.cancellationDeadlineMinutes,
        retention_days: rules.retentionDays, privacy_url: rules.privacyUrl, max_open_bookings_per_email: rules.maxOpenPerEmail,
        guests_may_book: rules.guestsMayBook },
      `${club.slug}: guests may cancel until ${describeMinutes(rules.cancellationDeadlineMinutes)} before the start; their `
      + `data is removed ${String(rules.retentionDays)} days after the booking; privacy notice: ${rules.privacyUrl ?? 'none'}; `
      + `at most ${rules.maxOpenPerEmail === null ? 'the default number of' : String(rules.maxOpenPerEmail)} upcoming bookings `
      + `per address; ${rules.guestsMayBook ? 'guests and members may book' : 'only members may book'}.`)
    })

  const keys = program.command('keys').description('create, list and revoke API keys')
  keys.command('create').description('create an API key; the key is printed once and cannot be shown again')
    .requiredOption('--club <slug>', 'the club whose data the key reads')
    .requiredOption('--scopes <scopes>', 'comma-separated, e.g. read:groups,read:events')
    .requiredOption('--name <name>', 'what the key is for, e.g. "club website"')
    .option('--expires-at <iso>', 'expiry, RFC 3339 with an offset, e.g. 2027-01-01T00:00:00Z')
    .option('--capacity <n>', 'this key\'s burst (token bucket capacity) instead of RATE_LIMIT_CAPACITY')
    .option('--per-minute <n>', 'this key\'s refill per minute instead of RATE_LIMIT_PER_MINUTE')
    .option('--daily-quota <n>', 'this key\'s requests per UTC day instead of DAILY_QUOTA')
    .addOption(jsonOption())
    .action(async (options: KeyCreateOptions) => {
      const parsed = parseScopes(options.scopes)
      if ('error' in parsed) throw new InvalidInput(`--scopes: ${parsed.error}`)
      const name = textOption('--name', options.name, 200)
      const expiresAt = options.expiresAt === undefined ? null : futureInstantOption('--expires-at', options.expiresAt, clock)
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const limits = limitOptions(options)
      const { key, record } = await issueApiKey(ctx.db, clock, {
        clubId: club.id, name, scopes: parsed.scopes, expiresAt, actor: OPERATOR,
        limits: { ...(limits.capacity == null ? {} : { capacity: limits.capacity }),
          ...(limits.perMinute == null ? {} : { perMinute: limits.perMinute }),
          ...(limits.dailyQuota == null ? {} : { dailyQuota: limits.dailyQuota }) },
      })
      print(options.json === true, { ...keyJson(record), key },
        `Created API key ${record.id} for ${club.slug} (${record.scopes.join(', ')}).\n`
        + 'Store it server-side now (e.g. in an environment variable); it cannot be shown again:\n\n'
        + `  ${key}\n`)
    })
  keys.command('list').description('list the API keys of a club (never the keys themselves)')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const records = await listApiKeys(ctx.db, club.id)
      print(options.json === true, records.map(keyJson), records.length === 0
        ? `No API keys for ${club.slug}.`
        : table(['id', 'name', 'key', 'scopes', 'status', 'limits', 'created', 'last used'], records.map((record) => [
            record.id, record.name, `${record.displayPrefix}…`, record.scopes.join(','), describeStatus(record, clock),
            describeLimits(record.limits), record.createdAt, record.lastUsedAt ?? 'never',
          ])))
    })
  keys.command('limits').description('change a key\'s own rate limits ("default" returns to the configured value); '
    + 'running servers apply it within one second')
    .argument('<key-id>', 'the id shown by keys list')
    .option('--capacity <n|default>', 'burst (token bucket capacity)')
    .option('--per-minute <n|default>', 'refill per minute')
    .option('--daily-quota <n|default>', 'requests per UTC day')
    .addOption(jsonOption())
    .action(async (keyId: string, options: LimitOptions & { json?: boolean }) => {
      const id = idArgument(keyId, 'key', 'keys list')
      const limits = limitOptions(options)
      if (Object.keys(limits).length === 0) throw new InvalidInput('give at least one of --capacity, --per-minute, --daily-quota')
      const ctx = await migrated(open)
      if (!await setKeyLimits(ctx.db, id, limits)) throw new InvalidInput(`no API key with the id ${id}`)
      const record = await findApiKeyById(ctx.db, id)
      print(options.json === true, record === undefined ? {} : keyJson(record), `Limits of ${id}: ${describeLimits(record?.limits ?? {})}.`)
    })
  keys.command('revoke').description('revoke an API key; it stops working within one second')
    .argument('<key-id>', 'the id shown by keys list')
    .addOption(jsonOption())
    .action(async (keyId: string, options: { json?: boolean }) => {
      const id = idArgument(keyId, 'key', 'keys list')
      const ctx = await migrated(open)
      const existing = await findApiKeyById(ctx.db, id)
      if (existing === undefined) throw new InvalidInput(`no API key with the id ${id}`)
      const { record, revoked } = await withdrawApiKey(ctx.db, clock, { keyId: id, actor: OPERATOR })
      print(options.json === true, { ...keyJson(record), already_revoked: !revoked },
        revoked ? `Revoked API key ${id}.` : `API key ${id} was already revoked (${record.revokedAt ?? ''}).`)
    })

  const admins = program.command('admins').description('invite, list and remove the people who administer a club in the dashboard')
  admins.command('invite').description('invite someone to administer a club: mails the invitation and prints its link')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--email <address>', 'whom to invite')
    .addOption(new Option('--role <role>', 'owner (everything, incl. the team), admin (all but the team) or editor (content only)').choices(ADMIN_ROLES).default('owner'))
    .addOption(jsonOption())
    .action(async (options: { club: string, email: string, role: AdminRole, json?: boolean }) => {
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const { invitation, url } = await inviteAdmin(ctx.db, clock, dashboardSettings(ctx), {
        clubId: club.id, email: options.email, role: options.role, actor: OPERATOR })
      print(options.json === true, { invitation_id: invitation.id, club_slug: club.slug, email: invitation.email,
        role: invitation.role, expires_at: invitation.expiresAt, invitation_url: url },
      `Invited ${invitation.email} to administer ${club.slug} as ${invitation.role}; the invitation is mailed (the running `
      + `server sends it within a second). Its link, valid once until ${invitation.expiresAt}:\n\n  ${url}\n`)
    })
  admins.command('list').description('list the people who administer a club, and open invitations')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const team = await teamOf(ctx.db, clock, club.id)
      print(options.json === true, {
        members: team.members.map((member) => ({ admin_id: member.adminId, email: member.email, role: member.role,
          since: member.since, last_sign_in_at: member.lastSignInAt })),
        invitations: team.invitations.map((invitation) => ({ id: invitation.id, email: invitation.email, role: invitation.role,
          expires_at: invitation.expiresAt })),
      }, team.members.length + team.invitations.length === 0
        ? `Nobody administers ${club.slug} yet (invite someone with: club-platform admins invite --club ${club.slug} --email …).`
        : table(['admin id', 'e-mail', 'role', 'since', 'last sign-in'], [
            ...team.members.map((member) => [member.adminId, member.email, member.role, member.since, member.lastSignInAt ?? 'never']),
            ...team.invitations.map((invitation) => [`(invited) ${invitation.id}`, invitation.email, invitation.role,
              `until ${invitation.expiresAt}`, '']),
          ]))
    })
  admins.command('remove').description('stop someone administering a club (a club keeps at least one owner)')
    .requiredOption('--club <slug>', 'the club')
    .argument('<admin-id>', 'the id shown by admins list')
    .addOption(jsonOption())
    .action(async (adminId: string, options: { club: string, json?: boolean }) => {
      const id = idArgument(adminId, 'admin', 'admins list')
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      await removeAdmin(ctx.db, clock, { clubId: club.id, adminId: id, actor: OPERATOR })
      print(options.json === true, { admin_id: id, club_slug: club.slug, removed: true }, `Removed ${id} from ${club.slug}.`)
    })

  program.command('audit').description('print the audit log of the dashboard (newest first)')
    .option('--club <slug>', 'only this club\'s entries')
    .option('--limit <n>', 'how many entries', '50')
    .addOption(jsonOption())
    .action(async (options: { club?: string, limit: string, json?: boolean }) => {
      if (!/^\d{1,4}$/.test(options.limit) || Number(options.limit) < 1) throw new InvalidInput('--limit: a number from 1 to 9999')
      const ctx = await migrated(open)
      const club = options.club === undefined ? undefined : await requireClub(ctx.db, options.club)
      const entries = await auditLog(ctx.db, club?.id, {}, Number(options.limit))
      print(options.json === true, entries.map((entry) => ({ created_at: entry.createdAt, club_id: entry.clubId,
        actor: entry.actor, action: entry.action, target: entry.target, target_name: entry.targetName, fields: entry.fields,
        detail: entry.detail, address: entry.address })),
      entries.length === 0
        ? 'The audit log is empty.'
        : table(['time', 'actor', 'action', 'target', 'fields', 'detail', 'address'], entries.map((entry) => [entry.createdAt,
            entry.actor, entry.action, entry.targetName ?? entry.target ?? '', entry.fields?.join(' ') ?? '', entry.detail ?? '',
            entry.address ?? ''])))
    })

  program.command('import').description('load a club\'s data from a JSON file (format: docs/import-format.md)')
    .requiredOption('--club <slug>', 'the club')
    .argument('<file>', 'the JSON document')
    .option('--cancel-bookings', 'cancel upcoming bookings that the file\'s blocks and reservations cover (each guest is mailed); '
    + 'without it such a file is refused')
    .addOption(jsonOption())
    .action(async (file: string, options: { club: string, cancelBookings?: boolean, json?: boolean }) => {
      const document = await readJsonFile(file)
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const summary = await importClubData(ctx.db, clock, club.id, document,
        { displacedBookings: displacedPolicy(ctx, options.cancelBookings) })
      print(options.json === true, summary, `Imported into ${club.slug}: `
      + Object.entries(summary).map(([section, count]) => `${String(count)} ${section}`).join(', '))
    })

  program.command('backup').description('copy the SQLite database while the server runs (PostgreSQL: use pg_dump)')
    .argument('<file>', 'where to write the copy; it must not exist yet')
    .addOption(jsonOption())
    .action(async (file: string, options: { json?: boolean }) => {
      const ctx = await open()
      if (ctx.backup === undefined) {
        throw new InvalidInput('the database is PostgreSQL: back it up with pg_dump (see docs/operations.md)')
      }
      try {
        await fs.access(file)
        throw new InvalidInput(`${file} exists already; choose a new file`)
      } catch (error) {
        if (error instanceof InvalidInput) throw error
      }
      const target = path.resolve(file)
      await ctx.backup(target)
      print(options.json === true, { file: target }, `Backed up the database to ${target}.`)
    })

  program.command('import-schema').description('print the JSON Schema of the import file').action(() => {
    io.stdout(`${JSON.stringify(ImportDocument, null, 2)}\n`)
  })

  program.command('demo').description('create or refresh the demo club and print a new key with every scope')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated(open)
      const demo = await loadDemo(ctx.db, clock)
      const revoked = revokedDemoKeysNote(demo)
      print(options.json === true, { club_slug: demo.clubSlug, club_id: demo.clubId, api_key: demo.apiKey, key_id: demo.keyId,
        revoked_keys: demo.revokedKeys },
      `Demo club "${demo.clubSlug}" is ready. API key with every scope (shown once):\n\n  ${demo.apiKey}\n`
      + (revoked === '' ? '' : `\n${revoked}\n`))
    })

  const courts = program.command('courts').description('manage courts, and the blocks and reservations that occupy them')
  courts.command('create').description('create a court')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--name <name>', 'display name, e.g. "Court 1"')
    .option('--sport <sport>', 'sport', 'tennis')
    .option('--slot-minutes <n>', `slot length in minutes: ${SLOT_LENGTHS.join(', ')}`, String(DEFAULT_SLOT_MINUTES))
    .option('--hours <spec>', 'opening hours, club-local: mon-fri=08:00-22:00,sat-sun=09:00-20:00', 'mon-sun=08:00-22:00')
    .option('--horizon-days <n>', 'how many days ahead it can be booked', '14')
    .option('--max-slots <n>', 'most slots one booking may cover', '2')
    .option('--inactive', 'create it inactive (not listed, not bookable)')
    .addOption(jsonOption())
    .action(async (options: CourtOptions) => {
      const openingHours = parseOpeningHours(options.hours)
      if (typeof openingHours === 'string') throw new InvalidInput(`--hours: ${openingHours}`)
      const court = {
        id: randomUUID(), name: textOption('--name', options.name, 200), sport: textOption('--sport', options.sport, 100),
        active: options.inactive !== true,
        slot_minutes: integerOption('--slot-minutes', options.slotMinutes),
        opening_hours: openingHours,
        booking_horizon_days: integerOption('--horizon-days', options.horizonDays),
        max_slots_per_booking: integerOption('--max-slots', options.maxSlots),
      }
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      await inFlagTerms('courts', COURT_FLAGS, () => saveCourt(ctx.db, ctx.clock, club.id, court, { actor: OPERATOR,
        displaced: { policy: 'refuse' } }))
      print(options.json === true, court, `Created court "${court.name}" (${court.id}) for ${club.slug}.`)
    })
  courts.command('list').description('list the courts of a club').requiredOption('--club <slug>', 'the club').addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const all = await listCourts(ctx.db, club.id)
      print(options.json === true, all.map(courtJson), all.length === 0
        ? `No courts for ${club.slug}.`
        : table(
            ['id', 'name', 'active', 'slot', 'horizon', 'max slots'],
            all.map((c) => [c.id, c.name, c.active ? 'yes' : 'no', `${String(c.slotMinutes)} min`, `${String(c.bookingHorizonDays)} d`,
              String(c.maxSlotsPerBooking)]),
          ))
    })
  courts.command('update').description('change a court: only the options given change')
    .argument('<court-id>', 'the court id (see courts list)')
    .requiredOption('--club <slug>', 'the club')
    .option('--name <name>', 'display name')
    .option('--sport <sport>', 'sport')
    .option('--slot-minutes <n>', `slot length in minutes: ${SLOT_LENGTHS.join(', ')}`)
    .option('--hours <spec>', 'opening hours, club-local: mon-fri=08:00-22:00,sat-sun=09:00-20:00 (days not named are closed)')
    .option('--horizon-days <n>', 'how many days ahead it can be booked')
    .option('--max-slots <n>', 'most slots one booking may cover')
    .addOption(new Option('--active', 'in use: listed and bookable').conflicts('inactive'))
    .option('--inactive', 'not in use: not listed, not bookable')
    .option('--cancel-bookings', 'cancel the upcoming bookings the change leaves without a place (each guest is mailed); without '
    + 'it such a change is refused, naming them')
    .option('--cancellation-reason <text>', 'with --cancel-bookings: why, in each guest\'s cancellation mail')
    .addOption(jsonOption())
    .action(async (courtId: string, options: CourtUpdateOptions) => {
      const id = idArgument(courtId, 'court', 'courts list')
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const known = await findCourt(ctx.db, club.id, id)
      if (known === undefined) throw new InvalidInput(`no court ${courtId} at ${club.slug} (see courts list)`)
      const openingHours = options.hours === undefined ? known.openingHours : parseOpeningHours(options.hours)
      if (typeof openingHours === 'string') throw new InvalidInput(`--hours: ${openingHours}`)
      const court = {
        ...courtJson(known),
        name: options.name === undefined ? known.name : textOption('--name', options.name, 200),
        sport: options.sport === undefined ? known.sport : textOption('--sport', options.sport, 100),
        active: options.inactive === true ? false : options.active === true ? true : known.active,
        slot_minutes: options.slotMinutes === undefined ? known.slotMinutes : integerOption('--slot-minutes', options.slotMinutes),
        opening_hours: openingHours,
        booking_horizon_days: options.horizonDays === undefined
          ? known.bookingHorizonDays
          : integerOption('--horizon-days', options.horizonDays),
        max_slots_per_booking: options.maxSlots === undefined ? known.maxSlotsPerBooking : integerOption('--max-slots', options.maxSlots),
      }
      const cancelled = await inFlagTerms('courts', COURT_FLAGS, () => saveCourt(ctx.db, ctx.clock, club.id, court,
        { actor: OPERATOR, displaced: displacedPolicy(ctx, options.cancelBookings, options.cancellationReason) }))
      print(options.json === true, { ...court, bookings_cancelled: cancelled }, `Changed court "${court.name}" (${court.id})`
      + `${cancelled > 0 ? `; cancelled ${String(cancelled)} bookings it left without a place (the guests are mailed)` : ''}.`)
    })
  courts.command('holds').description('list the blocks and reservations of a court')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--court <id>', 'the court id (see courts list)')
    .addOption(jsonOption())
    .action(async (options: { club: string, court: string, json?: boolean }) => {
      const courtId = idArgument(options.court, 'court', 'courts list', '--court')
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      if (await findCourt(ctx.db, club.id, courtId) === undefined) {
        throw new InvalidInput(`--court: no court ${options.court} at ${club.slug} (see courts list)`)
      }
      const holds = await listHolds(ctx.db, club.id, courtId)
      const when = (hold: CourtHold) => (hold.weekday === null
        ? `${formatInZone(Date.parse(hold.startsAt ?? ''), club.timezone)} – ${formatInZone(Date.parse(hold.endsAt ?? ''), club.timezone)}`
        : `every ${WEEKDAYS[hold.weekday - 1] ?? '?'} ${hold.startTime ?? ''}–${hold.endTime ?? ''}`
          + `${hold.validFrom === null ? '' : ` from ${hold.validFrom}`}${hold.validUntil === null ? '' : ` until ${hold.validUntil}`}`)
      print(options.json === true, holds, holds.length === 0
        ? 'No blocks or reservations on this court.'
        : table(['id', 'kind', 'when', 'reason'], holds.map((hold) => [hold.id, hold.kind, when(hold), hold.reason ?? ''])))
    })
  courts.command('hold').description('block a court (closed) or reserve it for the club, once or weekly')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--court <id>', 'the court id (see courts list)')
    .addOption(new Option('--kind <kind>', 'block: closed (slots show blocked); reservation: club use (slots show reserved)')
      .choices(['block', 'reservation']).makeOptionMandatory())
    .option('--from <iso>', 'one-off: start, RFC 3339 with offset')
    .option('--to <iso>', 'one-off: end, RFC 3339 with offset')
    .option('--weekly <day>', 'weekly: mon … sun')
    .option('--start <HH:MM>', 'weekly: local start time')
    .option('--end <HH:MM>', 'weekly: local end time')
    .option('--valid-from <date>', 'weekly: first date (YYYY-MM-DD)')
    .option('--valid-until <date>', 'weekly: last date (YYYY-MM-DD)')
    .option('--reason <text>', 'for the club\'s records; never shown publicly')
    .option('--cancel-bookings', 'cancel the upcoming bookings the hold covers (each guest is mailed); without it such a hold is '
    + 'refused, naming them')
    .option('--cancellation-reason <text>', 'with --cancel-bookings: why, in each guest\'s cancellation mail')
    .addOption(jsonOption())
    .action(async (options: HoldOptions) => {
      // Options not given are left out (JSON drops undefined), as an import file would leave them out.
      const hold = JSON.parse(JSON.stringify({
        id: randomUUID(), court_id: idArgument(options.court, 'court', 'courts list', '--court'), kind: options.kind,
        reason: options.reason ?? null,
        starts_at: optional(options.from, (value) => instantOption('--from', value)),
        ends_at: optional(options.to, (value) => instantOption('--to', value)),
        weekday: optional(options.weekly, weekdayOption), start_time: optional(options.start, (value) => clockTimeOption('--start', value)),
        end_time: optional(options.end, (value) => clockTimeOption('--end', value)),
        valid_from: optional(options.validFrom, (value) => dateOption('--valid-from', value)),
        valid_until: optional(options.validUntil, (value) => dateOption('--valid-until', value)),
      })) as { id: string, court_id: string }
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const cancelled = await inFlagTerms('court_holds', HOLD_FLAGS, () => saveHold(ctx.db, ctx.clock, club.id, hold,
        { actor: OPERATOR, displaced: displacedPolicy(ctx, options.cancelBookings, options.cancellationReason) }))
      print(options.json === true, { ...hold, bookings_cancelled: cancelled }, `Added ${options.kind} ${hold.id}`
      + `${cancelled > 0 ? `; cancelled ${String(cancelled)} bookings under it (the guests are mailed)` : ''}.`)
    })
  courts.command('unhold').description('remove a block or reservation').argument('<hold-id>', 'the id printed by courts hold')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (holdId: string, options: { club: string, json?: boolean }) => {
      const id = idArgument(holdId, 'hold', 'courts hold')
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      if (!await removeHold(ctx.db, ctx.clock, club.id, id, OPERATOR)) {
        throw new InvalidInput(`no block or reservation ${holdId} at ${club.slug}`)
      }
      print(options.json === true, { id, removed: true }, `Removed ${id}.`)
    })

  const bookings = program.command('bookings').description('list a club\'s bookings and cancel them (the guest is mailed)')
  bookings.command('list').description('list the bookings of a club that start on a date (club-local), cancelled ones too')
    .requiredOption('--club <slug>', 'the club')
    .option('--date <date>', 'the local date YYYY-MM-DD (default: today at the club)')
    .addOption(jsonOption())
    .action(async (options: { club: string, date?: string, json?: boolean }) => {
      const date = optional(options.date, (value) => dateOption('--date', value))
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const day = date ?? localDateOf(clock.now(), club.timezone)
      const window = { start: localToInstant(day, 0, club.timezone), end: localToInstant(day, 1440, club.timezone) }
      const found = await listBookings(ctx.db, club.id, window)
      print(options.json === true, found.map(bookingJson), found.length === 0
        ? `No bookings at ${club.slug} on ${day}.`
        : table(['id', 'court', 'start', 'end', 'name', 'e-mail', 'status'], found.map((booking) => [booking.id, booking.courtName,
            formatInZone(Date.parse(booking.start), club.timezone), formatInZone(Date.parse(booking.end), club.timezone),
            booking.bookerName, booking.bookerEmail, booking.status])))
    })
  bookings.command('cancel').description('cancel a booking for the club; the guest gets a cancellation mail with the reason')
    .argument('<booking-id>', 'the id shown by bookings list (also in the guest\'s confirmation mail)')
    .requiredOption('--club <slug>', 'the club')
    .option('--reason <text>', 'why, in the guest\'s mail (up to 500 characters)')
    .addOption(jsonOption())
    .action(async (bookingId: string, options: { club: string, reason?: string, json?: boolean }) => {
      const id = idArgument(bookingId, 'booking', 'bookings list')
      const reason = optional(options.reason, (value) => textOption('--reason', value, 500))
      const ctx = await migrated(open)
      const club = await requireClub(ctx.db, options.club)
      const result = await cancelByClub(ctx.db, clock, { mailFrom: ctx.config.mail.from },
        { clubId: club.id, bookingId: id, reason: reason ?? null, actor: OPERATOR })
      if (result === undefined) throw new InvalidInput(`no booking ${bookingId} at ${club.slug}`)
      if (result.outcome === 'ended') throw new InvalidInput(`booking ${id} has already ended; it stays as it was`)
      print(options.json === true, { id, status: result.booking.status, already_cancelled: result.outcome === 'already-cancelled' },
        result.outcome === 'cancelled' ? `Cancelled booking ${id}; the guest is mailed.` : `Booking ${id} was already cancelled.`)
    })

  program.command('retention').description('remove guests\' data past their club\'s retention period now (the server does so hourly)')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated(open)
      const report = await applyRetention(ctx.db, clock.now())
      print(options.json === true, { bookings_anonymised: report.bookingsAnonymised, mails_deleted: report.mailsDeleted,
        idempotency_records_deleted: report.idempotencyRecordsDeleted },
      `Anonymised ${String(report.bookingsAnonymised)} bookings, deleted ${String(report.mailsDeleted)} mails and `
      + `${String(report.idempotencyRecordsDeleted)} idempotency records.`)
    })
  const personal = program.command('personal-data').description('export or erase everything held about one e-mail address')
  personal.command('export').description('print everything held about an address: bookings, mails, idempotency records, member records')
    .requiredOption('--email <address>', 'the address')
    .option('--club <slug>', 'only at this club (default: at every club)')
    .addOption(jsonOption())
    .action(async (options: { email: string, club?: string, json?: boolean }) => {
      const email = emailOption(options.email)
      const ctx = await migrated(open)
      const data = await exportPersonalData(ctx.db, clock, await personalDataRequest(ctx, email, options.club))
      print(options.json === true, data, `${String(data.bookings.length)} bookings, ${String(data.mails.length)} mails, `
      + `${String(data.idempotency_records.length)} idempotency records, ${String(data.members.length)} member records `
      + 'held about this address (--json prints them).')
    })
  personal.command('erase').description('remove an address from every booking (upcoming ones are cancelled) and delete its mails')
    .requiredOption('--email <address>', 'the address')
    .option('--club <slug>', 'only at this club (default: at every club)')
    .addOption(jsonOption())
    .action(async (options: { email: string, club?: string, json?: boolean }) => {
      const email = emailOption(options.email)
      const ctx = await migrated(open)
      const erased = await erasePersonalData(ctx.db, clock, await personalDataRequest(ctx, email, options.club))
      print(options.json === true, { bookings: erased.bookings, mails: erased.mails,
        idempotency_records: erased.idempotencyRecords, member_records_kept: erased.memberRecordsKept },
      `Erased the address from ${String(erased.bookings)} bookings and `
      + `deleted ${String(erased.mails)} mails.${erased.memberRecordsKept > 0
        ? ` ${String(erased.memberRecordsKept)} member `
        + 'records remain: they come from the club\'s member list and are changed there.'
        : ''}`)
    })

  const mail = program.command('mail').description('inspect the outbox of confirmation mails and retry failed ones')
  mail.command('list').description('list mails in the outbox, oldest first')
    .option('--failed', 'only mails that failed for good')
    .addOption(jsonOption())
    .action(async (options: { failed?: boolean, json?: boolean }) => {
      const ctx = await migrated(open)
      const mails = await listMails(ctx.db, options.failed === true ? 'failed' : undefined)
      print(options.json === true, mails.map((m) => ({
        id: m.id, club_id: m.clubId, booking_id: m.bookingId, status: m.status, recipient: m.recipient, subject: m.subject,
        attempts: m.attempts, next_attempt_at: m.nextAttemptAt, last_error: m.lastError, created_at: m.createdAt,
        sent_at: m.sentAt,
      })), mails.length === 0
        ? (options.failed === true ? 'No failed mails.' : 'The outbox is empty.')
        : table(['id', 'status', 'attempts', 'recipient', 'created', 'last error'], mails.map((m) => [
            m.id, m.status, String(m.attempts), m.recipient, m.createdAt, (m.lastError ?? '').slice(0, 60),
          ])))
    })
  mail.command('retry').description('send a failed mail again (the running server picks it up within a second)')
    .argument('<mail-id>', 'the id shown by mail list')
    .addOption(jsonOption())
    .action(async (mailId: string, options: { json?: boolean }) => {
      const id = idArgument(mailId, 'mail', 'mail list')
      const ctx = await migrated(open)
      if (!await retryMail(ctx.db, id, clock.now())) {
        throw new InvalidInput(`no failed or waiting mail with the id ${mailId} (see: club-platform mail list)`)
      }
      print(options.json === true, { id, status: 'pending' }, `Mail ${id} will be sent again.`)
    })

  program.command('openapi').description('write the OpenAPI description the server serves')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--admin', 'the dashboard API\'s description instead of the public API\'s')
    .action(async (options: { out?: string, admin?: boolean }) => {
      const ctx = await open()
      let document: unknown
      if (options.admin === true) document = await adminOpenApiDocument(ctx)
      else {
        const app = await buildApp(ctx, { logger: false })
        await app.ready()
        document = app.swagger()
        await app.close()
      }
      const text = `${JSON.stringify(document, null, 2)}\n`
      if (options.out === undefined) io.stdout(text)
      else {
        await fs.mkdir(path.dirname(path.resolve(options.out)), { recursive: true })
        await fs.writeFile(options.out, text)
      }
    })

  try {
    await program.parseAsync([...argv], { from: 'user' })
    return 0
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    if (error instanceof InvalidInput || error instanceof ConfigError || error instanceof DomainError) {
      io.stderr(`club-platform: ${error.message}\n`)
      return 1
    }
    io.stderr(`club-platform: ${describeFailure(error, config)}\n`)
    return 1
  } finally {
    await context?.close()
  }
}

interface CourtOptions {
  club: string
  name: string
  sport: string
  slotMinutes: string
  hours: string
  horizonDays: string
  maxSlots: string
  inactive?: boolean
  json?: boolean
}

interface CourtUpdateOptions extends Partial<CourtOptions> {
  club: string
  active?: boolean
  cancelBookings?: boolean
  cancellationReason?: string
}

interface HoldOptions {
  club: string
  court: string
  kind: 'block' | 'reservation'
  from?: string
  to?: string
  weekly?: string
  start?: string
  end?: string
  validFrom?: string
  validUntil?: string
  reason?: string
  cancelBookings?: boolean
  cancellationReason?: string
  json?: boolean
}

/** An id argument or option (a UUID), lower-cased as stored; `shownBy` is the command that lists such ids. */
function idArgument(value: string, what: string, shownBy: string, flag?: string): string {
  if (!UUID.test(value)) {
    throw new InvalidInput(`${flag === undefined ? '' : `${flag}: `}"${value}" is not a ${what} id (a UUID, as shown by ${shownBy})`)
  }
  return value.toLowerCase()
}

/** Text without surrounding spaces, 1 to `max` characters. */
function textOption(flag: string, value: string, max: number): string {
  const text = value.trim()
  if (text === '' || text.length > max) throw new InvalidInput(`${flag}: give 1 to ${String(max)} characters`)
  return text
}

function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value)
}

function weekdayOption(value: string): string {
  const day = WEEKDAYS.find((weekday) => weekday === value.trim().toLowerCase())
  if (day === undefined) throw new InvalidInput(`--weekly: "${value}" is not a weekday; use one of ${WEEKDAYS.join(', ')}`)
  return day
}

function clockTimeOption(flag: string, value: string): string {
  if (parseClockTime(value) === undefined) throw new InvalidInput(`${flag}: "${value}" is not a local time HH:MM from 00:00 to 24:00`)
  return value
}

function dateOption(flag: string, value: string): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN
  // Date.parse rolls 2026-02-30 over to March; a real date reads back the same.
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) throw new InvalidInput(`${flag}: "${value}" is not a date YYYY-MM-DD`)
  return value
}

interface RulesOptions {
  readonly club: string
  readonly cancellationDeadlineHours?: string
  readonly retentionDays?: string
  readonly privacyUrl?: string
  readonly maxOpenPerEmail?: string
  readonly membersOnly?: 'yes' | 'no'
  readonly json?: boolean
}

function boundedInteger(name: string, value: string, min: number, max: number): number {
  const parsed = integerOption(name, value)
  if (parsed < min || parsed > max) throw new InvalidInput(`${name}: "${value}" is not from ${String(min)} to ${String(max)}`)
  return parsed
}

/** An http(s) address without credentials, for a link people follow. */
function webAddressOption(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidInput(`${name}: "${value}" is not a web address (https://…)`)
  }
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || value.length > 500) {
    throw new InvalidInput(`${name}: "${value}" is not a web address (https://…)`)
  }
  return url.href
}

/** The operator's request about an address: at one club (--club) or at every club. */
async function personalDataRequest(ctx: AppContext, email: string, slug: string | undefined): Promise<PersonalDataRequest> {
  const club = slug === undefined ? undefined : await requireClub(ctx.db, slug)
  return { email, clubId: club?.id ?? null, actor: OPERATOR }
}

function emailOption(value: string): string {
  try {
    return checkEmail(value)
  } catch {
    throw new InvalidInput(`--email: "${value}" is not an e-mail address`)
  }
}

function integerOption(name: string, value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw new InvalidInput(`${name}: "${value}" is not a whole number`)
  return Number(value)
}

/** The option behind each field of a court or hold, so that a refusal names what the user typed. */
const COURT_FLAGS: Readonly<Record<string, string>> = {
  name: '--name', sport: '--sport', active: '--inactive', slot_minutes: '--slot-minutes', opening_hours: '--hours',
  booking_horizon_days: '--horizon-days', max_slots_per_booking: '--max-slots',
}
const HOLD_FLAGS: Readonly<Record<string, string>> = {
  court_id: '--court', kind: '--kind', reason: '--reason', starts_at: '--from', ends_at: '--to', weekday: '--weekly',
  start_time: '--start', end_time: '--end', valid_from: '--valid-from', valid_until: '--valid-until',
}

/** Upcoming bookings a change leaves without a place: cancelled (the guests mailed) when asked, else the change is refused. */
/**
 * Bookings in a change's way: refused, or (--cancel-bookings) cancelled by the operator with the
 * reason each guest is mailed, each recorded in the audit log.
 */
function displacedPolicy(ctx: AppContext, cancel: boolean | undefined, reason?: string): DisplacedBookings {
  if (reason !== undefined && cancel !== true) throw new InvalidInput('--cancellation-reason: only with --cancel-bookings')
  return cancel === true
    ? { policy: 'cancel', settings: { mailFrom: ctx.config.mail.from }, actor: OPERATOR, reason: reason ?? null }
    : { policy: 'refuse' }
}

/**
 * One court or hold changed through the import's rules, so that the command line and import files
 * obey the same rules; the import's refusals (`courts[0].slot_minutes: …`) are told in the options'
 * names (`--slot-minutes: …`).
 */
async function inFlagTerms<T>(section: 'courts' | 'court_holds', flags: Readonly<Record<string, string>>, change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error
    const problems = [...new Set(error.problems.map((problem) => problemInFlagTerms(problem, section, flags)))]
    throw new InvalidInput(problems.join('; '), problems)
  }
}

function problemInFlagTerms(problem: string, section: string, flags: Readonly<Record<string, string>>): string {
  const match = new RegExp(`^${section}\\[0\\](?:\\.(\\w+)((?:\\.\\w+)*))?: (.*)$`, 's').exec(problem)
  if (match === null) return problem
  const [, field, rest = '', message = ''] = match
  // Field names in the message itself ("needs starts_at before ends_at") become options too.
  const text = message.replace(/\b[a-z]+(?:_[a-z]+)+\b|\bweekday\b/g, (word) => flags[word] ?? word)
  if (field === undefined) return text
  return `${flags[field] ?? field}: ${rest === '' ? '' : `${rest.slice(1)}: `}${text}`
}

async function migrated(open: () => Promise<AppContext>): Promise<AppContext> {
  const ctx = await open()
  await migrateToLatest(ctx.db)
  return ctx
}

/** An RFC 3339 date-time with an offset, read as the API reads it (src/domain/date-time.ts); returned in UTC. */
function instantOption(flag: string, value: string): string {
  const time = parseDateTime(value)
  if (time === undefined) {
    throw new InvalidInput(`${flag}: "${value}" is not an RFC 3339 date-time with an offset (e.g. 2027-01-01T00:00:00Z)`)
  }
  return new Date(time).toISOString()
}

function futureInstantOption(flag: string, value: string, clock: Clock): string {
  const time = instantOption(flag, value)
  if (Date.parse(time) <= clock.now()) throw new InvalidInput(`${flag}: ${value} is not in the future`)
  return time
}

async function readJsonFile(file: string): Promise<unknown> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    throw new InvalidInput(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new InvalidInput(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function describeStatus(record: ApiKeyRecord, clock: Clock): string {
  const status = keyStatus(record, clock.now())
  return status === 'active' && record.expiresAt !== null ? `active until ${record.expiresAt}` : status
}

interface LimitOptions {
  capacity?: string
  perMinute?: string
  dailyQuota?: string
}

interface KeyCreateOptions extends LimitOptions {
  club: string
  scopes: string
  name: string
  expiresAt?: string
  json?: boolean
}

/** --capacity/--per-minute/--daily-quota: a positive integer, or "default" (null: back to the configured value). */
type LimitChanges = { capacity?: number | null, perMinute?: number | null, dailyQuota?: number | null }

function limitOptions(options: LimitOptions): LimitChanges {
  const parse = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined
    if (value === 'default') return null
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new InvalidInput(`${flag}: "${value}" is not a positive whole number or "default"`)
    return Number(value)
  }
  const capacity = parse('--capacity', options.capacity)
  const perMinute = parse('--per-minute', options.perMinute)
  const dailyQuota = parse('--daily-quota', options.dailyQuota)
  return {
    ...(capacity === undefined ? {} : { capacity }),
    ...(perMinute === undefined ? {} : { perMinute }),
    ...(dailyQuota === undefined ? {} : { dailyQuota }),
  }
}

function describeLimits(limits: LimitOverrides): string {
  const parts = [
    limits.capacity === undefined ? undefined : `burst ${String(limits.capacity)}`,
    limits.perMinute === undefined ? undefined : `${String(limits.perMinute)}/min`,
    limits.dailyQuota === undefined ? undefined : `${String(limits.dailyQuota)}/day`,
  ].filter((part) => part !== undefined)
  return parts.length === 0 ? 'default' : parts.join(', ')
}

function keyJson(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    prefix: record.displayPrefix,
    scopes: record.scopes,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    revoked_at: record.revokedAt,
    limits: {
      ...(record.limits.capacity === undefined ? {} : { capacity: record.limits.capacity }),
      ...(record.limits.perMinute === undefined ? {} : { per_minute: record.limits.perMinute }),
      ...(record.limits.dailyQuota === undefined ? {} : { daily_quota: record.limits.dailyQuota }),
    },
  }
}

function bookingJson(booking: ClubBooking) {
  return {
    id: booking.id, court_id: booking.courtId, court_name: booking.courtName, start_time: booking.start, end_time: booking.end,
    booker_name: booking.bookerName, booker_email: booking.bookerEmail, notes: booking.notes, status: booking.status,
    created_at: booking.createdAt, cancelled_at: booking.cancelledAt, cancelled_by: booking.cancelledBy,
    cancel_reason: booking.cancelReason,
  }
}

/** 90 → "1 h 30 min", 120 → "2 hours", 0 → "0 minutes". */
function describeMinutes(minutes: number): string {
  if (minutes % 60 === 0 && minutes > 0) return `${String(minutes / 60)} hour${minutes === 60 ? '' : 's'}`
  return minutes < 60 ? `${String(minutes)} minutes` : `${String(Math.floor(minutes / 60))} h ${String(minutes % 60)} min`
}

/** A court in the import format's terms (docs/import-format.md), so that listed courts can be edited and imported again. */
function courtJson(court: Court) {
  return {
    id: court.id,
    name: court.name,
    sport: court.sport,
    active: court.active,
    slot_minutes: court.slotMinutes,
    opening_hours: court.openingHours,
    booking_horizon_days: court.bookingHorizonDays,
    max_slots_per_booking: court.maxSlotsPerBooking,
  }
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}
