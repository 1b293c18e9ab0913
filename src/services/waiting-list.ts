/**
 * The waiting list (docs/waiting-list.md). A guest asks to be told when a taken slot of a court
 * frees: name and address, under the limits a booking meets (per client on the route, per address
 * here), and gets one mail saying so, with a link that stops the mails about that time. When the
 * slot frees — its booking cancelled or moved, or a block or reservation removed — everyone waiting
 * for it gets one mail at once, in the transaction of the change that freed it, with a link to book
 * it: first come, first served, nothing is held, so a booking's guarantee is untouched. The club's
 * endpoints get `slot.freed` for every freed slot, waited for or not. An entry ends with its stop
 * link, when its address books the slot, or when the slot starts.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { isUniqueViolation } from '../db/dialect.js'
import { addressStanding, bookingRulesOf } from '../db/repositories/bookings.js'
import type { Club } from '../db/repositories/clubs.js'
import { findClubById } from '../db/repositories/clubs.js'
import { courtForBooking, findCourt, occupancyOf } from '../db/repositories/courts.js'
import type { Database, WaitingEndReason } from '../db/schema.js'
import {
  bookersWithin, endEntries, entryByStopToken, markNotified, openEntriesWithin, openEntryOf, waitingEntryInsert, waitingStanding,
} from '../db/repositories/waiting-list.js'
import type { LinkedEntry, WaitingEntry } from '../db/repositories/waiting-list.js'
import { subscribers } from '../db/repositories/webhook-messages.js'
import { checkTimesAndName, occupancyOn, unknownCourt } from '../domain/booking-rules.js'
import { InvalidBooking } from '../domain/errors.js'
import { isGuestLanguage } from '../domain/languages.js'
import { generateToken, hashToken, isWellFormedToken } from '../domain/secret-token.js'
import { daySlots, localDatesOf, overlaps, slotStatus } from '../domain/slots.js'
import type { Interval } from '../domain/slots.js'
import { formatInZone, localDateOf } from '../domain/zoned-time.js'
import { renderSlotFreed, renderWaitingJoined } from '../mail/waiting-list-mail.js'
import { bookingPageUrl } from './guest-links.js'
import { write } from './unit-of-work.js'
import type { UnitOfWork } from './unit-of-work.js'

const DAY = 86_400_000

/** The time a guest asks to wait for: one slot of a court, as the booking endpoint names it. */
export interface WaitingInput {
  readonly court_id: string
  readonly start_time: string
  readonly end_time: string
  readonly name: string
  readonly email: string
  /** The guest's language (the endpoint reads it from Accept-Language); else the club's. */
  readonly language?: string | undefined
}

/** The service's settings an entry reads: the address limits a booking meets, the sender, the public base URL. */
export interface WaitingSettings {
  readonly maxOpenPerEmail: number
  readonly maxPerAddressPerDay: number
  readonly mailFrom: string
  readonly publicUrl: URL
}

export interface WaitingOutcome {
  readonly entryId: string
  /** False when the address waited for the slot already: nothing new was written or mailed. */
  readonly created: boolean
}

/** The entry's stop link, under the service's public URL. */
export function stopUrl(publicUrl: URL, token: string): string {
  return new URL(`waiting-list/${token}`, publicUrl).href
}

/**
 * The club's booking page on the slot's date and court, in the guest's language: the freed mail's way
 * to book it. With the entry's token (`wait`), the page chooses the time and fills in the entry's
 * name and address, which never go into the address itself.
 */
export function bookSlotUrl(publicUrl: URL, club: Pick<Club, 'slug' | 'timezone'>, courtId: string, start: number,
  language: string, token: string): string {
  const url = new URL(bookingPageUrl(publicUrl, club.slug))
  url.search = new URLSearchParams({ date: localDateOf(start, club.timezone), court: courtId, lang: language, wait: token })
    .toString()
  return url.href
}

/**
 * Puts the address on the waiting list for a taken slot and mails it so, with its stop link. Refused
 * (InvalidBooking, saying why): a club that has switched its list off, a court that is not an active
 * court of the club, times that are no single slot a booking could have now, a free slot (book it), a
 * name with a link, an address that is not a member's where only members book, and an address at its
 * limits, which the answer does not tell apart, as a booking's does not.
 */
