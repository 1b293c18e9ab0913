/** Rules for a court's settings, shared by the import, the command line and the migrations. */

/**
 * The slot lengths a court may have, in minutes: each divides a day evenly, so a court open
 * 00:00–24:00 has whole slots that end at midnight, where the next day's grid begins.
 */
export const SLOT_LENGTHS = [10, 15, 20, 30, 45, 60, 90, 120] as const
export const DEFAULT_SLOT_MINUTES = 60

/**
 * What makes two court names the same within a club: compatibility forms (NFKC: "Ｃｏｕｒｔ" is
 * "Court"), surrounding and repeated whitespace, and case. Computed here rather than in SQL, so
 * SQLite and PostgreSQL hold exactly the same key. An empty key means a blank name.
 */
export function courtNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase()
}
