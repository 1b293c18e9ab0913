/** bookings: a club's bookings of a day, and booking, cancelling or moving one for the club. */
import type { Command } from 'commander'
import type { AppContext } from '../../context.js'
import { findClubBooking, listBookings } from '../../db/repositories/bookings.js'
import type { ClubBooking } from '../../db/repositories/bookings.js'
import { InvalidInput } from '../../domain/errors.js'
import { formatInZone, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { OPERATOR } from '../../services/audit.js'
import { cancelByClub, cancellationSettings } from '../../services/booking-cancellation.js'
import { moveBooking } from '../../services/booking-moves.js'
import { bookForClub, bookingSettings } from '../../services/bookings.js'
import { requireClub } from '../../services/clubs.js'
import { dateOption, emailOption, idArgument, instantOption, optional, textOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** bookings list, create, cancel and move. */
export function registerBookings(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const bookings = program.command('bookings').description('list a club\'s bookings, book for the club, cancel and move them')
  bookings.command('list').description('list the bookings of a club that start on a date (club-local), cancelled ones too')
    .requiredOption('--club <slug>', 'the club')
    .option('--date <date>', 'the local date YYYY-MM-DD (default: today at the club)')
    .addOption(jsonOption())
    .action(async (options: { club: string, date?: string, json?: boolean }) => {
      const date = optional(options.date, (value) => dateOption('--date', value))
      const ctx = await migrated()
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
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const result = await cancelByClub(ctx.db, clock, cancellationSettings(ctx.config),
        { clubId: club.id, bookingId: id, reason: reason ?? null, actor: OPERATOR })
      if (result === undefined) throw new InvalidInput(`no booking ${bookingId} at ${club.slug}`)
      if (result.outcome === 'ended') throw new InvalidInput(`booking ${id} has already ended; it stays as it was`)
      print(options.json === true, { id, status: result.booking.status, already_cancelled: result.outcome === 'already-cancelled' },
        result.outcome === 'cancelled' ? `Cancelled booking ${id}; the guest is mailed.` : `Booking ${id} was already cancelled.`)
    })
  bookings.command('move').description('move a booking to another time or court of the club; the guest gets the change with a '
    + 'calendar update of the same event')
    .argument('<booking-id>', 'the id shown by bookings list')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--start <date-time>', 'the new start, RFC 3339 with an offset (e.g. 2027-05-04T18:00:00+02:00)')
    .requiredOption('--end <date-time>', 'the new end, RFC 3339 with an offset')
    .option('--court <court-id>', 'the court to move it to (default: the one it is on)')
    .option('--no-mail', 'do not mail the guest')
    .addOption(jsonOption())
    .action(async (bookingId: string, options: MoveOptions) => {
      const id = idArgument(bookingId, 'booking', 'bookings list')
      instantOption('--start', options.start)
      instantOption('--end', options.end)
      const courtId = optional(options.court, (value) => idArgument(value, 'court', 'courts list', '--court'))
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const current = await bookingToMove(ctx.db, club, id)
      const moved = await moveBooking(ctx.db, clock, cancellationSettings(ctx.config), { clubId: club.id, bookingId: id,
        target: { court_id: courtId ?? current.courtId, start_time: options.start, end_time: options.end },
        mover: { by: 'club', actor: OPERATOR, notifyGuest: options.mail } })
      const { booking } = moved
      print(options.json === true, { id, court_id: booking.courtId, court_name: booking.courtName,
        start_time: formatInZone(booking.start, club.timezone), end_time: formatInZone(booking.end, club.timezone) },
      `Moved booking ${id} to ${booking.courtName}, ${formatInZone(booking.start, club.timezone)}–`
      + `${formatInZone(booking.end, club.timezone).slice(11)}${options.mail ? '; the guest is mailed' : ''}.`)
    })
  bookings.command('create').description('book a court for the club, for a member or a guest (with or without an address); '
    + 'the guest with an address is mailed a confirmation')
    .requiredOption('--club <slug>', 'the club')
    .requiredOption('--court <court-id>', 'the court (courts list)')
    .requiredOption('--start <date-time>', 'the start, RFC 3339 with an offset (e.g. 2027-05-04T18:00:00+02:00)')
    .requiredOption('--end <date-time>', 'the end, RFC 3339 with an offset')
    .requiredOption('--name <name>', 'the member\'s or guest\'s name (up to 100 characters)')
    .option('--email <address>', 'where the confirmation goes; a member\'s address links the booking to the member')
    .option('--note <text>', 'a note (up to 500 characters)')
    .option('--no-mail', 'do not mail a confirmation')
    .option('--override-horizon', 'book beyond the court\'s booking horizon (needs --reason)')
    .option('--override-limits', 'book although the address is at its limits (needs --reason)')
    .option('--reason <text>', 'why the club overrides, for the audit log')
    .addOption(jsonOption())
    .action(async (options: CreateOptions) => {
      const courtId = idArgument(options.court, 'court', 'courts list', '--court')
      instantOption('--start', options.start)
      instantOption('--end', options.end)
      const name = textOption('--name', options.name, 100)
      const email = optional(options.email, emailOption)
      const note = optional(options.note, (value) => textOption('--note', value, 500))
      const reason = optional(options.reason, (value) => textOption('--reason', value, 500))
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const outcome = await bookForClub(ctx.db, clock, bookingSettings(ctx), club, { court_id: courtId, start_time: options.start,
        end_time: options.end, booker_name: name, booker_email: email ?? '', notes: note }, { actor: OPERATOR, confirm: options.mail,
        overrideHorizon: options.overrideHorizon === true, overrideAddressLimits: options.overrideLimits === true,
        reason: reason ?? null })
      const booking = await findClubBooking(ctx.db, club.id, outcome.bookingId)
      if (booking === undefined) throw new InvalidInput(`booking ${outcome.bookingId} is gone`)
      const mailed = email !== undefined && options.mail
      print(options.json === true, bookingJson(booking), `Booked ${booking.courtName}, `
      + `${formatInZone(Date.parse(booking.start), club.timezone)}–${formatInZone(Date.parse(booking.end), club.timezone).slice(11)}`
      + ` for ${name} (booking ${booking.id})${mailed ? '; the guest is mailed a confirmation' : ''}.`)
    })
}

interface CreateOptions {
  readonly club: string
  readonly court: string
  readonly start: string
  readonly end: string
  readonly name: string
  readonly email?: string
  readonly note?: string
  /** False with --no-mail. */
  readonly mail: boolean
  readonly overrideHorizon?: boolean
  readonly overrideLimits?: boolean
  readonly reason?: string
  readonly json?: boolean
}

interface MoveOptions {
  readonly club: string
  readonly start: string
  readonly end: string
  readonly court?: string
  /** False with --no-mail. */
  readonly mail: boolean
  readonly json?: boolean
}

/** The booking to move, for its current court; a booking of another club or none is not found. */
async function bookingToMove(db: AppContext['db'], club: { id: string, slug: string }, id: string): Promise<ClubBooking> {
  const booking = await findClubBooking(db, club.id, id)
  if (booking === undefined) throw new InvalidInput(`no booking ${id} at ${club.slug}`)
  return booking
}

function bookingJson(booking: ClubBooking) {
  return {
    id: booking.id, court_id: booking.courtId, court_name: booking.courtName, start_time: booking.start, end_time: booking.end,
    booker_name: booking.bookerName, booker_email: booking.bookerEmail, notes: booking.notes, status: booking.status,
    created_at: booking.createdAt, cancelled_at: booking.cancelledAt, cancelled_by: booking.cancelledBy,
    cancel_reason: booking.cancelReason,
  }
}
