/** series: a club's weekly series of bookings (src/services/booking-series.ts): preview, book, cancel the rest. */
import { cancellationSettings } from '../../services/booking-cancellation.js'
import type { Command } from 'commander'
import { InvalidInput } from '../../domain/errors.js'
import { formatInZone } from '../../domain/zoned-time.js'
import { OPERATOR } from '../../services/audit.js'
import { cancelSeriesFrom, createSeries, previewSeries } from '../../services/booking-series.js'
import type { SeriesInput, SeriesOccurrence } from '../../services/booking-series.js'
import { requireClub } from '../../services/clubs.js'
import { clockTimeOption, dateOption, emailOption, idArgument, optional, textOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

interface SeriesOptions {
  readonly club: string
  readonly court: string
  readonly start: string
  readonly end: string
  readonly from: string
  readonly until: string
  readonly name: string
  readonly email?: string
  readonly note?: string
  readonly refuseCollisions?: boolean
  readonly json?: boolean
}

function seriesCommand(command: Command): Command {
  return command.requiredOption('--club <slug>', 'the club')
    .requiredOption('--court <court-id>', 'the court (courts list)')
    .requiredOption('--start <HH:MM>', 'the local start time')
    .requiredOption('--end <HH:MM>', 'the local end time')
    .requiredOption('--from <date>', 'the first date YYYY-MM-DD; the series repeats on its weekday')
    .requiredOption('--until <date>', 'the last date it may reach (at most 53 weekly dates)')
    .requiredOption('--name <name>', 'the member, group or guest')
    .option('--email <address>', 'a member\'s address links every booking to the member')
    .option('--note <text>', 'a note on every booking')
    .addOption(jsonOption())
}

function inputOf(options: SeriesOptions): SeriesInput {
  return { court_id: idArgument(options.court, 'court', 'courts list', '--court'), start_time: clockTimeOption('--start', options.start),
    end_time: clockTimeOption('--end', options.end), first_date: dateOption('--from', options.from),
    last_date: dateOption('--until', options.until), booker_name: textOption('--name', options.name, 100),
    booker_email: optional(options.email, emailOption) ?? '', notes: optional(options.note, (value) => textOption('--note', value, 500)) }
}

/** series preview, create and cancel. */
export function registerSeries(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const series = program.command('series').description('weekly series of bookings: preview, book, cancel the rest')
  const occurrenceRow = (occurrence: SeriesOccurrence, zone: string) => [occurrence.date,
    formatInZone(occurrence.start, zone).slice(11, 16), occurrence.status, occurrence.reason ?? '']
  seriesCommand(series.command('preview').description('list the dates of a series and what is in their way; changes nothing'))
    .action(async (options: SeriesOptions) => {
      const input = inputOf(options)
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const preview = await previewSeries(ctx.db, clock, club, input)
      print(options.json === true, preview.occurrences.map((occurrence) => ({ date: occurrence.date, status: occurrence.status,
        reason: occurrence.reason })), table(['date', 'time', 'status', 'why'], preview.occurrences.map((occurrence) =>
        occurrenceRow(occurrence, club.timezone))))
    })
  seriesCommand(series.command('create').description('book the free dates of a series (or, with --refuse-collisions, all or '
    + 'nothing); nobody is mailed'))
    .option('--refuse-collisions', 'book nothing unless every date is free')
    .action(async (options: SeriesOptions) => {
      const input = inputOf(options)
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const saved = await createSeries(ctx.db, clock, club, input,
        { actor: OPERATOR, collisions: options.refuseCollisions === true ? 'refuse' : 'skip' })
      print(options.json === true, { id: saved.seriesId, booking_ids: saved.bookingIds, skipped: saved.skipped.map((occurrence) =>
        occurrence.date) }, `Booked series ${saved.seriesId}: ${String(saved.bookingIds.length)} dates`
        + `${saved.skipped.length === 0 ? '' : `; not booked: ${saved.skipped.map((occurrence) => occurrence.date).join(', ')}`}.`)
    })
  series.command('cancel').description('cancel the bookings of a series on a date and after (not mailed)')
    .argument('<series-id>', 'the id series create printed')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--from <date>', 'the first date to cancel, YYYY-MM-DD')
    .option('--reason <text>', 'why (up to 500 characters)')
    .addOption(jsonOption())
    .action(async (seriesId: string, options: { club: string, from: string, reason?: string, json?: boolean }) => {
      const id = idArgument(seriesId, 'series', 'series create')
      const from = dateOption('--from', options.from)
      const reason = optional(options.reason, (value) => textOption('--reason', value, 500))
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const cancelled = await cancelSeriesFrom(ctx.db, clock, cancellationSettings(ctx.config), { club, seriesId: id, from,
        reason: reason ?? null, actor: OPERATOR })
      if (cancelled === undefined) throw new InvalidInput(`no series ${id} at ${club.slug}`)
      print(options.json === true, { id, cancelled }, `Cancelled ${String(cancelled)} bookings of series ${id} from ${from}.`)
    })
}
