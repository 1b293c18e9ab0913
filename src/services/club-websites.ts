/**
 * A club's own websites: the origins that may frame its hosted booking page (/book/{club}). One
 * function to change them, shared by the dashboard and the command line, recorded in the audit log.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Database } from '../db/schema.js'
import { InvalidInput } from '../domain/errors.js'
import { readOrigin } from '../domain/web-origin.js'
import type { Actor } from './audit.js'
import { write } from './unit-of-work.js'

export const MAX_WEBSITES = 20

/**
 * An exact origin (src/domain/web-origin.ts): `https://www.tc-riverside.example`. http is accepted
 * (a club's test site, a developer's machine); nothing else is.
 */
export function parseOrigin(value: string): string {
  const read = readOrigin(value)
  if ('refused' in read) throw new InvalidInput(`"${value.trim()}" ${read.refused}`)
  return read.origin
}

export async function websitesOf(db: Kysely<Database>, clubId: string): Promise<string[]> {
  const row = await db.selectFrom('clubs').select('website_origins').where('id', '=', clubId).executeTakeFirst()
  const parsed: unknown = JSON.parse(row?.website_origins ?? '[]')
  return Array.isArray(parsed) ? parsed.filter((origin): origin is string => typeof origin === 'string') : []
}

/** Sets the club's websites (each made an origin, duplicates dropped, in the order given). */
export async function setWebsites(
  db: Kysely<Database>,
  clock: Clock,
  input: { readonly clubId: string, readonly websites: readonly string[], readonly actor: Actor },
): Promise<string[]> {
  const origins = [...new Set(input.websites.map(parseOrigin))]
  if (origins.length > MAX_WEBSITES) throw new InvalidInput(`at most ${String(MAX_WEBSITES)} websites`)
  await write(db, clock.now(), async (work) => {
    const trx = work.db
    await trx.updateTable('clubs').set({ website_origins: JSON.stringify(origins) }).where('id', '=', input.clubId).execute()
    await work.audit(input.actor, input.clubId, { action: 'club.websites_changed', target: origins.join(' ') || 'none',
      targetName: origins.length === 0 ? 'no website' : origins.join(' ') })
  })
  return origins
}
