/** Rules for a court's settings, shared by the import, the command line and the migrations. */

/**
 * The slot lengths a court may have, in minutes: each divides a day evenly, so a court open
 * 00:00–24:00 has whole slots that end at midnight, where the next day's grid begins.
 */
export const SLOT_LENGTHS = [10, 15, 20, 30, 45, 60, 90, 120] as const
export const DEFAULT_SLOT_MINUTES = 60
/** The most slots one booking may cover (a court's max_slots_per_booking is at most this). */
export const MAX_SLOTS_PER_BOOKING = 48
/**
 * The longest a booking can be: the most slots of the longest length. What overlaps a window
 * starts at most this long before it, which bounds the read of a court's bookings by their start.
 */
export const LONGEST_BOOKING_MS = MAX_SLOTS_PER_BOOKING * Math.max(...SLOT_LENGTHS) * 60_000

/**
 * What makes two court names the same within a club: compatibility forms (NFKC: "Ｃｏｕｒｔ" is
 * "Court"), surrounding and repeated whitespace, and case. Computed here rather than in SQL, so
 * SQLite and PostgreSQL hold exactly the same key. An empty key means a blank name.
 */
export function courtNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase()
}
