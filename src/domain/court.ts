/** Rules for a court's settings, shared by the import and the command line. */

/**
 * The slot lengths a court may have, in minutes: each divides a day evenly, so a court open
 * 00:00–24:00 has whole slots that end at midnight, where the next day's grid begins.
 */
export const SLOT_LENGTHS = [10, 15, 20, 30, 45, 60, 90, 120] as const
export const DEFAULT_SLOT_MINUTES = 60
