/**
 * Bookings, their idempotency records and the clubs' booking rules. Every function that reads a
 * club's data takes the club id; a booking found by its guest's link carries its club.
 */
import { sql } from 'kysely'
import type { CompiledQuery, Kysely, Selectable } from 'kysely'
import { isGuestLanguage } from '../../domain/languages.js'
import type { GuestLanguage } from '../../domain/languages.js'
import { compiledOnce } from '../compiled.js'
import { joinedLines } from '../dialect.js'
import type { BookingStatus, CancelledBy, Database } from '../schema.js'
import { chunks, isoForDb, isoFromDb, isoFromDbOrNull } from '../values.js'

export interface BookingRules {
  /** How long before its start a guest may still cancel a booking; how long after it ends its guest's data are kept. */
  readonly cancellationDeadlineMinutes: number
  readonly retentionDays: number
  /** The club's privacy notice, linked from the booking mails and pages (null: none). */
  readonly privacyUrl: string | null
  /** The club's cap of upcoming bookings per address (null: the service's). */
  readonly maxOpenPerEmail: number | null
  /** False when only members (addresses of the club's member list) may book. */
  readonly guestsMayBook: boolean
  /** The guests' language when their browser names none the service speaks. */
  readonly language: GuestLanguage
  /** Where guests' replies go (the booking mails' Reply-To and the calendar event's organiser); null: nowhere but the service. */
  readonly contactEmail: string | null
  /** Whether guests may wait for a taken slot (docs/waiting-list.md). */
  readonly waitingList: boolean
  /** The club's phone number and postal address as guests read them (the booking's page, the calendar event); null: none. */
  readonly contactPhone: string | null
  readonly address: string | null
}

const RULE_COLUMNS = ['cancellation_deadline_minutes', 'booking_retention_days', 'privacy_url', 'max_open_bookings_per_email',
  'guests_may_book', 'language', 'contact_email', 'waiting_list', 'contact_phone', 'address'] as const

function rulesOf(row: Pick<Selectable<Database['clubs']>, (typeof RULE_COLUMNS)[number]>): BookingRules {
  return { cancellationDeadlineMinutes: row.cancellation_deadline_minutes, retentionDays: row.booking_retention_days,
    privacyUrl: row.privacy_url, maxOpenPerEmail: row.max_open_bookings_per_email, guestsMayBook: Boolean(row.guests_may_book),
    language: isGuestLanguage(row.language) ? row.language : 'en', contactEmail: row.contact_email,
    waitingList: Boolean(row.waiting_list), contactPhone: row.contact_phone, address: row.address }
}

// The statements of a booking's transaction are compiled once (compiled.ts).
const rulesQuery = compiledOnce((db, clubId: string) => db.selectFrom('clubs').select(RULE_COLUMNS).where('id', '=', clubId))

export async function bookingRulesOf(db: Kysely<Database>, clubId: string): Promise<BookingRules> {
  const [row] = await rulesQuery.execute(db, clubId)
  if (row === undefined) throw new Error(`no club ${clubId}`)
  return rulesOf(row)
}

export async function updateBookingRules(db: Kysely<Database>, clubId: string, rules: Partial<BookingRules>): Promise<void> {
  const changes = {
    ...rules.cancellationDeadlineMinutes === undefined
      ? {}
      : { cancellation_deadline_minutes: rules.cancellationDeadlineMinutes },
    ...rules.retentionDays === undefined ? {} : { booking_retention_days: rules.retentionDays },
    ...rules.privacyUrl === undefined ? {} : { privacy_url: rules.privacyUrl },
    ...rules.maxOpenPerEmail === undefined ? {} : { max_open_bookings_per_email: rules.maxOpenPerEmail },
    ...rules.guestsMayBook === undefined ? {} : { guests_may_book: rules.guestsMayBook },
    ...rules.language === undefined ? {} : { language: rules.language },
    ...rules.contactEmail === undefined ? {} : { contact_email: rules.contactEmail },
    ...rules.waitingList === undefined ? {} : { waiting_list: rules.waitingList },
    ...rules.contactPhone === undefined ? {} : { contact_phone: rules.contactPhone },
    ...rules.address === undefined ? {} : { address: rules.address },
  }
  if (Object.keys(changes).length === 0) return
  await db.updateTable('clubs').set(changes).where('id', '=', clubId).execute()
}

