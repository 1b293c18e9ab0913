/** courts: a club's courts, and the blocks and reservations that occupy them, changed through the import's rules. */
import { randomUUID } from 'node:crypto'
import type { Command } from 'commander'
import { Option } from 'commander'
import { findCourt, listCourts, listHolds } from '../../db/repositories/courts.js'
import type { Court, CourtHold } from '../../db/repositories/courts.js'
import { DEFAULT_SLOT_MINUTES, SLOT_LENGTHS } from '../../domain/court.js'
import { InvalidInput } from '../../domain/errors.js'
import { parseOpeningHours, WEEKDAYS } from '../../domain/slots.js'
import { formatInZone } from '../../domain/zoned-time.js'
import { OPERATOR } from '../../services/audit.js'
import { cancellationSettings } from '../../services/booking-cancellation.js'
import { requireClub } from '../../services/clubs.js'
import { removeHold, saveCourt, saveHold } from '../../services/courts.js'
import {
  clockTimeOption, dateOption, displacedPolicy, idArgument, instantOption, integerOption, optional, textOption, weekdayOption,
} from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** courts create, list and update, and the holds of a court. */
export function registerCourts(program: Command, cli: CliSession): void {
  const { migrated, print } = cli
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
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      await inFlagTerms('courts', COURT_FLAGS, () => saveCourt(ctx.db, ctx.clock, club.id, court, { actor: OPERATOR,
        displaced: { policy: 'refuse' } }))
      print(options.json === true, court, `Created court "${court.name}" (${court.id}) for ${club.slug}.`)
    })
  courts.command('list').description('list the courts of a club').requiredOption('--club <slug>', 'the club').addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated()
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
      const ctx = await migrated()
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
  registerHolds(courts, cli)
}

/** courts holds, hold and unhold: blocks and reservations. */
function registerHolds(courts: Command, cli: CliSession): void {
  const { migrated, print } = cli
  courts.command('holds').description('list the blocks and reservations of a court')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--court <id>', 'the court id (see courts list)')
    .addOption(jsonOption())
    .action(async (options: { club: string, court: string, json?: boolean }) => {
      const courtId = idArgument(options.court, 'court', 'courts list', '--court')
      const ctx = await migrated()
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
      const ctx = await migrated()
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
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      if (!await removeHold(ctx.db, ctx.clock, cancellationSettings(ctx.config), { clubId: club.id, holdId: id,
        actor: OPERATOR })) {
        throw new InvalidInput(`no block or reservation ${holdId} at ${club.slug}`)
      }
      print(options.json === true, { id, removed: true }, `Removed ${id}.`)
    })
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

/** The option behind each field of a court or hold, so that a refusal names what the user typed. */
const COURT_FLAGS: Readonly<Record<string, string>> = {
  name: '--name', sport: '--sport', active: '--inactive', slot_minutes: '--slot-minutes', opening_hours: '--hours',
  booking_horizon_days: '--horizon-days', max_slots_per_booking: '--max-slots',
}
const HOLD_FLAGS: Readonly<Record<string, string>> = {
  court_id: '--court', kind: '--kind', reason: '--reason', starts_at: '--from', ends_at: '--to', weekday: '--weekly',
  start_time: '--start', end_time: '--end', valid_from: '--valid-from', valid_until: '--valid-until',
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
