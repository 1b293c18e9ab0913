/** A fresh database per suite: a SQLite file in a temporary directory, or a new PostgreSQL database. */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { describe, inject } from 'vitest'
import type { DatabaseSettings } from '../../src/config.js'
import type { DialectName } from '../../src/db/dialect.js'

/**
 * The databases the data suites run on: both, unless CLUB_PLATFORM_TEST_DATABASES names fewer
 * (`.ci/run`'s second and third runs of the suites that choose days, whose subject is the day, not the
 * database, take SQLite alone; the first run took both).
 */
export const DIALECTS: readonly DialectName[] = (['sqlite', 'postgres'] as const).filter((dialect) =>
  (process.env.CLUB_PLATFORM_TEST_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim()).includes(dialect))

export interface TestDatabase {
  readonly dialect: DialectName
  readonly settings: DatabaseSettings
  readonly env: Record<string, string>
  drop(): Promise<void>
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-test-'))
    const file = path.join(dir, 'club-platform.sqlite')
    return {
      dialect,
      settings: { kind: 'sqlite', file },
      env: { DATA_DIR: dir },
      drop: () => fs.rm(dir, { recursive: true, force: true }),
    }
  }
  const adminUrl = inject('postgresAdminUrl')
  if (adminUrl === null) throw new Error('PostgreSQL is not available')
  const name = `cp_test_${randomBytes(6).toString('hex')}`
  await withAdmin(adminUrl, async (client) => {
    await client.query(`create database ${name}`)
  })
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // Local state besides the database (mail files, the limiter's saved counts) gets a directory of its own too.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-test-'))
  return {
    dialect,
    settings: { kind: 'postgres', url: url.toString() },
    env: { DATABASE_URL: url.toString(), DATA_DIR: dir },
    drop: async () => {
      await withAdmin(adminUrl, async (client) => {
        await client.query(`drop database if exists ${name} with (force)`)
      })
      await fs.rm(dir, { recursive: true, force: true })
    },
  }
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Declares the suite once per database; the PostgreSQL variant is skipped, with a visible name, if unavailable. */
export function describeEachDatabase(title: string, body: (dialect: DialectName) => void): void {
  for (const dialect of DIALECTS) {
    if (dialect === 'postgres' && inject('postgresAdminUrl') === null) {
      describe.skip(`${title} [postgres — SKIPPED: PostgreSQL unreachable]`, () => {
        body(dialect)
      })
    } else {
      describe(`${title} [${dialect}]`, () => {
        body(dialect)
      })
    }
  }
}

/** A suite that only makes sense on PostgreSQL (several processes on one database); skipped visibly without it. */
export function describePostgres(title: string, body: () => void): void {
  if (inject('postgresAdminUrl') === null) describe.skip(`${title} [postgres — SKIPPED: PostgreSQL unreachable]`, body)
  else describe(`${title} [postgres]`, body)
}