/** What a booking's checks read about the club and the address, under the court's lock. */
export interface AddressStanding {
  readonly rules: BookingRules
  /** The club's member with this address, if any. */
  readonly memberId: string | null
  /** Confirmed bookings of the address at the club that have not ended yet. */
  readonly openBookings: number
  /** Bookings made with the address at any club since `since`, whatever became of them. */
  readonly bookingsMade: number
  /** The club's enabled webhook endpoints, with the event types each receives. */
  readonly endpoints: { readonly id: string, readonly types: ReadonlySet<string> }[]
}

const standingQuery = compiledOnce((db, clubId: string, email: string, endsAfter: string, since: string) => db.selectFrom('clubs')
  .select((eb) => [...RULE_COLUMNS,
    eb.selectFrom('members').select('members.id').where('members.club_id', '=', clubId).where('members.email', '=', email).limit(1)
      .as('member_id'),
    eb.selectFrom('bookings').select((count) => count.fn.countAll<number | string>().as('n')).where('bookings.club_id', '=', clubId)
      .where('bookings.booker_email', '=', email).where('bookings.status', '=', 'confirmed').where('bookings.ends_at', '>', endsAfter)
      .as('open_bookings'),
    eb.selectFrom('bookings').select((count) => count.fn.countAll<number | string>().as('n')).where('bookings.booker_email', '=', email)
      .where('bookings.created_at', '>', since).as('bookings_made'),
    // One line per endpoint: its id, a space, its event types (a JSON array, which has no line break).
    eb.selectFrom('webhook_endpoints')
      .select(joinedLines(db, sql<string>`${sql.ref('webhook_endpoints.id')} || ' ' || ${sql.ref('webhook_endpoints.event_types')}`)
        .as('lines'))
      .where('webhook_endpoints.club_id', '=', clubId).where('webhook_endpoints.enabled', '=', true).as('endpoints'),
  ]).where('clubs.id', '=', clubId))

/**
 * The club's booking rules, the address's member record, its open bookings at the club, the
 * bookings made with it at any club since `since` (a booking cancelled at once still sent a mail)
 * and the club's webhook endpoints, in one statement: one round trip of a booking's transaction, not five.
 */
export async function addressStanding(db: Kysely<Database>, clubId: string, email: string, now: number, since: number):
Promise<AddressStanding> {
  const [row] = await standingQuery.execute(db, clubId, email, isoForDb(now), isoForDb(since))
  if (row === undefined) throw new Error(`no club ${clubId}`)
  return {
    rules: rulesOf(row),
    memberId: row.member_id ?? null, openBookings: Number(row.open_bookings ?? 0), bookingsMade: Number(row.bookings_made ?? 0),
    endpoints: (row.endpoints ?? '').split('\n').filter((line) => line !== '').map((line) => {
      const space = line.indexOf(' ')
      return { id: line.slice(0, space), types: new Set(JSON.parse(line.slice(space + 1)) as string[]) }
    }),
  }
}

export interface NewBooking {
  readonly id: string
  readonly clubId: string
  readonly courtId: string
  readonly start: number
  readonly end: number
  readonly bookerName: string
  readonly bookerEmail: string
  readonly memberId: string | null
  readonly notes: string | null
  readonly manageTokenHash: string
  /** The language it is made in: its mails are written in it. */
  readonly language: GuestLanguage
}

const insertBookingQuery = compiledOnce((db, id: string, clubId: string, courtId: string, start: string, end: string,
  bookerName: string, bookerEmail: string, memberId: string | null, notes: string | null, createdAt: string,
  manageTokenHash: string, language: string) => db.insertInto('bookings').values({
  id, club_id: clubId, court_id: courtId, starts_at: start, ends_at: end, booker_name: bookerName, booker_email: bookerEmail,
  member_id: memberId, notes, created_at: createdAt, manage_token_hash: manageTokenHash, language,
}))

