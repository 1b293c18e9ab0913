/**
 * A club's courts and their blocks and reservations, as the dashboard and the command line change
 * them: one function per operation, each through the import (src/services/import.ts), so that a
 * court or hold entered anywhere obeys the same rules, and a change that would leave upcoming
 * bookings without a place is refused or cancels them (src/services/holds.ts). Each change is
 * recorded in the audit log.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { findCourt, findHold, deleteHold } from '../db/repositories/courts.js'
import type { Database } from '../db/schema.js'
import { audit } from './admins.js'
import type { Actor } from './admins.js'
import type { DisplacedBookings } from './holds.js'
import { importClubData, previewDisplacedBookings } from './import.js'

/** A court or hold in the import format (docs/import-format.md); the import checks it whole, as it checks a file's entries. */
export interface Entry {
  readonly id: string
}

export interface CourtChangeOptions {
  readonly actor: Actor
  /** Upcoming bookings the change leaves without a place: refuse the change (BookingsDisplaced), or cancel them. */
  readonly displaced: DisplacedBookings
}

/** Creates or changes a court; returns how many bookings were cancelled with it. */
export async function saveCourt(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  court: Entry,
  options: CourtChangeOptions,
): Promise<number> {
  const known = await findCourt(db, clubId, court.id) !== undefined
  return saveEntry(db, clock, clubId, { courts: [court] }, options, known ? 'court.changed' : 'court.created', court.id)
}

/** Adds or changes a block or reservation; returns how many bookings were cancelled with it. */
export async function saveHold(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  hold: Entry,
  options: CourtChangeOptions,
): Promise<number> {
  const known = await findHold(db, clubId, hold.id) !== undefined
  return saveEntry(db, clock, clubId, { court_holds: [hold] }, options, known ? 'hold.changed' : 'hold.added', hold.id)
}

async function saveEntry(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  document: { courts: [Entry] } | { court_holds: [Entry] },
  options: CourtChangeOptions,
  action: string,
  target: string,
): Promise<number> {
  const summary = await importClubData(db, clock, clubId, document, { displacedBookings: options.displaced,
    audit: { actor: options.actor, action, target } })
  return summary.bookings_cancelled
}

/** Removes a block or reservation of the club; false when the club has none with this id. */
export async function removeHold(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  holdId: string,
  actor: Actor,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!await deleteHold(trx, clubId, holdId)) return false
    await audit(trx, clock.now(), actor, clubId, 'hold.removed', holdId)
    return true
  })
}

/** The ids of the upcoming bookings a court or hold as given would leave without a place, by start; nothing is written. */
export async function displacedBy(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  change: { readonly court: Entry } | { readonly hold: Entry },
): Promise<string[]> {
  return previewDisplacedBookings(db, clock, clubId, 'court' in change ? { courts: [change.court] } : { court_holds: [change.hold] })
}
