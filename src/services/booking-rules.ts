/**
 * A club's booking rules (docs/bookings.md): until when guests may cancel, how long their data is
 * kept, the club's privacy notice. One function to change them, shared by the dashboard and the
 * command line, recorded in the audit log.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { bookingRulesOf, updateBookingRules } from '../db/repositories/bookings.js'
import type { BookingRules } from '../db/repositories/bookings.js'
import type { Database } from '../db/schema.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

export async function changeBookingRules(
  db: Kysely<Database>,
  clock: Clock,
  input: { readonly clubId: string, readonly rules: Partial<BookingRules>, readonly actor: Actor },
): Promise<BookingRules> {
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    await updateBookingRules(trx, input.clubId, input.rules)
    const rules = await bookingRulesOf(trx, input.clubId)
    await work.audit(input.actor, input.clubId, { action: 'booking_rules.changed', targetName: 'the booking rules',
      fields: Object.keys(input.rules).map(snakeCase), detail: `cancellation deadline ${String(rules.cancellationDeadlineMinutes)} min, retention ${String(rules.retentionDays)} days, `
        + `privacy notice ${rules.privacyUrl ?? 'none'}, at most ${rules.maxOpenPerEmail === null ? 'the default' : String(rules.maxOpenPerEmail)} `
        + `upcoming bookings per address, ${rules.guestsMayBook ? 'guests and members' : 'members only'}, guests' language `
        + `${rules.language}, contact ${rules.contactEmail === null ? 'none' : 'set'}, waiting list `
        + (rules.waitingList ? 'on' : 'off') + `, phone ${rules.contactPhone === null ? 'none' : 'set'}, address `
        + (rules.address === null ? 'none' : 'set') })
    // The courts listing says whether guests may wait for a taken time: its cached answers are stale.
    await work.changedUntracked(`courts:${input.clubId}`)
    return rules
  })
}

/** A rule's name as the API writes it: `cancellationDeadlineMinutes` → `cancellation_deadline_minutes`. */
function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}
