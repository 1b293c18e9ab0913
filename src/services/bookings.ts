/**
 * Court availability and booking. An Idempotency-Key's earlier request is answered as it was; then,
 * in one transaction that holds the court's lock, the court's rules (grid, hours, horizon, length)
 * and the overlap and fair-use checks are read and the booking, its idempotency record, its
 * confirmation mail and its webhook event are written together — no booking without its mail, no
 * mail without its booking.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Club } from '../db/repositories/clubs.js'
import { courtForBooking, listActiveCourts, occupancyOf } from '../db/repositories/courts.js'
import { isExclusionViolation, isTransientConflict, isUniqueViolation } from '../db/dialect.js'
import { addressStanding, bookingInsert, bookingRulesOf } from '../db/repositories/bookings.js'
import { bookingRequestInsert, findBookingRequest } from '../db/repositories/booking-requests.js'
import type { BookingRules } from '../db/repositories/bookings.js'
import { isGuestLanguage } from '../domain/languages.js'
import type { GuestLanguage } from '../domain/languages.js'
import { hasNoticeSince } from '../db/repositories/outbox.js'
import type { Database } from '../db/schema.js'
import { parseDateTime } from '../domain/date-time.js'
import { InvalidBooking, InvalidRequest, SlotConflict } from '../domain/errors.js'
import { checkTimesAndName, occupancyOn, slotConflict, unknownCourt } from '../domain/booking-rules.js'
import { bookingWindow, bookingWindowChangesAt, daySlots, localDatesOf, slotStatus } from '../domain/slots.js'
import type { SlotStatus } from '../domain/slots.js'
import { formatInZone, localToInstant } from '../domain/zoned-time.js'
import { renderBookingConfirmation, renderBookingRefusal } from '../mail/booking-mail.js'
import { generateToken, hashToken, openSealed, sealUnder } from '../domain/secret-token.js'
import { bookingLabel, cancellationDeadline } from './booking-cancellation.js'
import { manageUrl } from './guest-links.js'
import type { Actor } from './audit.js'
import { bookingData } from '../webhooks/booking-events.js'
import { write } from './unit-of-work.js'

/** Read as stored: a club's bookings and booking rules. */
export { bookingRulesOf, findClubBooking, findClubBookings, listBookings, searchBookings } from '../db/repositories/bookings.js'
export type { BookingRules, ClubBooking } from '../db/repositories/bookings.js'
export type { BookingStatus } from '../db/schema.js'

const DAY = 86_400_000

export interface CourtSlot {
  court_id: string
  court_name: string
  start_time: string
  end_time: string
  status: SlotStatus
}

export interface CourtWindow {
  court_id: string
  earliest_start: string | null
  latest_start: string | null
  max_slots_per_booking: number
}

export interface CourtDay {
  readonly slots: CourtSlot[]
  /** Per court, the first and last start a booking may have now (null: none on this date). */
  readonly windows: CourtWindow[]
  /** When the windows next change by the clock alone (Infinity: only a write changes the day). */
  readonly validUntil: number
  /** Whether guests may wait for a taken slot (the club's rule). */
  readonly waitingList: boolean
  /** Until how many minutes before its start a guest may cancel a booking online (the club's rule). */
  readonly cancellationDeadlineMinutes: number
  /** How guests reach the club and where it is: its contact address, phone number and postal address, each null when none. */
  readonly contact: { readonly email: string | null, readonly phone: string | null, readonly address: string | null }
}

/** Every active court's slots on a local date, with status, and the starts a booking may have now. */
export async function courtDay(db: Kysely<Database>, club: Club, date: string, now: number): Promise<CourtDay> {
  const [courts, rules] = await Promise.all([listActiveCourts(db, club.id), bookingRulesOf(db, club.id)])
  const window = { start: localToInstant(date, 0, club.timezone), end: localToInstant(date, 1440, club.timezone) }
  const stored = await occupancyOf(db, club.id, courts.map((court) => court.id), window)
  let validUntil = Number.POSITIVE_INFINITY
  const windows: CourtWindow[] = []
  const slots = courts.flatMap((court) => {
    const occupancy = occupancyOn(stored.get(court.id), [date], club.timezone)
    const grid = daySlots(court, date, club.timezone)
    const horizon = court.bookingHorizonDays * DAY
    const bookable = bookingWindow(grid, now, horizon)
    windows.push({
      court_id: court.id,
      earliest_start: bookable === undefined ? null : formatInZone(bookable.earliest, club.timezone),
      latest_start: bookable === undefined ? null : formatInZone(bookable.latest, club.timezone),
      max_slots_per_booking: court.maxSlotsPerBooking,
    })
    validUntil = Math.min(validUntil, bookingWindowChangesAt(grid, now, horizon))
    return grid.map((slot) => ({
      court_id: court.id,
      court_name: court.name,
      start_time: formatInZone(slot.start, club.timezone),
      end_time: formatInZone(slot.end, club.timezone),
      status: slotStatus(slot, occupancy),
    }))
  })
  const contact = { email: rules.contactEmail, phone: rules.contactPhone, address: rules.address }
  return { slots, windows, validUntil, waitingList: rules.waitingList,
    cancellationDeadlineMinutes: rules.cancellationDeadlineMinutes, contact }
}

