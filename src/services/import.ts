/**
 * Loads a club's data from an import document, all or nothing: the document is checked whole
 * (schema, duplicate ids, references, ids owned by another club) and any problem rejects it with
 * messages naming the entry, before anything is written; the writes run in one transaction.
 */
import { Ajv } from 'ajv'
import type { ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../clock.js'
import { findClubById } from '../db/repositories/clubs.js'
import { courtNamesOf, saveCourtHolds, saveCourts } from '../db/repositories/courts.js'
import { groupIdsOf, idsOfOtherClubs, memberAddressesOf, upsertContent } from '../db/repositories/import.js'
import type { Database } from '../db/schema.js'
import { isoForDb } from '../db/values.js'
import { instantOf } from '../domain/date-time.js'
import { InvalidInput } from '../domain/errors.js'
import { useServiceDateTime } from '../schemas/formats.js'
import { DEFAULT_SLOT_MINUTES, courtNameKey } from '../domain/court.js'
import { DEFAULT_OPENING_HOURS } from '../domain/slots.js'
import { ImportDocument } from '../schemas/import.js'
import type { Actor, AuditRecord } from './audit.js'
import { displacedBookingIds, lockCourts, settleDisplacedBookings } from './holds.js'
import type { CourtChange, DisplacedBookings } from './holds.js'
import { recordContentEvents, snapshot } from '../webhooks/content-events.js'
import { write } from './unit-of-work.js'
import type { UnitOfWork } from './unit-of-work.js'

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true })
addFormats.default(ajv)
useServiceDateTime(ajv)
const validateDocument = ajv.compile<ImportDocument>(ImportDocument)

export interface ImportSummary {
  readonly members: number
  readonly groups: number
  readonly events: number
  readonly news: number
  readonly competition_results: number
  readonly courts: number
  readonly court_holds: number
  /** Upcoming bookings cancelled because a hold of the file covers them (with `bookingsUnderHolds: cancel`). */
  readonly bookings_cancelled: number
}

const SECTIONS = ['members', 'groups', 'events', 'news', 'competition_results', 'courts', 'court_holds'] as const

const MAX_PROBLEMS = 50

export function parseImportDocument(input: unknown): ImportDocument {
  if (!validateDocument(input)) {
    const problems = (validateDocument.errors ?? []).map(describeSchemaError)
    throw rejection([...new Set(problems)])
  }
  return input
}

