/**
 * Webhook events of the four read-API resources, as the read API sees them: an event says that a
 * record appeared in its listing (`*.created`, `news.published`), changed there (`*.updated`), or
 * left it (`*.deleted`, `news.unpublished`), with the record in the listing's shape. A change the
 * listing does not show (a draft edited, a group event moved) sends nothing.
 *
 * The caller takes a snapshot of the records before a change and another after it, in the same
 * transaction, and records the difference. A news item scheduled for later is published by the
 * clock, not by a write: its `news.published` is recorded at once and delivered at the
 * publication time, and withdrawn if the item changes before then.
 */
import type { Kysely } from 'kysely'
import { eventOf, eventRowsOf, groupRowsOf, newsOf, newsRowsOf, resultOf, resultRowsOf } from '../db/repositories/listings.js'
import type { Database } from '../db/schema.js'
import { chunks, isoFromDb } from '../db/values.js'
import { anySubscriber, withdrawScheduled } from './events.js'
import type { EventType, NewEvent } from './events.js'

/** What a change records its events through: its unit of work (src/services/unit-of-work.ts). */
export interface EventRecorder {
  readonly db: Kysely<Database>
  readonly now: number
  events(clubId: string, events: readonly NewEvent[]): Promise<number>
  /** Writes the rows recorded so far (a unit of work writes its inserts together when it ends). */
  flush(): Promise<void>
}

export type Resource = 'groups' | 'events' | 'news' | 'competition_results'
export const RESOURCES: readonly Resource[] = ['groups', 'events', 'news', 'competition_results']

/** Appeared in the listing, changed there, left it. */
const TYPES: Readonly<Record<Resource, readonly [EventType, EventType, EventType]>> = {
  groups: ['group.created', 'group.updated', 'group.deleted'],
  events: ['event.created', 'event.updated', 'event.deleted'],
  news: ['news.published', 'news.updated', 'news.unpublished'],
  competition_results: ['competition_result.created', 'competition_result.updated', 'competition_result.deleted'],
}

interface Listed {
  /** The record in the listing's shape. */
  readonly shape: object
  /** From when the listing shows it: -Infinity (now), an instant (scheduled news), or null (never: a draft, inactive). */
  readonly listedFrom: number | null
}

export type Snapshot = ReadonlyMap<Resource, ReadonlyMap<string, Listed>>
export type Subjects = Partial<Record<Resource, readonly string[]>>

/** The records as the listings would show them; undefined when no enabled endpoint receives their events (nothing to prepare). */
export async function snapshot(db: Kysely<Database>, clubId: string, subjects: Subjects): Promise<Snapshot | undefined> {
  const resources = RESOURCES.filter((resource) => (subjects[resource]?.length ?? 0) > 0)
  const types = resources.flatMap((resource) => TYPES[resource])
  if (resources.length === 0 || !await anySubscriber(db, clubId, types)) return undefined
  const out = new Map<Resource, Map<string, Listed>>()
  for (const resource of resources) {
    const found = new Map<string, Listed>()
    for (const ids of chunks((subjects[resource] ?? []).map((id) => id.toLowerCase()))) {
      for (const [id, listed] of await read(db, clubId, resource, ids)) found.set(id, listed)
    }
    out.set(resource, found)
  }
  return out
}

async function read(db: Kysely<Database>, clubId: string, resource: Resource, ids: string[]): Promise<[string, Listed][]> {
  switch (resource) {
    case 'groups': {
      const rows = await groupRowsOf(db, clubId, ids)
      return rows.map(({ active, ...group }) => [group.id, { shape: group, listedFrom: active ? -Infinity : null }])
    }
    case 'events': {
      const rows = await eventRowsOf(db, clubId, ids)
      return rows.map((row) => [row.id, { shape: eventOf(row),
        listedFrom: Boolean(row.public_booking) && row.group_id === null ? -Infinity : null }])
    }
    case 'news': {
      const rows = await newsRowsOf(db, clubId, ids)
      return rows.map((row) => [row.id, row.published_at === null
        ? { shape: {}, listedFrom: null }
        : { shape: newsOf({ ...row, published_at: row.published_at }), listedFrom: Date.parse(isoFromDb(row.published_at)) }])
    }
    case 'competition_results': {
      const rows = await resultRowsOf(db, clubId, ids)
      return rows.map((row) => [row.id, { shape: resultOf(row), listedFrom: -Infinity }])
    }
  }
}

/** The events between two snapshots of the same records, as of `now`. */
export function differences(before: Snapshot, after: Snapshot, now: number): NewEvent[] {
  const events: NewEvent[] = []
  for (const resource of RESOURCES) {
    const [appeared, changed, left] = TYPES[resource]
    const earlier = before.get(resource) ?? new Map<string, Listed>()
    const later = after.get(resource) ?? new Map<string, Listed>()
    for (const id of new Set([...earlier.keys(), ...later.keys()])) {
      const was = earlier.get(id)
      const is = later.get(id)
      const wasListed = was?.listedFrom != null && was.listedFrom <= now
      const isListed = is?.listedFrom != null && is.listedFrom <= now
      if (!wasListed && isListed) events.push({ type: appeared, data: is.shape, subjectId: id })
      else if (wasListed && isListed && JSON.stringify(was.shape) !== JSON.stringify(is.shape)) {
        events.push({ type: changed, data: is.shape, subjectId: id })
      } else if (wasListed && !isListed) events.push({ type: left, data: was.shape, subjectId: id })
      // Published by the clock later: delivered then (and withdrawn by any change before).
      if (is?.listedFrom != null && is.listedFrom > now) {
        events.push({ type: appeared, data: is.shape, subjectId: id, at: is.listedFrom })
      }
    }
  }
  return events
}

/**
 * Records the events of a change in its transaction: `before` is the snapshot taken before the
 * change (undefined: no endpoint receives these events). Scheduled publications of the news items
 * involved are withdrawn first, and recorded again if they still stand.
 */
export async function recordContentEvents(work: EventRecorder, clubId: string, subjects: Subjects,
  before: Snapshot | undefined): Promise<void> {
  if (before === undefined) return
  const { db: trx, now } = work
  // Events recorded earlier in the change are written first, so that a withdrawal sees them.
  await work.flush()
  for (const id of subjects.news ?? []) await withdrawScheduled(trx, now, clubId, id.toLowerCase(), 'news.published')
  const after = await snapshot(trx, clubId, subjects)
  await work.events(clubId, differences(before, after ?? new Map(), now))
}
