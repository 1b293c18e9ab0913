/**
 * Calendar feeds (docs/calendar-feeds.md): what calendar apps subscribe to.
 *
 * - A club's public events, or one training group's, as the read API lists them.
 * - A club's private feeds of its court bookings: court, time and, when the club chose so, the
 *   booker's name — never an e-mail address — behind a secret address that an admin makes, sees
 *   once and revokes, as an API key.
 *
 * Every event keeps its UID (the booking's or event's id) and carries its SEQUENCE; a cancelled
 * booking stays in the window marked STATUS:CANCELLED (RFC 5545 §3.8.1.11), so a calendar that
 * has it updates it. Times are UTC; DTSTAMP is when the booking or event was made, so a feed's
 * bytes (and its ETag) change only when what it shows does.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Club } from '../db/repositories/clubs.js'
import { findClubById } from '../db/repositories/clubs.js'
import * as feeds from '../db/repositories/calendar-feeds.js'
import type { CalendarFeed, FeedBooking, FeedEvent } from '../db/repositories/calendar-feeds.js'
import type { Database } from '../db/schema.js'
import { InvalidRequest, NotFound } from '../domain/errors.js'
import { icsInstant, icsText, vcalendar } from '../domain/icalendar.js'
import { generateToken, hashToken, isWellFormedToken } from '../domain/secret-token.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

export type { CalendarFeed } from '../db/repositories/calendar-feeds.js'

const DAY = 86_400_000

/** The bookings a private feed shows: from 30 days back to a year ahead, at most 5,000. */
export const BOOKINGS_WINDOW = { pastDays: 30, futureDays: 366, limit: 5_000 } as const
/** The events a public feed shows: from 90 days back on, at most 1,000. */
export const EVENTS_WINDOW = { pastDays: 90, limit: 1_000 } as const

/** The path of a private feed (src/routes/calendar-feeds.ts); its token is its only credential. */
export function privateFeedPath(token: string): string {
  return `/calendar/${token}.ics`
}

export function eventsFeedPath(slug: string, groupId?: string): string {
  return `/calendar/${encodeURIComponent(slug)}/events.ics${groupId === undefined ? '' : `?group=${groupId}`}`
}

export interface CreatedCalendarFeed {
  readonly feed: CalendarFeed
  /** The secret of its address: shown once, stored as a hash. */
  readonly token: string
}

/** Makes a private feed of the club's bookings (audit-logged, the token never). */
export async function createCalendarFeed(db: Kysely<Database>, clock: Clock,
  input: { readonly clubId: string, readonly name: string, readonly showNames: boolean, readonly actor: Actor }):
Promise<CreatedCalendarFeed> {
  const name = input.name.trim()
  if (name === '' || name.length > 100) throw new InvalidRequest('field', 'name', 'must be 1–100 characters')
  const token = generateToken('feed')
  const now = clock.now()
  const createdAt = new Date(now).toISOString()
  const feed = { id: randomUUID(), clubId: input.clubId, name, showNames: input.showNames, createdAt }
  await write(db, now, async (work) => {
    await feeds.insertCalendarFeed(work.db, { ...feed, tokenHash: hashToken(token) })
    await work.audit(input.actor, input.clubId, { action: 'calendar_feed.created', target: feed.id, targetName: name,
      detail: input.showNames ? 'with the bookers\' names' : 'without names' })
  })
  return { feed: { ...feed, revokedAt: null }, token }
}

export function listClubCalendarFeeds(db: Kysely<Database>, clubId: string): Promise<CalendarFeed[]> {
  return feeds.listCalendarFeeds(db, clubId)
}