export interface BookingInput {
  readonly court_id: string
  readonly start_time: string
  readonly end_time: string
  readonly booker_name: string
  readonly booker_email: string
  readonly notes?: string | undefined
  /**
   * The guest's language (the public endpoint reads it from Accept-Language); absent or not spoken
   * by the service: the club's. Not part of the request an Idempotency-Key stands for.
   */
  readonly language?: string | undefined
}

export interface BookingSettings {
  readonly maxOpenPerEmail: number
  readonly maxPerAddressPerDay: number
  readonly mailFrom: string
  /** The service's public base URL: the guest's link to manage the booking is built from it. */
  readonly publicUrl: URL
}

/**
 * A booking the club's staff takes (the dashboard's planner, the admin API, the command line): for a
 * member or a guest, with or without an address. The court's grid, hours and the slot's freedom
 * bind it as any booking; the horizon and the address's limits bind it unless overridden, and an
 * override is recorded in the audit log with the staff member and the reason. The members-only
 * rule is the public's: the club books whom it likes.
 */
export interface StaffBooking {
  readonly actor: Actor
  /** Mail the guest a confirmation (only when there is an address). */
  readonly confirm: boolean
  readonly overrideHorizon: boolean
  readonly overrideAddressLimits: boolean
  /** Why the club overrides; required with an override. */
  readonly reason: string | null
}

export interface BookingOutcome {
  readonly bookingId: string
  /** True when an Idempotency-Key matched an earlier request: nothing new was written. */
  readonly replayed: boolean
  /**
   * The booking's manage token (its guest's page, as mailed): always for a new booking, and for a
   * replayed one whose record kept it sealed under the key; else undefined.
   */
  readonly manageToken: string | undefined
}