/** The insert of a booking (its unit of work sends it with the booking's other rows). */
export function bookingInsert(db: Kysely<Database>, booking: NewBooking, now: number): CompiledQuery {
  return insertBookingQuery.compile(db, booking.id, booking.clubId, booking.courtId, isoForDb(booking.start),
    isoForDb(booking.end), booking.bookerName, booking.bookerEmail, booking.memberId, booking.notes, isoForDb(now),
    booking.manageTokenHash, booking.language)
}

/** A booking with what a page or a mail about it shows: its club, court, guest and state. */
export interface BookingDetails {
  readonly id: string
  readonly clubId: string
  readonly clubName: string
  readonly clubSlug: string
  readonly timezone: string
  readonly cancellationDeadlineMinutes: number
  readonly privacyUrl: string | null
  /** The club's contact address (Reply-To of the mails about the booking), phone and postal address; null for none. */
  readonly contactEmail: string | null
  readonly contactPhone: string | null
  readonly clubAddress: string | null
  /** The language the booking was made in. */
  readonly language: GuestLanguage
  readonly courtId: string
  readonly courtName: string
  readonly start: number
  readonly end: number
  readonly bookerName: string
  readonly bookerEmail: string
  /** The guest's notes as written (the move mail repeats them). */
  readonly notes: string | null
  readonly status: BookingStatus
  readonly cancelledAt: number | null
  readonly cancelledBy: CancelledBy | null
  readonly cancelReason: string | null
  readonly createdAt: number
  /** The SEQUENCE of the booking's calendar event (0 at the confirmation, raised by each move and the cancellation). */
  readonly calendarSequence: number
}

function details(db: Kysely<Database>) {
  return db.selectFrom('bookings')
    .innerJoin('clubs', 'clubs.id', 'bookings.club_id')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'bookings.club_id').onRef('courts.id', '=', 'bookings.court_id'))
    .select(['bookings.id', 'bookings.club_id', 'clubs.name as club_name', 'clubs.slug as club_slug', 'clubs.timezone',
      'clubs.cancellation_deadline_minutes', 'clubs.privacy_url', 'clubs.contact_email', 'clubs.contact_phone', 'clubs.address',
      'bookings.language', 'courts.name as court_name', 'bookings.starts_at', 'bookings.ends_at', 'bookings.booker_name',
      'bookings.booker_email', 'bookings.notes',
      'bookings.status', 'bookings.cancelled_at', 'bookings.cancelled_by', 'bookings.cancel_reason', 'bookings.court_id',
      'bookings.created_at', 'bookings.calendar_sequence'])
}

type DetailsRow = Awaited<ReturnType<ReturnType<typeof details>['executeTakeFirstOrThrow']>>

function toDetails(row: DetailsRow): BookingDetails {
  const cancelledAt = isoFromDbOrNull(row.cancelled_at)
  return {
    id: row.id, clubId: row.club_id, clubName: row.club_name, clubSlug: row.club_slug, timezone: row.timezone,
    cancellationDeadlineMinutes: row.cancellation_deadline_minutes, privacyUrl: row.privacy_url, contactEmail: row.contact_email,
    contactPhone: row.contact_phone, clubAddress: row.address, notes: row.notes,
    language: isGuestLanguage(row.language) ? row.language : 'en', courtId: row.court_id,
    courtName: row.court_name,
    start: Date.parse(isoFromDb(row.starts_at)), end: Date.parse(isoFromDb(row.ends_at)),
    bookerName: row.booker_name, bookerEmail: row.booker_email, status: row.status,
    cancelledAt: cancelledAt === null ? null : Date.parse(cancelledAt), cancelledBy: row.cancelled_by,
    cancelReason: row.cancel_reason, createdAt: Date.parse(isoFromDb(row.created_at)), calendarSequence: row.calendar_sequence,
  }
}

export async function findBookingByManageToken(db: Kysely<Database>, tokenHash: string): Promise<BookingDetails | undefined> {
  const row = await details(db).where('bookings.manage_token_hash', '=', tokenHash).executeTakeFirst()
  return row === undefined ? undefined : toDetails(row)
}

