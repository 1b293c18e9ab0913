/**
 * A club's content as the dashboard changes it: members, training groups, events, news and
 * competition results. Every save goes through the import (src/services/import.ts), so that an
 * entry typed in the dashboard and one in an import file obey one rule set; every change names the
 * version it started from and is refused when the record moved on meanwhile (EditConflict), and is
 * recorded in the audit log with the fields it changed, and reported to the club's webhooks
 * (src/webhooks/content-events.ts) in its transaction.
 */
import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../clock.js'
import { claimVersion, countResultsOfMember, deleteContent, detachMember, findContent } from '../db/repositories/content.js'
import type { ContentTable } from '../db/repositories/content.js'
import type { Database } from '../db/schema.js'
import { isoFromDb } from '../db/values.js'
import { Conflict, EditConflict, NotFound } from '../domain/errors.js'
import type { Actor } from './audit.js'
import { SECTION_AREAS, importWithin } from './import.js'
import { write } from './unit-of-work.js'
import { recordContentEvents, snapshot } from '../webhooks/content-events.js'

export type ContentSection = ContentTable

/** The record's name in audit actions (`group.changed`) and messages. */
export const RECORD_NAME: Readonly<Record<ContentSection, string>> = {
  members: 'member', groups: 'group', events: 'event', news: 'news', competition_results: 'result',
}

export interface ContentEdit {
  readonly actor: Actor
  /** The version the change started from; undefined: a new record. */
  readonly version?: number
}

/** Creates a record (no version) or changes one (its version); returns the names of the fields that changed. */
export async function saveContent(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  section: ContentSection,
  entry: { readonly id: string },
  edit: ContentEdit,
): Promise<string[]> {
  return write(db, clock.now(), async (work) => {
    const trx = work.db
    const before = await takeRecord(trx, clubId, section, entry.id, edit.version)
    await importWithin(work, clubId, { [section]: [entry] })
    const after = await findContent(trx, section, clubId, entry.id)
    const fields = changedFields(before, after)
    await work.audit(edit.actor, clubId, { action: `${RECORD_NAME[section]}.${before === undefined ? 'created' : 'changed'}`,
      target: entry.id.toLowerCase(), targetName: nameOf(after ?? before), fields })
    return fields
  })
}

/**
 * Removes a record (at `version`, when given). A member named by competition results stays (their
 * results would lose their athlete): Conflict. A removed member's bookings become guest bookings and
 * their news items lose their author.
 */
export async function removeContent(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  section: ContentSection,
  id: string,
  edit: ContentEdit,
): Promise<void> {
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    const before = edit.version === undefined
      ? await findContent(trx, section, clubId, id)
      : await takeRecord(trx, clubId, section, id, edit.version)
    if (before === undefined) throw new NotFound(`No ${RECORD_NAME[section]} with the id ${id}.`)
    const subjects = section === 'members' ? {} : { [section]: [id] }
    const listed = await snapshot(trx, clubId, subjects)
    if (section === 'members') {
      const results = await countResultsOfMember(trx, clubId, id)
      if (results > 0) {
        throw new Conflict(`The member is named by ${String(results)} competition result${results === 1 ? '' : 's'}; remove `
          + 'or change those first.')
      }
      await detachMember(trx, clubId, id)
    }
    await deleteContent(trx, section, clubId, id)
    await recordContentEvents(work, clubId, subjects, listed)
    for (const area of SECTION_AREAS[section]) work.changed(`${area}:${clubId}`)
    await work.audit(edit.actor, clubId, { action: `${RECORD_NAME[section]}.removed`, target: id.toLowerCase(),
      targetName: nameOf(before) })
  })
}

/**
 * The record as it was before a change, held for the change: undefined for a new record (none may
 * have the id yet). With a version, the record must exist at that version (NotFound, EditConflict).
 */
async function takeRecord(trx: Transaction<Database>, clubId: string, section: ContentSection, id: string,
  version: number | undefined): Promise<Record<string, unknown> | undefined> {
  if (version === undefined) {
    if (await findContent(trx, section, clubId, id) !== undefined) {
      throw new Conflict(`A ${RECORD_NAME[section]} with the id ${id} exists; name its version to change it.`)
    }
    return undefined
  }
  if (!await claimVersion(trx, section, clubId, id, version)) {
    const current = await findContent(trx, section, clubId, id)
    if (current === undefined) throw new NotFound(`No ${RECORD_NAME[section]} with the id ${id}.`)
    throw new EditConflict(`The ${RECORD_NAME[section]} was changed by someone else since version ${String(version)} (it is at `
      + `version ${String(current.version)}); nothing was saved.`)
  }
  return findContent(trx, section, clubId, id)
}

const BOOKKEEPING = new Set(['id', 'club_id', 'version'])

/** The fields whose values differ (a new record: the fields it has), by name. */
export function changedFields(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const comparable = (value: unknown) => (value instanceof Date ? isoFromDb(value) : value)
  return Object.keys(after ?? {}).filter((field) => !BOOKKEEPING.has(field) && (before === undefined
    ? after?.[field] !== null && field !== 'created_at'
    : comparable(before[field]) !== comparable(after?.[field])))
}

/** A record as the audit log names it: its title or name (a result by its competition). */
function nameOf(record: Record<string, unknown> | undefined): string | null {
  const name = record?.title ?? record?.name ?? record?.competition_name
  return typeof name === 'string' ? name : null
}
