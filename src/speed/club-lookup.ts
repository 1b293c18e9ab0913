/**
 * Clubs by slug, kept in the process while no club has changed (the change feed's `clubs` scope,
 * src/db/changes.ts): the public courts listing and booking, and the dashboard API's club routes,
 * read a club without a query in the steady state. One lookup per service context.
 */
import type { AppContext } from '../context.js'
import { findClubBySlug } from '../db/repositories/clubs.js'
import type { Club } from '../db/repositories/clubs.js'
import { ClubNotFound } from '../domain/errors.js'

/** Clubs by slug, valid while no club has changed (the `clubs` scope); unknown slugs are not remembered. */
const MAX_KNOWN_CLUBS = 10_000

export interface ClubLookup {
  (slug: string): Club | Promise<Club>
  /** The club when it is known and unchanged, without reading anything. */
  known(slug: string): Club | undefined
}

function newClubLookup(context: AppContext): ClubLookup {
  const known = new Map<string, { readonly version: number, readonly club: Club }>()
  const load = async (slug: string) => {
    const read = await context.changes.read(context.db, 'clubs', (db) => findClubBySlug(db, slug))
    const club = read.value
    if (club === undefined) throw new ClubNotFound(slug)
    if (read.version !== undefined && context.responses.enabled) {
      if (known.size >= MAX_KNOWN_CLUBS) known.clear()
      known.set(slug, { version: read.version, club })
    }
    return club
  }
  // As cachedAnswer (src/speed/cached-read.ts): the version is read only for a club known here.
  const peek = (slug: string) => {
    const cached = known.get(slug)
    if (cached === undefined || !context.responses.enabled) return undefined
    return cached.version === context.changes.version('clubs') ? cached.club : undefined
  }
  // Synchronous when known: the steady state of a busy booking page waits for nothing.
  return Object.assign((slug: string) => peek(slug) ?? load(slug), { known: peek })
}

const lookups = new WeakMap<AppContext, ClubLookup>()

/** The context's club lookup (one per context, so that every route shares what it knows). */
export function clubLookup(context: AppContext): ClubLookup {
  let lookup = lookups.get(context)
  if (lookup === undefined) {
    lookup = newClubLookup(context)
    lookups.set(context, lookup)
  }
  return lookup
}