export async function findBooking(db: Kysely<Database>, clubId: string, bookingId: string): Promise<BookingDetails | undefined> {
  const row = await details(db).where('bookings.club_id', '=', clubId).where('bookings.id', '=', bookingId).executeTakeFirst()
  return row === undefined ? undefined : toDetails(row)
}

/** The club's bookings with these ids (another club's are not found), in the order of `ids`: one statement a chunk. */
export async function findBookings(db: Kysely<Database>, clubId: string, ids: readonly string[]): Promise<BookingDetails[]> {
  const byId = new Map<string, BookingDetails>()
  for (const chunk of chunks(ids)) {
    const rows = await details(db).where('bookings.club_id', '=', clubId).where('bookings.id', 'in', chunk).execute()
    for (const row of rows) byId.set(row.id, toDetails(row))
  }
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export interface Cancellation {
  readonly by: CancelledBy
  readonly reason: string | null
}

/**
 * Cancels a confirmed booking and raises its calendar sequence; answers the new sequence, or
 * undefined when it was no longer confirmed (cancelled meanwhile), so of two concurrent
 * cancellations exactly one succeeds.
 */
export async function markCancelled(
  db: Kysely<Database>,
  clubId: string,
  bookingId: string,
  cancellation: Cancellation,
  now: number,
): Promise<number | undefined> {
  const row = await db.updateTable('bookings')
    .set((eb) => ({ status: 'cancelled', cancelled_at: isoForDb(now), cancelled_by: cancellation.by,
      cancel_reason: cancellation.reason, calendar_sequence: eb('calendar_sequence', '+', 1) }))
    .where('club_id', '=', clubId).where('id', '=', bookingId).where('status', '=', 'confirmed')
    .returning('calendar_sequence').executeTakeFirst()
  return row?.calendar_sequence
}

/** Where and when a booking is to be after a move. */
export interface BookingPlace {
  readonly courtId: string
  readonly start: number
  readonly end: number
}

/**
 * Moves a confirmed booking to another court or time of its club and raises its calendar
 * sequence; answers the new sequence, or undefined when it was no longer confirmed. On
 * PostgreSQL an overlap with another confirmed booking of the court fails as an exclusion violation.
 */
export async function markMoved(db: Kysely<Database>, clubId: string, bookingId: string, place: BookingPlace):
Promise<number | undefined> {
  const row = await db.updateTable('bookings')
    .set((eb) => ({ court_id: place.courtId, starts_at: isoForDb(place.start), ends_at: isoForDb(place.end),
      calendar_sequence: eb('calendar_sequence', '+', 1) }))
    .where('club_id', '=', clubId).where('id', '=', bookingId).where('status', '=', 'confirmed')
    .returning('calendar_sequence').executeTakeFirst()
  return row?.calendar_sequence
}

/** A booking as the club sees it in a list: with its guest, its state and the court's name. */
export interface ClubBooking {
  readonly id: string
  readonly courtId: string
  readonly courtName: string
  readonly start: string
  readonly end: string
  readonly bookerName: string
  readonly bookerEmail: string
  readonly notes: string | null
  readonly status: BookingStatus
  readonly createdAt: string
  readonly cancelledAt: string | null
  readonly cancelledBy: CancelledBy | null
  readonly cancelReason: string | null
  /** The weekly series it belongs to (src/services/booking-series.ts), if any. */
  readonly seriesId: string | null
}

function clubBookings(db: Kysely<Database>, clubId: string) {
  return db.selectFrom('bookings')
    .innerJoin('courts', (join) => join.onRef('courts.club_id', '=', 'bookings.club_id').onRef('courts.id', '=', 'bookings.court_id'))
    .select(['bookings.id', 'bookings.court_id', 'courts.name as court_name', 'bookings.starts_at', 'bookings.ends_at',
      'bookings.booker_name', 'bookings.booker_email', 'bookings.notes', 'bookings.status', 'bookings.created_at',
      'bookings.cancelled_at', 'bookings.cancelled_by', 'bookings.cancel_reason', 'bookings.series_id'])
    .where('bookings.club_id', '=', clubId)
}

function toClubBooking(row: Awaited<ReturnType<ReturnType<typeof clubBookings>['executeTakeFirstOrThrow']>>): ClubBooking {
  return {
    id: row.id, courtId: row.court_id, courtName: row.court_name, start: isoFromDb(row.starts_at), end: isoFromDb(row.ends_at),
    bookerName: row.booker_name, bookerEmail: row.booker_email, notes: row.notes, status: row.status,
    createdAt: isoFromDb(row.created_at), cancelledAt: isoFromDbOrNull(row.cancelled_at), cancelledBy: row.cancelled_by,
    cancelReason: row.cancel_reason, seriesId: row.series_id,
  }
}

/** The club's bookings (any state) that start within a window, by start time and court. */
export async function listBookings(
  db: Kysely<Database>,
  clubId: string,
  window: { readonly start: number, readonly end: number },
): Promise<ClubBooking[]> {
  const rows = await clubBookings(db, clubId)
    .where('bookings.starts_at', '>=', isoForDb(window.start)).where('bookings.starts_at', '<', isoForDb(window.end))
    .orderBy('bookings.starts_at').orderBy('courts.name').orderBy('bookings.id')
    .execute()
  return rows.map(toClubBooking)
}

export interface BookingSearch {
  readonly window: { readonly start: number, readonly end: number }
  /** Part of the guest's name or address, any case. */
  readonly text?: string | undefined
  readonly courtId?: string | undefined
  readonly status?: BookingStatus | undefined
  readonly limit: number
}

/** The club's bookings that start within the window and match, by start time and court; at most `limit`. */
export async function searchBookings(db: Kysely<Database>, clubId: string, search: BookingSearch): Promise<ClubBooking[]> {
  let query = clubBookings(db, clubId)
    .where('bookings.starts_at', '>=', isoForDb(search.window.start)).where('bookings.starts_at', '<', isoForDb(search.window.end))
  const text = search.text?.trim().toLowerCase() ?? ''
  if (text !== '') {
    // LIKE's own characters stand for themselves; lower() on both sides, as PostgreSQL's LIKE heeds case.
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    query = query.where((eb) => eb.or([
      sql<boolean>`lower(${eb.ref('bookings.booker_name')}) like ${pattern} escape '\\'`,
      sql<boolean>`lower(${eb.ref('bookings.booker_email')}) like ${pattern} escape '\\'`,
    ]))
  }
  if (search.courtId !== undefined) query = query.where('bookings.court_id', '=', search.courtId)
  if (search.status !== undefined) query = query.where('bookings.status', '=', search.status)
  const rows = await query.orderBy('bookings.starts_at').orderBy('courts.name').orderBy('bookings.id').limit(search.limit).execute()
  return rows.map(toClubBooking)
}

/** The club's bookings with these ids (another club's are not found), by start time and court. */
export async function findClubBookings(db: Kysely<Database>, clubId: string, ids: readonly string[]): Promise<ClubBooking[]> {
  const found: ClubBooking[] = []
  for (const chunk of chunks(ids)) {
    found.push(...(await clubBookings(db, clubId).where('bookings.id', 'in', chunk).execute()).map(toClubBooking))
  }
  return found.sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || a.courtName.localeCompare(b.courtName)
    || a.id.localeCompare(b.id))
}

export async function findClubBooking(db: Kysely<Database>, clubId: string, bookingId: string): Promise<ClubBooking | undefined> {
  const row = await clubBookings(db, clubId).where('bookings.id', '=', bookingId).executeTakeFirst()
  return row === undefined ? undefined : toClubBooking(row)
}

/** A court's confirmed bookings that have not ended, by start. */
export async function upcomingBookingsOf(db: Kysely<Database>, clubId: string, courtId: string, now: number):
Promise<{ id: string, start: number, end: number }[]> {
  const rows = await db.selectFrom('bookings').select(['id', 'starts_at', 'ends_at'])
    .where('club_id', '=', clubId).where('court_id', '=', courtId).where('status', '=', 'confirmed')
    .where('ends_at', '>', isoForDb(now)).orderBy('starts_at').execute()
  return rows.map((row) => ({ id: row.id, start: Date.parse(isoFromDb(row.starts_at)), end: Date.parse(isoFromDb(row.ends_at)) }))
}
