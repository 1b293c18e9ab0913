/**
 * The calendar feeds as calendar apps fetch them, parsed by a real iCalendar library (ical.js): a
 * club's public events (all, or a training group's) as the read API lists them, and a club's private
 * feed of its bookings — stable UIDs, sequences, cancelled bookings marked, never an e-mail address,
 * current after a change, gone when revoked, revalidated by ETag.
 */
import { randomUUID } from 'node:crypto'
import ICAL from 'ical.js'
import { expect, it } from 'vitest'
import { isoForDb } from '../../src/db/values.js'
import { OPERATOR } from '../../src/services/audit.js'
import { createCalendarFeed, revokeClubCalendarFeed } from '../../src/services/calendar-feeds.js'
import { importClubData } from '../../src/services/import.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { COURT, setUpCourts } from '../helpers/courts.js'
import { START, useHarness } from '../helpers/harness.js'

interface FeedEvent { uid: string, sequence: number, summary: string, start: string, end: string | undefined, status: unknown }

/** The events of a feed, as ical.js reads them. */
function eventsOf(ics: string): { name: unknown, events: FeedEvent[] } {
  const parsed: unknown = ICAL.parse(ics)
  if (!Array.isArray(parsed)) throw new Error(`not one calendar:\n${ics}`)
  const root = new ICAL.Component(parsed)
  return { name: root.getFirstPropertyValue('x-wr-calname'), events: root.getAllSubcomponents('vevent').map((event) => {
    // RFC 5545 §3.6.1: each event has one UID and one DTSTAMP.
    expect([event.getAllProperties('uid').length, event.getAllProperties('dtstamp').length]).toEqual([1, 1])
    return { uid: String(event.getFirstPropertyValue('uid')), sequence: Number(event.getFirstPropertyValue('sequence')),
      summary: String(event.getFirstPropertyValue('summary')), start: String(event.getFirstPropertyValue('dtstart')?.toString()),
      end: event.getFirstPropertyValue('dtend')?.toString(), status: event.getFirstPropertyValue('status') }
  }) }
}

const GROUP = idFor('group:juniors')
const iso = (instant: number) => new Date(instant).toISOString()
const DAY = 86_400_000

