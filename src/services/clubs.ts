import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import * as clubs from '../db/repositories/clubs.js'
import type { Club } from '../db/repositories/clubs.js'
import type { Database } from '../db/schema.js'
import { slugProblem, timezoneProblem } from '../domain/club.js'
import { InvalidInput } from '../domain/errors.js'

/** Read as stored: a club by its slug. */
export { findClubBySlug } from '../db/repositories/clubs.js'
export type { Club } from '../db/repositories/clubs.js'

export interface ClubInput {
  readonly slug: string
  readonly name: string
  readonly timezone: string
}

export function validateClubInput(input: ClubInput): void {
  const problems = [
    slugProblem(input.slug),
    input.name.trim() === '' || input.name.length > 200 ? 'the name must be 1–200 characters' : undefined,
    timezoneProblem(input.timezone),
  ].filter((problem) => problem !== undefined)
  if (problems.length > 0) throw new InvalidInput(problems.join('; '), problems)
}

export async function createClub(db: Kysely<Database>, clock: Clock, input: ClubInput): Promise<Club> {
  validateClubInput(input)
  if (await clubs.findClubBySlug(db, input.slug) !== undefined) {
    throw new InvalidInput(`a club with the slug "${input.slug}" already exists`)
  }
  const club: Club = { id: randomUUID(), slug: input.slug, name: input.name.trim(), timezone: input.timezone }
  await clubs.insertClub(db, club, clock.now())
  return club
}

export async function requireClub(db: Kysely<Database>, slug: string): Promise<Club> {
  const club = await clubs.findClubBySlug(db, slug)
  if (club === undefined) throw new InvalidInput(`no club with the slug "${slug}" (see: club-platform clubs list)`)
  return club
}