export async function bookCourt(
  db: Kysely<Database>,
  clock: Clock,
  settings: BookingSettings,
  club: Club,
  input: BookingInput,
  idempotencyKey?: string,
  staff?: StaffBooking,
): Promise<BookingOutcome> {
  const requestHash = hashRequest(input, staff)
  if (idempotencyKey !== undefined) {
    const earlier = await replay(db, club.id, idempotencyKey, requestHash)
    if (earlier !== undefined) return earlier
  }
  const now = clock.now()
  const bookerName = input.booker_name.trim()
  const email = input.booker_email.trim().toLowerCase()
  const bookingId = randomUUID()
  const manageToken = generateToken('manage')
  let courtName = ''
  // The club's rules as the booking read them: a refusal's notice is written in the language and signed as its mails are.
  let clubRules: BookingRules | undefined
  try {
    await withRetries(() => write(db, now, async (work) => {
      const trx = work.db
      // The court, locked on PostgreSQL until the booking commits: its bookings are checked and written one at a time.
      const court = await courtForBooking(trx, club.id, input.court_id.toLowerCase())
      if (court?.active !== true) throw unknownCourt(input.court_id)
      courtName = court.name
      // The times and the name: every refusal among them in one answer.
      const interval = checkTimesAndName(court, club.timezone, input, now, { value: bookerName, field: 'booker_name' },
        { horizon: staff?.overrideHorizon !== true })
      const stored = (await occupancyOf(trx, club.id, [court.id], interval)).get(court.id)
      // A booking across midnight meets the weekly holds of every date it touches.
      const occupancy = occupancyOn(stored, localDatesOf(interval, club.timezone), club.timezone)
      // The same precedence as the listing shows: blocked > reserved > booked.
      const status = slotStatus(interval, occupancy)
      if (status !== 'available') throw slotConflict(court.name, status)

      // The address's checks come after the slot's, so that whether a taken slot answers slot-conflict never depends on
      // the address: only a free slot can tell an address's refusal from a booking, and that refusal says nothing more.
      // The rules, the member record, the address's counts and the club's webhook endpoints: one statement.
      const standing = await addressStanding(trx, club.id, email, now, now - DAY)
      const { rules, memberId, openBookings: open, bookingsMade: today, endpoints } = standing
      clubRules = rules
      const language = guestLanguage(input.language, rules)
      if (staff === undefined && !rules.guestsMayBook && memberId === null) throw new AddressAtLimit('members', 0, 0)
      // A staff booking without an address has no address to limit.
      if (email !== '' && staff?.overrideAddressLimits !== true) {
        const maxOpen = rules.maxOpenPerEmail ?? settings.maxOpenPerEmail
        if (open >= maxOpen) throw new AddressAtLimit('open', open, maxOpen)
        // Across all clubs: the endpoint must not become a way to mail one address again and again.
        if (today >= settings.maxPerAddressPerDay) throw new AddressAtLimit('daily', today, settings.maxPerAddressPerDay)
      }

      const notes = input.notes === undefined || input.notes.trim() === '' ? null : input.notes
      // The booking, its event, its idempotency record and its mail: written together when the change ends.
      work.insert(bookingInsert(trx, {
        id: bookingId, clubId: club.id, courtId: court.id, start: interval.start, end: interval.end, bookerName,
        bookerEmail: email, memberId, notes,
        manageTokenHash: hashToken(manageToken), language,
      }, now))
      await work.events(club.id, [{ type: 'booking.created', subjectId: bookingId, data: bookingData({
        id: bookingId, courtId: court.id, courtName: court.name, timezone: club.timezone, start: interval.start,
        end: interval.end,
        createdAt: now, cancelledAt: null, cancelledBy: null,
      }) }], endpoints)
      if (idempotencyKey !== undefined) {
        // The key itself is not kept: its hash finds the record, and only the key opens the manage token sealed in it.
        work.insert(bookingRequestInsert(trx, club.id, hashToken(idempotencyKey), { requestHash, bookingId,
          manageTokenSealed: staff === undefined ? sealUnder(manageToken, idempotencyKey) : null }, now))
      }
      if (staff !== undefined) {
        const overrides = [staff.overrideHorizon ? 'horizon' : '', staff.overrideAddressLimits ? 'address limits' : '']
          .filter((part) => part !== '')
        await work.audit(staff.actor, club.id, { action: 'booking.created_by_staff', target: bookingId,
          targetName: bookingLabel({ courtName: court.name, start: interval.start, end: interval.end,
            timezone: club.timezone }),
          detail: overrides.length === 0 ? null : `overrides ${overrides.join(' and ')}: ${staff.reason ?? ''}` })
      }
      if (email !== '' && staff?.confirm !== false) {
        const mail = renderBookingConfirmation({ ...clubFacts(club, rules), bookingId, courtName: court.name,
          start: interval.start, end: interval.end, bookerName, bookerEmail: email, language, notes, createdAt: now,
          mailFrom: settings.mailFrom,
          manage: { url: manageUrl(settings.publicUrl, manageToken), cancelUntil: cancellationDeadline(interval.start, rules) } })
        await work.mail({ clubId: club.id, bookingId, recipientName: bookerName, recipientEmail: input.booker_email.trim(),
          subject: mail.subject, text: mail.text, html: mail.html, ics: mail.ics, ...clubSender(club, rules) }, settings.mailFrom)
      }
      work.changed(`courts:${club.id}`)
    }))
  } catch (error) {
    if (error instanceof AddressAtLimit && staff !== undefined) {
      // The club's own staff: told which limit, to override it with a reason if they mean to; the address is not mailed.
      const which = error.limit === 'open'
        ? `has ${String(error.count)} upcoming bookings at the club, its limit is ${String(error.allowed)}`
        : 'has taken as many bookings today as the service allows one address'
      throw new InvalidBooking(`booker_email: this address ${which}; override the address limits, with a reason, to book anyway.`,
        [{ code: error.limit === 'open' ? 'address_open_limit' : 'address_daily_limit', field: 'booker_email',
          params: { count: error.allowed } }])
    }
    if (error instanceof AddressAtLimit) {
      // The same answer whichever limit it was, without counts: the requester may not own the address. Its owner is told why.
      await queueLimitNotice(db, now, settings, club, email, error, clubRules, input.language)
      throw new InvalidBooking('booker_email: this address cannot take another booking now. If it is yours, its mailbox has a '
        + 'message saying why.', [{ code: 'address_refused', field: 'booker_email' }])
    }
    // A concurrent request with the same Idempotency-Key committed first: answer as it was answered.
    const lostRace = isUniqueViolation(error) || isExclusionViolation(error) || error instanceof SlotConflict
    if (idempotencyKey !== undefined && lostRace) {
      const earlier = await replay(db, club.id, idempotencyKey, requestHash)
      if (earlier !== undefined) return earlier
    }
    if (isExclusionViolation(error)) throw slotConflict(courtName, 'booked')
    throw error
  }
  return { bookingId, replayed: false, manageToken }
}

/** The service's settings a booking reads. */
export interface BookingConfig {
  readonly booking: { readonly maxOpenPerEmail: number, readonly maxPerAddressPerDay: number }
  readonly mail: { readonly from: string }
  readonly publicUrl: URL
}

