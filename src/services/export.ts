/**
 * A club's data as an import document (docs/import-format.md): what `importClubData` reads back,
 * so that a club can move to another instance, where the same ids are kept.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { listCourts, listHolds } from '../db/repositories/courts.js'
import { listEvents, listGroups, listMembers, listNews, listResults } from '../db/repositories/content.js'
import type { Database } from '../db/schema.js'
import { isoFromDb, isoFromDbOrNull } from '../db/values.js'
import { WEEKDAYS } from '../domain/slots.js'
import type { ImportDocument } from '../schemas/import.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

type Required<T> = { [K in keyof T]-?: Exclude<T[K], undefined> }
export type ClubExport = Required<Omit<ImportDocument, '$schema'>>

/** The club's data as an import file for a person, recorded in the club's audit log. */
export async function exportClubDataFor(db: Kysely<Database>, clock: Clock, clubId: string, actor: Actor): Promise<ClubExport> {
  await write(db, clock.now(), (work) => work.audit(actor, clubId, { action: 'club.exported', targetName: 'the club\'s data' }))
  return exportClubData(db, clubId)
}

export async function exportClubData(db: Kysely<Database>, clubId: string): Promise<ClubExport> {
  const [members, groups, events, news, results, courts] = await Promise.all([listMembers(db, clubId), listGroups(db, clubId),
    listEvents(db, clubId), listNews(db, clubId), listResults(db, clubId), listCourts(db, clubId)])
  const holds = (await Promise.all(courts.map((court) => listHolds(db, clubId, court.id)))).flat()
  return {
    members: members.map((m) => ({ id: m.id, name: m.name, email: m.email })),
    groups: groups.map((g) => ({ id: g.id, name: g.name, sport: g.sport, age_min: g.age_min, age_max: g.age_max, level: g.level,
      description: g.description, active: Boolean(g.active) })),
    events: events.map((e) => ({ id: e.id, title: e.title, starts_at: isoFromDb(e.starts_at), ends_at: isoFromDbOrNull(e.ends_at),
      location: e.location, public_booking: Boolean(e.public_booking), group_id: e.group_id })),
    news: news.map((n) => ({ id: n.id, title: n.title, content: n.content, published_at: isoFromDbOrNull(n.published_at),
      group_id: n.group_id, created_by: n.created_by })),
    competition_results: results.map((r) => ({ id: r.id, member_id: r.member_id, group_id: r.group_id,
      competition_name: r.competition_name, discipline: r.discipline, placement: r.placement, points: r.points,
      competition_date: r.competition_date, created_at: isoFromDb(r.created_at) })),
    courts: courts.map((c) => ({ id: c.id, name: c.name, sport: c.sport, active: c.active,
      slot_minutes: c.slotMinutes as ClubExport['courts'][number]['slot_minutes'],
      opening_hours: Object.fromEntries(WEEKDAYS.map((day) => [day, c.openingHours[day] ?? null])),
      booking_horizon_days: c.bookingHorizonDays, max_slots_per_booking: c.maxSlotsPerBooking })),
    court_holds: holds.map((h) => ({ id: h.id, court_id: h.courtId, kind: h.kind, reason: h.reason,
      ...(h.startsAt === null ? {} : { starts_at: h.startsAt }), ...(h.endsAt === null ? {} : { ends_at: h.endsAt }),
      ...(h.weekday === null ? {} : { weekday: WEEKDAYS[h.weekday - 1] }),
      ...(h.startTime === null ? {} : { start_time: h.startTime }), ...(h.endTime === null ? {} : { end_time: h.endTime }),
      valid_from: h.validFrom, valid_until: h.validUntil })),
  }
}
