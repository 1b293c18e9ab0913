/** What utilisation reads (docs/utilisation.md): a club's bookings that start in a window, through bookings_club_start_idx. */
import type { Kysely } from 'kysely'
import type { CountedBooking } from '../../domain/utilisation.js'
import type { Interval } from '../../domain/slots.js'
import type { Database } from '../schema.js'
import { isoForDb, isoFromDb } from '../values.js'

/** The club's bookings (any state) that start within the window, of one court or all; only what utilisation counts. */
export async function bookingsStarting(db: Kysely<Database>, clubId: string, window: Interval, courtId?: string):
Promise<CountedBooking[]> {
  let query = db.selectFrom('bookings').select(['court_id', 'starts_at', 'ends_at', 'status', 'cancelled_by'])
    .where('club_id', '=', clubId).where('starts_at', '>=', isoForDb(window.start)).where('starts_at', '<', isoForDb(window.end))
  if (courtId !== undefined) query = query.where('court_id', '=', courtId)
  const rows = await query.execute()
  return rows.map((row) => ({ courtId: row.court_id, start: Date.parse(isoFromDb(row.starts_at)),
    end: Date.parse(isoFromDb(row.ends_at)), cancelledBy: row.status === 'cancelled' ? row.cancelled_by ?? 'club' : null }))
}