describeEachDatabase('calendar feeds', (dialect) => {
  let clubId = ''
  let otherId = ''
  const harness = useHarness(dialect, async (h) => {
    ({ clubId } = await setUpCourts(h, 'riverside'))
    otherId = (await h.createClub('hillside', 'Europe/Berlin')).id
    await importClubData(h.context.db, h.clock, clubId, {
      groups: [{ id: GROUP, name: 'Juniors', sport: 'tennis' }],
      events: [
        { id: idFor('event:open-day'), title: 'Open day, with barbecue; all welcome', starts_at: iso(START + 3 * DAY),
          ends_at: iso(START + 3 * DAY + 6 * 3_600_000), location: 'Clubhouse', public_booking: true },
        { id: idFor('event:final'), title: 'Club final', starts_at: iso(START + 10 * DAY), ends_at: null, location: null,
          public_booking: true },
        { id: idFor('event:long-ago'), title: 'Long ago', starts_at: iso(START - 200 * DAY), ends_at: null, location: null,
          public_booking: true },
        { id: idFor('event:internal'), title: 'Board meeting', starts_at: iso(START + 4 * DAY), ends_at: null, location: null,
          public_booking: false },
        { id: idFor('event:junior-camp'), title: 'Junior camp', starts_at: iso(START + 5 * DAY), ends_at: null, location: null,
          public_booking: true, group_id: GROUP },
      ],
    })
  })
  const get = (url: string, headers: Record<string, string> = {}) => harness.current.request({ url, headers })

  it('publishes the club\'s events as the read API lists them, and a training group\'s on their own', async () => {
    const h = harness.current
    const response = await get('/calendar/riverside/events.ics')
    expect([response.status, response.headers['content-type'], response.headers['cache-control']])
      .toEqual([200, 'text/calendar; charset=utf-8', 'public, max-age=300'])
    const feed = eventsOf(response.body)
    expect(feed.name).toBe('Club riverside: events')
    // The read API's public events (not the internal one, not the group's), those of the last 90 days on.
    const { key } = await h.createKey(clubId, ['read:events'])
    const listed = (await h.request({ url: '/api/v1/events', key })).json<{ data: { id: string, title: string, starts_at: string }[] }>()
      .data.filter((event) => Date.parse(event.starts_at) >= START - 90 * DAY)
    expect(feed.events.map((event) => [event.uid, event.summary]))
      .toEqual(listed.map((event) => [`${event.id}@club-platform`, event.title]))
    expect(feed.events[0]).toMatchObject({ summary: 'Open day, with barbecue; all welcome', sequence: 0,
      start: iso(START + 3 * DAY).replace('.000', ''), end: iso(START + 3 * DAY + 6 * 3_600_000).replace('.000', '') })
    const juniors = eventsOf((await get(`/calendar/riverside/events.ics?group=${GROUP}`)).body)
    expect(juniors.events.map((event) => event.summary)).toEqual(['Junior camp'])
  })

  it('answers a current copy with 304, and an edit at once with a new copy and a higher SEQUENCE', async () => {
    const h = harness.current
    const first = await get('/calendar/riverside/events.ics')
    const etag = String(first.headers.etag)
    expect((await get('/calendar/riverside/events.ics', { 'if-none-match': etag })).status).toBe(304)
    await importClubData(h.context.db, h.clock, clubId, { events: [{ id: idFor('event:final'), title: 'Club final, moved indoors',
      starts_at: iso(START + 10 * DAY), ends_at: null, location: 'Hall', public_booking: true }] })
    const after = await get('/calendar/riverside/events.ics', { 'if-none-match': etag })
    expect(after.status).toBe(200)
    const final = eventsOf(after.body).events.find((event) => event.uid === `${idFor('event:final')}@club-platform`)
    expect([final?.summary, final?.sequence]).toEqual(['Club final, moved indoors', 1])
  })

  it('refuses an unknown club, a group of another club or none, and a malformed query', async () => {
    expect((await get('/calendar/nowhere/events.ics')).status).toBe(404)
    expect((await get(`/calendar/hillside/events.ics?group=${GROUP}`)).status).toBe(404)
    expect((await get(`/calendar/riverside/events.ics?group=${randomUUID()}`)).status).toBe(404)
    for (const query of ['?group=juniors', '?from=2026-01-01']) {
      expect((await get(`/calendar/riverside/events.ics${query}`)).status).toBe(400)
    }
  })

  it('shows the club\'s bookings to its private feed — court, time, the name if chosen, never an address — and forgets it when revoked',
    async () => {
      const h = harness.current
      // A thousand bookings, each with an address the feed must not show; one cancelled; one of another club.
      const rows = Array.from({ length: 1_000 }, (_, i) => ({
        id: randomUUID(), club_id: clubId, court_id: COURT.allDay, starts_at: isoForDb(START + DAY + i * 3_600_000),
        ends_at: isoForDb(START + DAY + i * 3_600_000 + 3_600_000), booker_name: `Guest ${String(i)}`,
        booker_email: `guest${String(i)}@mail.example`, member_id: null, notes: `Call guest${String(i)}@mail.example`,
        created_at: isoForDb(START), status: i === 7 ? 'cancelled' as const : 'confirmed' as const,
      }))
      for (let at = 0; at < rows.length; at += 200) await h.context.db.insertInto('bookings').values(rows.slice(at, at + 200)).execute()
      const named = await createCalendarFeed(h.context.db, h.clock, { clubId, name: 'Office', showNames: true, actor: OPERATOR })
      const anonymous = await createCalendarFeed(h.context.db, h.clock, { clubId, name: 'Board', showNames: false, actor: OPERATOR })
      const other = await createCalendarFeed(h.context.db, h.clock, { clubId: otherId, name: 'Hill', showNames: true, actor: OPERATOR })
      const office = await get(`/calendar/${named.token}.ics`)
      expect([office.status, office.headers['cache-control'], office.headers['referrer-policy']])
        .toEqual([200, 'private, max-age=300', 'no-referrer'])
      expect(office.body).not.toMatch(/@mail\.example|mailto:/i)
      const feed = eventsOf(office.body)
      expect(feed.name).toBe('Club riverside: Office')
      expect(feed.events).toHaveLength(1_000)
      expect(feed.events[0]).toMatchObject({ uid: `${rows[0]?.id ?? ''}@club-platform`, summary: 'Court D (floodlit): Guest 0',
        status: 'CONFIRMED', sequence: 0 })
      expect(feed.events[7]).toMatchObject({ summary: 'Court D (floodlit): Guest 7', status: 'CANCELLED' })
      const board = eventsOf((await get(`/calendar/${anonymous.token}.ics`)).body)
      expect(new Set(board.events.map((event) => event.summary))).toEqual(new Set(['Court D (floodlit): booked']))
      expect(eventsOf((await get(`/calendar/${other.token}.ics`)).body).events).toEqual([])

      // A booking made now is in the next fetch; the copy held before is no longer current.
      const etag = String(office.headers.etag)
      const booked = await h.request({ method: 'POST', url: '/api/v1/public/riverside/courts/book', payload: {
        court_id: COURT.a, start_time: '2026-06-16T08:00:00+02:00', end_time: '2026-06-16T09:00:00+02:00',
        booker_name: 'Late Lou', booker_email: 'lou@mail.example' } })
      expect(booked.status).toBe(201)
      const after = await get(`/calendar/${named.token}.ics`, { 'if-none-match': etag })
      expect(after.status).toBe(200)
      expect(eventsOf(after.body).events.map((event) => event.summary)).toContain('Court A: Late Lou')
      expect((await get(`/calendar/${named.token}.ics`, { 'if-none-match': String(after.headers.etag) })).status).toBe(304)

      await revokeClubCalendarFeed(h.context.db, h.clock, { clubId, feedId: named.feed.id, actor: OPERATOR })
      for (const url of [`/calendar/${named.token}.ics`, `/calendar/${named.token.slice(0, -1)}x.ics`, '/calendar/cpf_short.ics',
        `/calendar/${anonymous.token}`]) {
        const refused = await get(url)
        expect([url, refused.status, refused.json<{ type: string }>().type])
          .toEqual([url, 404, expect.stringMatching(/not-found$/)])
      }
      expect((await get(`/calendar/${anonymous.token}.ics`)).status).toBe(200)
    })
})