export async function joinWaitingList(db: Kysely<Database>, clock: Clock, settings: WaitingSettings, club: Club,
  input: WaitingInput): Promise<WaitingOutcome> {
  const now = clock.now()
  const name = input.name.trim()
  const email = input.email.trim().toLowerCase()
  let slot: { courtId: string, start: number } | undefined
  try {
    return await write(db, now, async (work) => {
      const trx = work.db
      // The court, locked on PostgreSQL as a booking locks it: the slot's state cannot change under the check.
      const court = await courtForBooking(trx, club.id, input.court_id.toLowerCase())
      if (court?.active !== true) throw unknownCourt(input.court_id)
      const interval = checkTimesAndName(court, club.timezone, input, now, { value: name, field: 'name' })
      if (interval.end - interval.start !== court.slotMinutes * 60_000) {
        throw new InvalidBooking(`end_time: one waits for one slot at a time; slots of ${court.name} last `
          + `${String(court.slotMinutes)} minutes.`, [{ code: 'not_one_slot', field: 'end_time',
          params: { court: court.name, count: court.slotMinutes } }])
      }
      slot = { courtId: court.id, start: interval.start }
      const { rules, memberId } = await addressStanding(trx, club.id, email, now, now - DAY)
      if (!rules.waitingList) throw new InvalidBooking('This club has no waiting list.', [{ code: 'no_waiting_list' }])
      const stored = (await occupancyOf(trx, club.id, [court.id], interval)).get(court.id)
      const status = slotStatus(interval, occupancyOn(stored, localDatesOf(interval, club.timezone), club.timezone))
      if (status === 'available') {
        throw new InvalidBooking(`The time on ${court.name} is free: book it instead of waiting for it.`,
          [{ code: 'slot_free', field: 'start_time', params: { court: court.name } }])
      }
      const existing = await openEntryOf(trx, club.id, court.id, interval.start, email)
      if (existing !== undefined) return { entryId: existing.id, created: false }
      if (!rules.guestsMayBook && memberId === null) throw addressRefused()
      const standing = await waitingStanding(trx, club.id, email, now, now - DAY)
      if (standing.open >= (rules.maxOpenPerEmail ?? settings.maxOpenPerEmail) || standing.made >= settings.maxPerAddressPerDay) {
        throw addressRefused()
      }
      const token = generateToken('waiting')
      const language = isGuestLanguage(input.language) ? input.language : rules.language
      const { start, end } = interval
      const entry: WaitingEntry = { id: randomUUID(), clubId: club.id, courtId: court.id, start, end, name, email, language,
        createdAt: now, stopToken: token }
      work.insert(waitingEntryInsert(trx, { ...entry, stopTokenHash: hashToken(token) }))
      // The planner shows the waiting counts with the courts' day: its cached days of the club are stale.
      await work.changedUntracked(`courts:${club.id}`)
      const mail = renderWaitingJoined({ clubName: club.name, courtName: court.name, timezone: club.timezone, start, end, name,
        language, stopUrl: stopUrl(settings.publicUrl, token) })
      await work.mail({ clubId: club.id, bookingId: null, recipientName: name, recipientEmail: input.email.trim(), ...mail,
        ics: null, senderName: club.name, replyTo: rules.contactEmail, unsubscribeUrl: stopUrl(settings.publicUrl, token) },
      settings.mailFrom)
      return { entryId: entry.id, created: true }
    })
  } catch (error) {
    // The same address asked for the same slot at the same moment: the first request's entry stands.
    if (isUniqueViolation(error) && slot !== undefined) {
      const existing = await openEntryOf(db, club.id, slot.courtId, slot.start, email)
      if (existing !== undefined) return { entryId: existing.id, created: false }
    }
    throw error
  }
}

/** One answer for every limit of the address, as a booking's: the requester may not own the address. */
function addressRefused(): InvalidBooking {
  return new InvalidBooking('email: this address cannot wait for another time now.', [{ code: 'address_cannot_wait', field: 'email' }])
}

/** An entry as its stop link's page shows it. */
export interface LinkedWaiting {
  readonly entry: LinkedEntry
  /** `waiting`: open; `stopped`: its stop link ended it; `booked`: its address booked the slot. */
  readonly state: 'waiting' | WaitingEndReason
}

/**
 * The entry of a stop link until its slot starts; unknown, malformed and past links are `undefined`
 * alike. An open entry whose address has booked the time since it began waiting is `booked`, as the
 * freeing of the time will end it (a link that is only looked at changes nothing).
 */
export async function waitingOfLink(db: Kysely<Database>, clock: Clock, token: string): Promise<LinkedWaiting | undefined> {
  if (!isWellFormedToken('waiting', token)) return undefined
  const entry = await entryByStopToken(db, hashToken(token))
  if (entry === undefined || entry.start <= clock.now()) return undefined
  if (entry.endReason !== null) return { entry, state: entry.endReason }
  // A booking that covers the time starts at most a day before it (no booking is longer).
  const window = { start: entry.start - DAY, end: entry.end }
  const bookings = await bookersWithin(db, entry.clubId, entry.courtId, window, [entry.email])
  const booked = bookings.some((booking) => booking.createdAt >= entry.createdAt && overlaps(booking, entry))
  return { entry, state: booked ? 'booked' : 'waiting' }
}