function describeSchemaError(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`)).join('')
  const params = error.params as Record<string, unknown>
  if (typeof params.additionalProperty === 'string') {
    return `${path === '' ? 'document' : path}: unknown property "${params.additionalProperty}"`
  }
  if (Array.isArray(params.allowedValues)) {
    return `${path === '' ? 'document' : path}: must be one of ${params.allowedValues.map(String).join(', ')}`
  }
  return `${path === '' ? 'document' : path}: ${error.message ?? 'is invalid'}`
}

function rejection(problems: readonly string[]): InvalidInput {
  const shown = problems.slice(0, MAX_PROBLEMS)
  const more = problems.length > shown.length ? [`… and ${problems.length - shown.length} more`] : []
  return new InvalidInput(`the import file was rejected, nothing was changed:\n  ${[...shown, ...more].join('\n  ')}`,
    problems)
}

export interface ImportOptions {
  /**
   * Upcoming bookings the file leaves without a place (under its holds, on its courts made inactive
   * or given other hours or slot lengths): refuse the file (the default), or cancel them, mailing each guest.
   */
  readonly displacedBookings?: DisplacedBookings
  /** An entry for the audit log, written in the import's transaction. */
  readonly audit?: { readonly actor: Actor, readonly record: AuditRecord }
}

export async function importClubData(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return write(db, clock.now(), (work) => importWithin(work, clubId, input, options))
}

/** The change-feed areas whose lists a change of each section touches. */
export const SECTION_AREAS: Readonly<Record<(typeof SECTIONS)[number], readonly string[]>> = {
  members: ['news', 'competition_results'], groups: ['groups'], events: ['events'], news: ['news'],
  competition_results: ['competition_results'], courts: ['courts'], court_holds: ['courts'],
}

/** The import inside a unit of work the caller holds, for an operation that checks or writes more in it. */
export async function importWithin(
  work: UnitOfWork,
  clubId: string,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const trx = work.db
  const doc = normalise(parseImportDocument(input))
  const now = isoForDb(work.now)
  const problems = [...checkWithinFile(doc), ...await checkAgainstDatabase(trx, clubId, doc)]
  if (problems.length > 0) throw rejection(problems)
  // Before anything is written: a booking of these courts made meanwhile is seen below, or sees the holds.
  await lockCourts(trx, [...doc.courts.map((court) => court.id), ...doc.court_holds.map((hold) => hold.court_id)])
  const subjects = { groups: doc.groups.map(idOf), events: doc.events.map(idOf), news: doc.news.map(idOf),
    competition_results: doc.competition_results.map(idOf) }
  const before = await snapshot(trx, clubId, subjects)
  await writeDocument(trx, clubId, doc, now)
  const club = await clubOf(trx, clubId)
  const cancelled = await settleDisplacedBookings(work, club, courtChangeOf(doc), options.displacedBookings ?? { policy: 'refuse' })
  await recordContentEvents(work, clubId, subjects, before)
  const entry = options.audit
  if (entry !== undefined) await work.audit(entry.actor, clubId, entry.record)
  for (const section of SECTIONS) {
    if (doc[section].length > 0) for (const area of SECTION_AREAS[section]) work.changed(`${area}:${clubId}`)
  }
  return {
    members: doc.members.length,
    groups: doc.groups.length,
    events: doc.events.length,
    news: doc.news.length,
    competition_results: doc.competition_results.length,
    courts: doc.courts.length,
    court_holds: doc.court_holds.length,
    bookings_cancelled: cancelled.length,
  }
}

const idOf = (record: { readonly id: string }) => record.id

/** The club an import writes to: its callers found it already, so a missing one is a fault. */
async function clubOf(db: Kysely<Database>, clubId: string): Promise<{ id: string, timezone: string }> {
  const club = await findClubById(db, clubId)
  if (club === undefined) throw new Error(`no club ${clubId}`)
  return club
}

/**
 * The problems of an import document, as importing it now would name them; nothing is written.
 * Empty: the document would be imported.
 */
export async function importProblems(db: Kysely<Database>, clubId: string, input: unknown): Promise<readonly string[]> {
  let doc: Normalised
  try {
    doc = normalise(parseImportDocument(input))
  } catch (error) {
    if (error instanceof InvalidInput) return error.problems
    throw error
  }
  return db.transaction().execute(async (trx) => [...checkWithinFile(doc), ...await checkAgainstDatabase(trx, clubId, doc)])
}

/**
 * The upcoming bookings an import document would leave without a place, by start; nothing is
 * written. What the dashboard shows before it asks whether to cancel them.
 */
export async function previewDisplacedBookings(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  input: unknown,
): Promise<string[]> {
  const doc = normalise(parseImportDocument(input))
  const club = await clubOf(db, clubId)
  return displacedBookingIds(db, club, courtChangeOf(doc), clock.now())
}

type Normalised = Required<Omit<ImportDocument, '$schema'>>

/** The file's courts and holds as written, in the terms of src/services/holds.ts. */
export function courtChangeOf(doc: Pick<Normalised, 'courts' | 'court_holds'>): CourtChange {
  return {
    courts: doc.courts.map((court) => ({ id: court.id, active: court.active ?? true,
      slotMinutes: court.slot_minutes ?? DEFAULT_SLOT_MINUTES, openingHours: court.opening_hours ?? DEFAULT_OPENING_HOURS })),
    holds: doc.court_holds.map((hold) => ({
      court_id: hold.court_id,
      starts_at: hold.starts_at === undefined ? undefined : isoForDb(hold.starts_at),
      ends_at: hold.ends_at === undefined ? undefined : isoForDb(hold.ends_at),
      weekday: hold.weekday === undefined ? undefined : WEEKDAY_NUMBER[hold.weekday],
      start_time: hold.start_time, end_time: hold.end_time, valid_from: hold.valid_from, valid_until: hold.valid_until,
    })),
  }
}

/** Ids in lower case and e-mails in lower case, so that comparisons and sorting agree on both databases. */
function normalise(doc: ImportDocument): Normalised {
  const lower = <T extends { id: string }>(rows: T[] | undefined): T[] =>
    (rows ?? []).map((row) => ({ ...row, id: row.id.toLowerCase() }))
  const lowerRef = (id: string | null | undefined) => (id == null ? null : id.toLowerCase())
  return {
    members: lower(doc.members).map((member) => ({ ...member, email: member.email.trim().toLowerCase() })),
    groups: lower(doc.groups),
    events: lower(doc.events).map((event) => ({ ...event, group_id: lowerRef(event.group_id) })),
    news: lower(doc.news).map((item) => ({ ...item, group_id: lowerRef(item.group_id), created_by: lowerRef(item.created_by) })),
    competition_results: lower(doc.competition_results)
      .map((result) => ({ ...result, member_id: result.member_id.toLowerCase(), group_id: result.group_id.toLowerCase() })),
    courts: lower(doc.courts),
    court_holds: lower(doc.court_holds).map((hold) => ({ ...hold, court_id: hold.court_id.toLowerCase() })),
  }
}

function checkWithinFile(doc: Normalised): string[] {
  const problems: string[] = []
  for (const section of SECTIONS) {
    const seen = new Map<string, number>()
    doc[section].forEach((row, i) => {
      const first = seen.get(row.id)
      if (first === undefined) seen.set(row.id, i)
      else problems.push(`${section}[${i}].id: ${row.id} is also the id of ${section}[${first}]`)
    })
  }
  const emails = new Map<string, number>()
  doc.members.forEach((member, i) => {
    const first = emails.get(member.email)
    if (first === undefined) emails.set(member.email, i)
    else problems.push(`members[${i}].email: also the e-mail of members[${first}]`)
  })
  doc.groups.forEach((group, i) => {
    if (group.age_min != null && group.age_max != null && group.age_min > group.age_max) {
      problems.push(`groups[${i}]: age_min is greater than age_max`)
    }
  })
  doc.events.forEach((event, i) => {
    if (event.ends_at != null && instantOf(event.ends_at) < instantOf(event.starts_at)) {
      problems.push(`events[${i}]: ends_at is before starts_at`)
    }
  })
  const courtNames = new Map<string, number>()
  doc.courts.forEach((court, i) => {
    const key = courtNameKey(court.name)
    const first = courtNames.get(key)
    if (key === '') problems.push(`courts[${i}].name: must not be blank`)
    else if (first === undefined) courtNames.set(key, i)
    else problems.push(`courts[${i}].name: "${court.name}" is also the name of courts[${first}] (names differing only in case or spacing are the same)`)
  })
  doc.courts.forEach((court, i) => {
    for (const [day, hours] of Object.entries(court.opening_hours ?? {})) {
      if (hours != null && hours.close <= hours.open) problems.push(`courts[${i}].opening_hours.${day}: close is not after open`)
    }
  })
  doc.court_holds.forEach((hold, i) => {
    const once = hold.starts_at !== undefined || hold.ends_at !== undefined
    const weekly = hold.weekday !== undefined || hold.start_time !== undefined || hold.end_time !== undefined
    if (once === weekly) {
      problems.push(`court_holds[${i}]: give either starts_at and ends_at (one-off) or weekday, start_time and end_time (weekly)`)
    } else if (once && (hold.starts_at === undefined || hold.ends_at === undefined
      || instantOf(hold.ends_at) <= instantOf(hold.starts_at))) {
      problems.push(`court_holds[${i}]: a one-off hold needs starts_at before ends_at`)
    } else if (weekly && (hold.weekday === undefined || hold.start_time === undefined || hold.end_time === undefined
      || hold.end_time <= hold.start_time)) {
      problems.push(`court_holds[${i}]: a weekly hold needs weekday, and start_time before end_time`)
    }
  })
  return problems
}

async function checkAgainstDatabase(trx: Transaction<Database>, clubId: string, doc: Normalised): Promise<string[]> {
  const problems: string[] = []
  // An id already used by another club is refused: an import can never touch another club's data.
  for (const section of SECTIONS) {
    const ids = doc[section].map((row) => row.id)
    const foreign = new Set<string>()
    for (const id of await idsOfOtherClubs(trx, section, ids, clubId)) foreign.add(id.toLowerCase())
    doc[section].forEach((row, i) => {
      if (foreign.has(row.id)) problems.push(`${section}[${i}].id: ${row.id} belongs to another club`)
    })
  }
  const existingMembers = await memberAddressesOf(trx, clubId)
  const memberByEmail = new Map(existingMembers.map((member) => [member.email, member.id.toLowerCase()]))
  doc.members.forEach((member, i) => {
    const owner = memberByEmail.get(member.email)
    if (owner !== undefined && owner !== member.id && !doc.members.some((other) => other.id === owner)) {
      problems.push(`members[${i}].email: already the e-mail of another member of the club (${owner})`)
    }
  })

  const groupIds = new Set([...doc.groups.map((group) => group.id), ...(await groupIdsOf(trx, clubId))
    .map((id) => id.toLowerCase())])
  const memberIds = new Set([...doc.members.map((member) => member.id), ...existingMembers.map((row) => row.id.toLowerCase())])
  const reference = (set: Set<string>, kind: string, at: string, id: string | null) => {
    if (id !== null && !set.has(id)) problems.push(`${at}: no ${kind} ${id} in this file or in the club`)
  }
  doc.events.forEach((event, i) => {
    reference(groupIds, 'group', `events[${i}].group_id`, event.group_id ?? null)
  })
  doc.news.forEach((item, i) => {
    reference(groupIds, 'group', `news[${i}].group_id`, item.group_id ?? null)
    reference(memberIds, 'member', `news[${i}].created_by`, item.created_by ?? null)
  })
  doc.competition_results.forEach((result, i) => {
    reference(memberIds, 'member', `competition_results[${i}].member_id`, result.member_id)
    reference(groupIds, 'group', `competition_results[${i}].group_id`, result.group_id)
  })
  const clubCourts = await courtNamesOf(trx, clubId)
  const courtIds = new Set([...doc.courts.map((court) => court.id), ...clubCourts.map((court) => court.id)])
  // A name may not be another court's, unless this file renames that court too (the file's own names were checked above).
  const inFile = new Set(doc.courts.map((court) => court.id))
  const keptNames = new Map(clubCourts.filter((court) => !inFile.has(court.id)).map((court) => [court.nameKey, court]))
  doc.courts.forEach((court, i) => {
    const holder = keptNames.get(courtNameKey(court.name))
    if (holder !== undefined) {
      problems.push(`courts[${i}].name: "${court.name}" is already the name of court ${holder.id} ("${holder.name}") of the club`)
    }
  })
  doc.court_holds.forEach((hold, i) => {
    reference(courtIds, 'court', `court_holds[${i}].court_id`, hold.court_id)
  })
  return problems
}

async function writeDocument(trx: Transaction<Database>, clubId: string, doc: Normalised, now: string): Promise<void> {
  await writeCourts(trx, clubId, doc, now)
  await upsertContent(trx, clubId, doc, now)
}

const WEEKDAY_NUMBER = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 } as const

async function writeCourts(trx: Transaction<Database>, clubId: string, doc: Normalised, now: string): Promise<void> {
  await saveCourts(trx, clubId, doc.courts.map((c) => ({
    id: c.id, name: c.name, sport: c.sport ?? 'tennis', active: c.active ?? true, slot_minutes: c.slot_minutes ?? DEFAULT_SLOT_MINUTES,
    opening_hours: JSON.stringify(c.opening_hours ?? DEFAULT_OPENING_HOURS), booking_horizon_days: c.booking_horizon_days ?? 14,
    max_slots_per_booking: c.max_slots_per_booking ?? 2, created_at: now,
  })))
  await saveCourtHolds(trx, clubId, doc.court_holds.map((h) => ({
    id: h.id, court_id: h.court_id, kind: h.kind, reason: h.reason ?? null,
    starts_at: h.starts_at === undefined ? null : isoForDb(h.starts_at),
    ends_at: h.ends_at === undefined ? null : isoForDb(h.ends_at),
    weekday: h.weekday === undefined ? null : WEEKDAY_NUMBER[h.weekday], start_time: h.start_time ?? null,
    end_time: h.end_time ?? null, valid_from: h.valid_from ?? null, valid_until: h.valid_until ?? null, created_at: now,
  })))
}
