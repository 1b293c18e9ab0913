import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'
import { isoForDb } from '../values.js'

export interface Club {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly timezone: string
}

const CLUB_COLUMNS = ['id', 'slug', 'name', 'timezone'] as const

export async function findClubBySlug(db: Kysely<Database>, slug: string): Promise<Club | undefined> {
  return db.selectFrom('clubs').select(CLUB_COLUMNS).where('slug', '=', slug).executeTakeFirst()
}

export async function findClubById(db: Kysely<Database>, id: string): Promise<Club | undefined> {
  return db.selectFrom('clubs').select(CLUB_COLUMNS).where('id', '=', id).executeTakeFirst()
}

export async function listClubs(db: Kysely<Database>): Promise<Club[]> {
  return db.selectFrom('clubs').select(CLUB_COLUMNS).orderBy('slug').execute()
}

export async function insertClub(db: Kysely<Database>, club: Club, now: number): Promise<void> {
  await db.insertInto('clubs').values({ ...club, created_at: isoForDb(now) }).execute()
}

export async function updateClub(db: Kysely<Database>, club: Club): Promise<void> {
  await db.updateTable('clubs').set({ name: club.name, timezone: club.timezone }).where('id', '=', club.id).execute()
}

/** The club's websites as stored: a JSON array of origins. */
export async function storedWebsites(db: Kysely<Database>, clubId: string): Promise<string> {
  const row = await db.selectFrom('clubs').select('website_origins').where('id', '=', clubId).executeTakeFirst()
  return row?.website_origins ?? '[]'
}

export async function storeWebsites(db: Kysely<Database>, clubId: string, origins: readonly string[]): Promise<void> {
  await db.updateTable('clubs').set({ website_origins: JSON.stringify(origins) }).where('id', '=', clubId).execute()
}