/** Revokes a feed of the club: its address answers 404 from then on. Revoking a revoked feed changes nothing. */
export async function revokeClubCalendarFeed(db: Kysely<Database>, clock: Clock,
  input: { readonly clubId: string, readonly feedId: string, readonly actor: Actor }): Promise<CalendarFeed> {
  return write(db, clock.now(), async (work) => {
    const found = await feeds.findCalendarFeed(work.db, input.clubId, input.feedId)
    if (found === undefined) throw new NotFound(`No calendar feed with the id ${input.feedId}.`)
    if (await feeds.revokeCalendarFeed(work.db, input.clubId, input.feedId, clock.now())) {
      await work.audit(input.actor, input.clubId, { action: 'calendar_feed.revoked', target: found.id, targetName: found.name })
    }
    return await feeds.findCalendarFeed(work.db, input.clubId, input.feedId) ?? found
  })
}

/** A private feed's calendar, or undefined for a token that names no feed, or a revoked one's. */
export async function bookingsCalendar(db: Kysely<Database>, clock: Clock, token: string): Promise<string | undefined> {
  if (!isWellFormedToken('feed', token)) return undefined
  const feed = await feeds.calendarFeedByToken(db, hashToken(token))
  if (feed === undefined || feed.revokedAt !== null) return undefined
  const club = await findClubById(db, feed.clubId)
  if (club === undefined) return undefined
  const now = clock.now()
  const bookings = await feeds.feedBookings(db, club.id,
    { start: now - BOOKINGS_WINDOW.pastDays * DAY, end: now + BOOKINGS_WINDOW.futureDays * DAY }, BOOKINGS_WINDOW.limit)
  return vcalendar(calendarName(`${club.name}: ${feed.name}`, 'PT15M'), bookings.map((booking) => bookingEvent(booking, feed)))
}

/** The club's public events, or one training group's (NotFound: the club has no such group). */
export async function eventsCalendar(db: Kysely<Database>, clock: Clock, club: Club, groupId: string | undefined):
Promise<string> {
  if (groupId !== undefined && !await feeds.hasGroup(db, club.id, groupId)) {
    throw new NotFound(`${club.name} has no training group with the id ${groupId}.`)
  }
  const events = await feeds.feedEvents(db, club.id, groupId, clock.now() - EVENTS_WINDOW.pastDays * DAY, EVENTS_WINDOW.limit)
  return vcalendar(calendarName(`${club.name}: events`, 'PT1H'), events.map(clubEvent))
}

/** The calendar's name (RFC 7986, and as Apple's and Google's calendars read it) and how often to fetch it again. */
function calendarName(name: string, refresh: string): string[] {
  return [`NAME:${icsText(name)}`, `X-WR-CALNAME:${icsText(name)}`, `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
    `X-PUBLISHED-TTL:${refresh}`]
}

function bookingEvent(booking: FeedBooking, feed: CalendarFeed): string[] {
  return ['BEGIN:VEVENT', `UID:${booking.id}@club-platform`, `SEQUENCE:${String(booking.sequence)}`,
    `DTSTAMP:${icsInstant(Date.parse(booking.createdAt))}`, `DTSTART:${icsInstant(Date.parse(booking.start))}`,
    `DTEND:${icsInstant(Date.parse(booking.end))}`,
    `SUMMARY:${icsText(feed.showNames ? `${booking.courtName}: ${booking.bookerName}` : `${booking.courtName}: booked`)}`,
    `LOCATION:${icsText(booking.courtName)}`, `STATUS:${booking.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE', 'END:VEVENT']
}

function clubEvent(event: FeedEvent): string[] {
  return ['BEGIN:VEVENT', `UID:${event.id}@club-platform`, `SEQUENCE:${String(Math.max(0, event.version - 1))}`,
    `DTSTAMP:${icsInstant(Date.parse(event.createdAt))}`, `DTSTART:${icsInstant(Date.parse(event.start))}`,
    ...event.end === null ? [] : [`DTEND:${icsInstant(Date.parse(event.end))}`], `SUMMARY:${icsText(event.title)}`,
    ...event.location === null ? [] : [`LOCATION:${icsText(event.location)}`], 'END:VEVENT']
}