/** The settings a booking needs, from the service's. */
export function bookingSettings(context: { readonly config: BookingConfig }): BookingSettings {
  const { booking, mail, publicUrl } = context.config
  return { maxOpenPerEmail: booking.maxOpenPerEmail, maxPerAddressPerDay: booking.maxPerAddressPerDay, mailFrom: mail.from,
    publicUrl }
}

/**
 * The club's own booking (the admin API, the command line): an override needs its reason, which
 * the audit log records; `booker_email` may be empty.
 */
export async function bookForClub(db: Kysely<Database>, clock: Clock, settings: BookingSettings, club: Club,
  input: BookingInput, staff: StaffBooking, idempotencyKey?: string): Promise<BookingOutcome> {
  const reason = staff.reason?.trim() ?? ''
  if ((staff.overrideHorizon || staff.overrideAddressLimits) && reason === '') {
    throw new InvalidRequest('field', 'override_reason', 'is required with an override (the audit log records it)')
  }
  return bookCourt(db, clock, settings, club, input, idempotencyKey, { ...staff, reason: reason === '' ? null : reason })
}

/**
 * A booking refused because of its address: too many upcoming bookings at the club, too many today
 * across clubs, or not a member's where only members may book.
 */
class AddressAtLimit extends Error {
  constructor(readonly limit: 'open' | 'daily' | 'members', readonly count: number, readonly allowed: number) {
    super(`address at its ${limit} limit`)
  }
}

/**
 * Mails the address why its booking was refused — at most once a day per address, so that the
 * notice cannot itself be used to flood a mailbox. The notice holds no text of the requester's.
 */
async function queueLimitNotice(
  db: Kysely<Database>,
  now: number,
  settings: BookingSettings,
  club: Club,
  email: string,
  refusal: AddressAtLimit,
  rules: BookingRules | undefined,
  requestedLanguage: string | undefined,
): Promise<void> {
  if (await hasNoticeSince(db, email, now - DAY)) return
  const notice = renderBookingRefusal({ clubName: club.name, limit: refusal.limit, count: refusal.count,
    language: rules === undefined ? 'en' : guestLanguage(requestedLanguage, rules) })
  await write(db, now, (work) => work.mail({ clubId: club.id, bookingId: null, recipientName: '', recipientEmail: email,
    subject: notice.subject, text: notice.text, html: notice.html, ics: null,
    ...rules === undefined ? {} : clubSender(club, rules) }, settings.mailFrom))
}

/** The language of a booking's mails: the guest's when the service speaks it, else the club's. */
function guestLanguage(requested: string | undefined, rules: Pick<BookingRules, 'language'>): GuestLanguage {
  return isGuestLanguage(requested) ? requested : rules.language
}

/** A club's mail to a guest: from the club's name (at the service's address), replies to its contact address if it has one. */
export function clubSender(club: Pick<Club, 'name'>, rules: Pick<BookingRules, 'contactEmail'>):
{ senderName: string, replyTo: string | null } {
  return { senderName: club.name, replyTo: rules.contactEmail }
}

/** What a booking's mails say of its club: its name, zone and how it is reached, from the club's rules. */
function clubFacts(club: Club, rules: BookingRules) {
  return { clubName: club.name, timezone: club.timezone, contactEmail: rules.contactEmail, contactPhone: rules.contactPhone,
    clubAddress: rules.address, privacyUrl: rules.privacyUrl }
}

/** Runs a transaction again (up to three times) when the database aborted it only because of a concurrent one. */
async function withRetries<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction()
    } catch (error) {
      if (attempt >= 3 || !isTransientConflict(error)) throw error
    }
  }
}

async function replay(
  db: Kysely<Database>,
  clubId: string,
  key: string,
  requestHash: string,
): Promise<BookingOutcome | undefined> {
  const earlier = await findBookingRequest(db, clubId, hashToken(key))
  if (earlier === undefined) return undefined
  if (earlier.requestHash !== requestHash) {
    throw new InvalidBooking('Idempotency-Key: this key was already used for a different booking request.',
      [{ code: 'idempotency_key_reused', field: 'Idempotency-Key' }])
  }
  const manageToken = earlier.manageTokenSealed === null ? undefined : openSealed(earlier.manageTokenSealed, key)
  return { bookingId: earlier.bookingId, replayed: true, manageToken }
}

function hashRequest(input: BookingInput, staff?: StaffBooking): string {
  const canonical = [input.court_id.toLowerCase(), parseDateTime(input.start_time), parseDateTime(input.end_time),
    input.booker_name.trim(), input.booker_email.trim().toLowerCase(), input.notes ?? '',
    ...(staff === undefined ? [] : [staff.confirm, staff.overrideHorizon, staff.overrideAddressLimits, staff.reason])]
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex')
}
