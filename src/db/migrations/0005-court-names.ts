import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { courtNameKey } from '../../domain/court.js'
import { dialectOf } from '../dialect.js'

/*
 * Court names unique per club, up to case and spacing. courts.name_key holds courtNameKey(name),
 * computed in TypeScript so that both databases hold exactly the same key, under a unique index
 * on (club_id, name_key). A court without a key is refused: NOT NULL and a check on PostgreSQL,
 * triggers on SQLite (which cannot add those to an existing column).
 *
 * Courts that already share a name are told apart, in the order they were created (then by id):
 * the first keeps its name, each later one gets " (2)", " (3)", … — the first number whose name
 * no court of the club has. A blank name becomes "Court" the same way. Nothing else changes; the
 * triggers of 0004-change-tracking see the renames like any other write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    // Kysely runs PostgreSQL migrations in a transaction.
    await addNameKeys(db)
    await sql`alter table courts alter column name_key set not null`.execute(db)
    await sql`alter table courts add constraint courts_name_key_present check (name_key <> '')`.execute(db)
    return
  }
  // SQLite migrations run outside a transaction; this one rewrites rows, so it takes one.
  await db.transaction().execute(async (trx) => {
    await addNameKeys(trx)
    for (const event of ['insert', 'update']) {
      await sql`create trigger ${sql.id(`courts_name_key_${event}`)} before ${sql.raw(event)} on courts
        when new.name_key is null or new.name_key = ''
        begin select raise(abort, 'courts.name_key is required: set it to courtNameKey(name)'); end`.execute(trx)
    }
  })
}

async function addNameKeys(db: Kysely<unknown>): Promise<void> {
  await sql`alter table courts add column name_key text`.execute(db)
  const courts = await sql<{ id: string, club_id: string, name: string }>`select id, club_id, name from courts
    order by club_id, created_at, id`.execute(db)
  const byClub = new Map<string, { id: string, name: string }[]>()
  for (const court of courts.rows) {
    const clubCourts = byClub.get(court.club_id) ?? []
    clubCourts.push(court)
    byClub.set(court.club_id, clubCourts)
  }
  for (const clubCourts of byClub.values()) {
    for (const court of distinctNames(clubCourts)) {
      await sql`update courts set name = ${court.name}, name_key = ${courtNameKey(court.name)} where id = ${court.id}`.execute(db)
    }
  }
  await db.schema.createIndex('courts_name_key_idx').on('courts').columns(['club_id', 'name_key']).unique().execute()
}

/** One club's courts, oldest first, with names made distinct as described above. */
export function distinctNames(courts: readonly { id: string, name: string }[]): { id: string, name: string }[] {
  const firsts = new Map<string, string>()
  for (const court of courts) {
    const key = courtNameKey(court.name)
    if (key !== '' && !firsts.has(key)) firsts.set(key, court.id)
  }
  const taken = new Set(firsts.keys())
  return courts.map((court) => {
    const key = courtNameKey(court.name)
    if (key !== '' && firsts.get(key) === court.id) return court
    const base = key === '' ? 'Court' : court.name.trim().replace(/\s+/gu, ' ')
    let n = 2
    while (taken.has(courtNameKey(`${base} (${String(n)})`))) n++
    const name = `${base} (${String(n)})`
    taken.add(courtNameKey(name))
    return { id: court.id, name }
  })
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Names that up() changed stay as they are.
  if (dialectOf(db) === 'postgres') {
    await sql`alter table courts drop constraint courts_name_key_present`.execute(db)
  } else {
    for (const event of ['insert', 'update']) await sql`drop trigger ${sql.id(`courts_name_key_${event}`)}`.execute(db)
  }
  await db.schema.dropIndex('courts_name_key_idx').execute()
  await sql`alter table courts drop column name_key`.execute(db)
}
