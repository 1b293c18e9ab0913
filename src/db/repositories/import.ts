/**
 * The import's writes and look-ups (src/services/import.ts): records matched by id, a new id added
 * and a known one changed (its version bumped) — never a record of another club.
 */
import type { Transaction } from 'kysely'
import type { ImportDocument } from '../../schemas/import.js'
import type { Database } from '../schema.js'
import { chunks, isoForDb } from '../values.js'

/** A checked import document, every section present. */
export type ImportSections = Required<Omit<ImportDocument, '$schema'>>

type Section = 'members' | 'groups' | 'events' | 'news' | 'competition_results' | 'courts' | 'court_holds'

/** Which of the ids belong to a club other than `clubId`. */
export async function idsOfOtherClubs(trx: Transaction<Database>, section: Section, ids: readonly string[],
  clubId: string): Promise<string[]> {
  const found: string[] = []
  for (const chunk of chunks([...ids])) {
    const rows = await trx.selectFrom(section).select('id').where('id', 'in', chunk).where('club_id', '<>', clubId).execute()
    found.push(...rows.map((row) => row.id))
  }
  return found
}

export async function memberAddressesOf(trx: Transaction<Database>, clubId: string): Promise<{ id: string, email: string }[]> {
  return trx.selectFrom('members').select(['id', 'email']).where('club_id', '=', clubId).execute()
}

export async function groupIdsOf(trx: Transaction<Database>, clubId: string): Promise<string[]> {
  return (await trx.selectFrom('groups').select('id').where('club_id', '=', clubId).execute()).map((row) => row.id)
}

/** Adds or changes the document's members, groups, events, news and competition results. */
export async function upsertContent(trx: Transaction<Database>, clubId: string,
  doc: Pick<ImportSections, 'members' | 'groups' | 'events' | 'news' | 'competition_results'>, now: string): Promise<void> {
  for (const chunk of chunks(doc.members)) {
    await trx.insertInto('members')
      .values(chunk.map((m) => ({ id: m.id, club_id: clubId, name: m.name, email: m.email, created_at: now })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), email: eb.ref('excluded.email'),
        version: eb('members.version', '+', 1) }))
        .where('members.club_id', '=', clubId))
      .execute()
  }
  for (const chunk of chunks(doc.groups)) {
    await trx.insertInto('groups')
      .values(chunk.map((g) => ({
        id: g.id, club_id: clubId, name: g.name, sport: g.sport, age_min: g.age_min ?? null, age_max: g.age_max ?? null,
        level: g.level ?? null, description: g.description ?? null, active: g.active ?? true, created_at: now,
      })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'), sport: eb.ref('excluded.sport'), age_min: eb.ref('excluded.age_min'),
        age_max: eb.ref('excluded.age_max'), level: eb.ref('excluded.level'), description: eb.ref('excluded.description'),
        active: eb.ref('excluded.active'), version: eb('groups.version', '+', 1),
      })).where('groups.club_id', '=', clubId))
      .execute()
  }
  for (const chunk of chunks(doc.events)) {
    await trx.insertInto('events')
      .values(chunk.map((e) => ({
        id: e.id, club_id: clubId, group_id: e.group_id ?? null, title: e.title, starts_at: isoForDb(e.starts_at),
        ends_at: e.ends_at == null ? null : isoForDb(e.ends_at), location: e.location ?? null,
        public_booking: e.public_booking ?? false, created_at: now,
      })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
        group_id: eb.ref('excluded.group_id'), title: eb.ref('excluded.title'), starts_at: eb.ref('excluded.starts_at'),
        ends_at: eb.ref('excluded.ends_at'), location: eb.ref('excluded.location'),
        public_booking: eb.ref('excluded.public_booking'), version: eb('events.version', '+', 1),
      })).where('events.club_id', '=', clubId))
      .execute()
  }
  for (const chunk of chunks(doc.news)) {
    await trx.insertInto('news')
      .values(chunk.map((n) => ({
        id: n.id, club_id: clubId, group_id: n.group_id ?? null, title: n.title, content: n.content,
        published_at: n.published_at == null ? null : isoForDb(n.published_at), created_by: n.created_by ?? null,
        created_at: now,
      })))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
        group_id: eb.ref('excluded.group_id'), title: eb.ref('excluded.title'), content: eb.ref('excluded.content'),
        published_at: eb.ref('excluded.published_at'), created_by: eb.ref('excluded.created_by'),
        version: eb('news.version', '+', 1),
      })).where('news.club_id', '=', clubId))
      .execute()
  }
  for (const chunk of chunks(doc.competition_results)) {
    const explicit = chunk.filter((r) => r.created_at !== undefined)
    const implicit = chunk.filter((r) => r.created_at === undefined)
    for (const [rows, keepCreatedAt] of [[explicit, false], [implicit, true]] as const) {
      if (rows.length === 0) continue
      await trx.insertInto('competition_results')
        .values(rows.map((r) => ({
          id: r.id, club_id: clubId, member_id: r.member_id, group_id: r.group_id, competition_name: r.competition_name,
          discipline: r.discipline ?? null, placement: r.placement ?? null, points: r.points ?? null,
          competition_date: r.competition_date ?? null, created_at: r.created_at === undefined ? now : isoForDb(r.created_at),
        })))
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
          member_id: eb.ref('excluded.member_id'), group_id: eb.ref('excluded.group_id'),
          competition_name: eb.ref('excluded.competition_name'), discipline: eb.ref('excluded.discipline'),
          placement: eb.ref('excluded.placement'), points: eb.ref('excluded.points'),
          competition_date: eb.ref('excluded.competition_date'), version: eb('competition_results.version', '+', 1),
          // Without a created_at in the file, a re-import keeps the time of the first import.
          ...(keepCreatedAt ? {} : { created_at: eb.ref('excluded.created_at') }),
        })).where('competition_results.club_id', '=', clubId))
        .execute()
    }
  }
}