/** Ends the entry of a stop link: no mail about its time goes out any more. Idempotent. */
export async function stopWaiting(db: Kysely<Database>, clock: Clock, token: string): Promise<LinkedWaiting | undefined> {
  const found = await waitingOfLink(db, clock, token)
  if (found?.state !== 'waiting') return found
  await write(db, clock.now(), async (work) => {
    await endEntries(work.db, [found.entry.id], 'stopped', work.now)
    await work.changedUntracked(`courts:${found.entry.clubId}`)
  })
  return waitingOfLink(db, clock, token)
}

/** What freed the slots, as `slot.freed` names it. */
export type FreedBy = 'cancellation' | 'move' | 'hold_removed'

/** What a change that may free slots tells the waiting list: the court and the intervals it no longer occupies. */
export interface Freed {
  readonly clubId: string
  readonly courtId: string
  readonly intervals: readonly Interval[]
  readonly cause: FreedBy
  /** The address of the booking that freed them: its own entries for them are not mailed (it had booked them). */
  readonly bookerEmail?: string
}

/** The service's settings the freed mails need. */
export interface FreedSettings {
  readonly mailFrom: string
  readonly publicUrl: URL
}

/**
 * In the unit of work of a change that may have freed slots (after the change's own statements):
 * the court's slots within the intervals that start later and are free now. Everyone waiting for
 * one of them is mailed (unless the club has switched its list off), an address that has booked the
 * slot since it began waiting is not and its entry ends, and each freed slot is a `slot.freed` event.
 * A court nobody waits on, of a club with no endpoint for the event, costs two indexed reads.
 */
export async function slotsFreed(work: UnitOfWork, settings: FreedSettings, freed: Freed): Promise<void> {
  const { now } = work
  const trx = work.db
  const intervals = freed.intervals.filter((interval) => interval.end > now)
  if (intervals.length === 0) return
  const window = { start: Math.min(...intervals.map((i) => i.start)), end: Math.max(...intervals.map((i) => i.end)) }
  const entries = (await openEntriesWithin(trx, freed.clubId, freed.courtId, window, now))
    .filter((entry) => intervals.some((interval) => overlaps(entry, interval)))
  const endpoints = await subscribers(trx, freed.clubId)
  if (entries.length === 0 && !endpoints.some((endpoint) => endpoint.types.has('slot.freed'))) return
  const [court, club] = await Promise.all([findCourt(trx, freed.clubId, freed.courtId), findClubById(trx, freed.clubId)])
  if (court?.active !== true || club === undefined) return
  const tz = club.timezone
  const stored = (await occupancyOf(trx, club.id, [court.id], window)).get(court.id)
  const slots = intervals.flatMap((interval) => localDatesOf(interval, tz).flatMap((date) => {
    const occupancy = occupancyOn(stored, [date], tz)
    return daySlots(court, date, tz).filter((slot) => slot.start > now && overlaps(slot, interval)
      && slotStatus(slot, occupancy) === 'available')
  }))
  const unique = [...new Map(slots.map((slot) => [slot.start, slot])).values()].sort((a, b) => a.start - b.start)
  if (unique.length === 0) return
  const booked = await bookersWithin(trx, club.id, court.id, window, entries.map((entry) => entry.email))
  // Its address booked the slot: the booking that freed it now, or one made since it began waiting.
  const hasBooked = (entry: WaitingEntry) => entry.email === freed.bookerEmail || booked.some((booking) =>
    booking.email === entry.email && booking.createdAt >= entry.createdAt && overlaps(booking, entry))
  await endEntries(trx, entries.filter(hasBooked).map((entry) => entry.id), 'booked', now)
  const rules = await bookingRulesOf(trx, club.id)
  const notified: string[] = []
  const events = []
  for (const slot of unique) {
    const waiting = entries.filter((entry) => entry.start === slot.start && !hasBooked(entry))
    if (rules.waitingList) {
      for (const entry of waiting) {
        const mail = renderSlotFreed({ clubName: club.name, courtName: court.name, timezone: tz, start: entry.start,
          end: entry.end, name: entry.name, language: entry.language, stopUrl: stopUrl(settings.publicUrl, entry.stopToken),
          bookUrl: bookSlotUrl(settings.publicUrl, club, court.id, entry.start, entry.language, entry.stopToken) })
        await work.mail({ clubId: club.id, bookingId: null, recipientName: entry.name, recipientEmail: entry.email, ...mail,
          ics: null, senderName: club.name, replyTo: rules.contactEmail,
          unsubscribeUrl: stopUrl(settings.publicUrl, entry.stopToken) },
        settings.mailFrom)
        notified.push(entry.id)
      }
    }
    events.push({ type: 'slot.freed' as const, subjectId: court.id, data: { court_id: court.id, court_name: court.name,
      start_time: formatInZone(slot.start, tz), end_time: formatInZone(slot.end, tz), freed_by: freed.cause,
      waiting: waiting.length } })
  }
  await markNotified(trx, notified)
  await work.events(club.id, events, endpoints)
}
