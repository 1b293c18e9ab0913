/** bookings: a club's bookings of a day, and cancelling one for the club (the guest is mailed). */
import type { Command } from 'commander'
import { listBookings } from '../../db/repositories/bookings.js'
import type { ClubBooking } from '../../db/repositories/bookings.js'
import { InvalidInput } from '../../domain/errors.js'
import { formatInZone, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { OPERATOR } from '../../services/audit.js'
import { cancelByClub } from '../../services/booking-cancellation.js'
import { requireClub } from '../../services/clubs.js'
import { dateOption, idArgument, optional, textOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

/** bookings list and cancel. */
export function registerBookings(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const bookings = program.command('bookings').description('list a club\'s bookings and cancel them (the guest is mailed)')
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
      const result = await cancelByClub(ctx.db, clock, { mailFrom: ctx.config.mail.from },
        { clubId: club.id, bookingId: id, reason: reason ?? null, actor: OPERATOR })
      if (result === undefined) throw new InvalidInput(`no booking ${bookingId} at ${club.slug}`)
      if (result.outcome === 'ended') throw new InvalidInput(`booking ${id} has already ended; it stays as it was`)
      print(options.json === true, { id, status: result.booking.status, already_cancelled: result.outcome === 'already-cancelled' },
        result.outcome === 'cancelled' ? `Cancelled booking ${id}; the guest is mailed.` : `Booking ${id} was already cancelled.`)
    })
}

function bookingJson(booking: ClubBooking) {
  return {
    id: booking.id, court_id: booking.courtId, court_name: booking.courtName, start_time: booking.start, end_time: booking.end,
    booker_name: booking.bookerName, booker_email: booking.bookerEmail, notes: booking.notes, status: booking.status,
    created_at: booking.createdAt, cancelled_at: booking.cancelledAt, cancelled_by: booking.cancelledBy,
    cancel_reason: booking.cancelReason,
  }
}
