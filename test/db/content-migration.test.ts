/**
 * Migration 0010 on a database that has data: the club's people and invitations survive the
 * rebuild of their tables on SQLite, every content record starts at version 1, the role `editor`
 * is allowed and no other new one, and going back removes editors and keeps everyone else.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { Kysely } from 'kysely'
import { expect, it } from 'vitest'
import { openDatabase } from '../../src/db/dialect.js'
import { createMigrator, migrateToLatest } from '../../src/db/migrate.js'
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js'

describeEachDatabase('migration 0010 (content editing)', (dialect) => {
  it('keeps admins, invitations and content, allows editors, and goes back without them', async () => {
    const database = await createTestDatabase(dialect)
    const handle = openDatabase(database.settings)
    try {
      const db = handle.db as unknown as Kysely<unknown>
      expect((await createMigrator(db).migrateTo('0009-club-websites')).error).toBeUndefined()
      const [club, owner, editor, member, group] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()]
      const now = '2026-06-15T10:00:00.000Z'
      await sql`insert into clubs (id, slug, name, timezone, created_at) values (${club}, 'old', 'Old', 'Europe/Berlin', ${now})`.execute(db)
      for (const [id, email] of [[owner, 'olivia@example.org'], [editor, 'eddie@example.org']]) {
        await sql`insert into admins (id, email, created_at) values (${id}, ${email}, ${now})`.execute(db)
      }
      await sql`insert into club_admins (club_id, admin_id, role, created_at) values (${club}, ${owner}, 'owner', ${now})`.execute(db)
      await sql`insert into admin_invitations (id, club_id, email, role, token_hash, invited_by, created_at, expires_at)
        values (${randomUUID()}, ${club}, 'adam@example.org', 'admin', 'hash', ${owner}, ${now}, ${now})`.execute(db)
      await sql`insert into members (id, club_id, name, email, created_at) values (${member}, ${club}, 'Mia', 'mia@example.org', ${now})`
        .execute(db)
      await sql`insert into groups (id, club_id, name, sport, active, created_at)
        values (${group}, ${club}, 'Juniors', 'tennis', ${dialect === 'sqlite' ? 1 : true}, ${now})`.execute(db)

      expect((await migrateToLatest(db)).applied).toContain('0010-content-editing')
      const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows
      const count = async (table: string) => Number((await rows(sql`select count(*) as n from ${sql.table(table)}`) as { n: unknown }[])[0]?.n)
      expect(await rows(sql`select admin_id, role from club_admins`)).toEqual([{ admin_id: owner, role: 'owner' }])
      expect(await rows(sql`select email, role, token_hash from admin_invitations`))
        .toEqual([{ email: 'adam@example.org', role: 'admin', token_hash: 'hash' }])
      expect(await rows(sql`select version from members union all select version from groups`)).toEqual([{ version: 1 }, { version: 1 }])
      await sql`insert into club_admins (club_id, admin_id, role, created_at) values (${club}, ${editor}, 'editor', ${now})`.execute(db)
      await expect(sql`insert into admin_invitations (id, club_id, email, role, token_hash, created_at, expires_at)
        values (${randomUUID()}, ${club}, 'x@example.org', 'superuser', 'other', ${now}, ${now})`.execute(db)).rejects.toThrow()
      expect(await count('club_admins')).toBe(2)

      expect((await createMigrator(db).migrateTo('0009-club-websites')).error).toBeUndefined()
      expect(await rows(sql`select admin_id, role from club_admins`)).toEqual([{ admin_id: owner, role: 'owner' }])
      await expect(sql`insert into club_admins (club_id, admin_id, role, created_at) values (${club}, ${editor}, 'editor', ${now})`
        .execute(db)).rejects.toThrow()
      // The club's people still belong to it: removing the club removes them (the rebuilt tables keep their references).
      await sql`delete from clubs where id = ${club}`.execute(db)
      expect(await count('club_admins')).toBe(0)
      expect(await count('admin_invitations')).toBe(0)
    } finally {
      await handle.close()
      await database.drop()
    }
  })
})
