/**
 * The scale run's databases: a fresh one per size (a PostgreSQL database of its own, dropped
 * afterwards, or a SQLite file in a temporary data directory), migrated, filled by the statements
 * of src/db/scale-seed.ts, cleared of what retention would remove, and given the API keys,
 * dashboard invitations and court list the scenarios use.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { readConfig } from '../../config.js'
import type { DatabaseSettings } from '../../config.js'
import { createContext } from '../../context.js'
import type { AppContext } from '../../context.js'
import { makeRetentionBacklog, postgresScaleSeed, scaleCourts, sqliteScaleSeed } from '../../db/scale-seed.js'
import type { ScaleShape } from '../../db/scale-seed.js'
import { loadSqliteDriver } from '../../db/sqlite-driver.js'
import { dashboardSettings } from '../../http/dashboard-access.js'
import { inviteAdmin } from '../../services/admins.js'
import { createApiKey } from '../../services/api-keys.js'
import { OPERATOR } from '../../services/audit.js'
import { applyRetention } from '../../services/retention.js'
import { findClubBySlug } from '../../db/repositories/clubs.js'

export type ScaleDatabase = 'postgres' | 'sqlite'

export interface ScaleData {
  readonly env: Record<string, string>
  /** Seconds the seed took (migrations and the retention run after it not counted). */
  readonly seedSeconds: number
  readonly keys: string[]
  /** Invitation tokens of the first clubs' admins, by club slug: accepted over HTTP for a session cookie. */
  readonly invitations: [string, string][]
  readonly courts: string[][]
  /** Guests' data put back into the bookings of `clubs` clubs: the next server starts a retention run. */
  backlog(clubs: number): Promise<number>
  drop(): Promise<void>
}

const KEYS = 200
const SESSIONS = 20
const BOOKED_CLUBS = 1_000

async function withContext<T>(env: Record<string, string>, work: (context: AppContext) => Promise<T>): Promise<T> {
  const context = await createContext(readConfig(env), { migrate: true, role: 'admin' })
  try {
    return await work(context)
  } finally {
    await context.close()
  }
}

async function seedPostgres(url: string, shape: ScaleShape): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    for (const statement of postgresScaleSeed(shape)) await client.query(statement)
    // The seed's pages written out now rather than by a checkpoint in the middle of a measurement (a role without the
    // right to ask for one leaves it to the server's schedule).
    await client.query('checkpoint').catch(() => undefined)
  } finally {
    await client.end()
  }
}

/** Fills a migrated, empty database with the scale run's data. */
export async function seedScaleDatabase(database: DatabaseSettings, shape: ScaleShape): Promise<void> {
  if (database.kind === 'postgres') await seedPostgres(database.url, shape)
  else seedSqlite(database.file, shape)
}

function seedSqlite(file: string, shape: ScaleShape): void {
  const database = new (loadSqliteDriver().Database)(file)
  try {
    database.function('scale_uuid', { deterministic: false }, () => randomUUID())
    database.transaction(() => {
      for (const statement of sqliteScaleSeed(shape)) database.exec(statement)
    })()
  } finally {
    database.close()
  }
}

export async function prepareScaleData(kind: ScaleDatabase, shape: ScaleShape, postgresUrl: string): Promise<ScaleData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-scale-'))
  const name = `club_platform_scale_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const admin = kind === 'postgres' ? new pg.Client({ connectionString: postgresUrl }) : undefined
  if (admin !== undefined) {
    await admin.connect()
    await admin.query(`create database ${name}`)
  }
  const env = { DATA_DIR: dataDir, DATABASE_URL: kind === 'postgres' ? url.toString() : '', LOG_LEVEL: 'silent' }
  const drop = async () => {
    if (admin !== undefined) {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    // Opening a context migrates the new database; the seed fills its tables.
    await withContext(env, () => Promise.resolve())
    const started = performance.now()
    await seedScaleDatabase(kind === 'postgres' ? { kind, url: url.toString() } : { kind, file: path.join(dataDir, 'club-platform.sqlite') },
      shape)
    const seedSeconds = (performance.now() - started) / 1000
    const prepared = await withContext(env, async (context) => {
      // What the seed left due (nothing, by design) goes now: the server's first run has nothing to remove.
      while (!(await applyRetention(context.db, shape.now)).complete);
      const keys: string[] = []
      const invitations: [string, string][] = []
      for (let c = 1; c <= Math.min(shape.clubs, KEYS); c++) {
        const slug = `scale-${String(c)}`
        const club = await findClubBySlug(context.db, slug)
        if (club === undefined) throw new Error(`the club ${slug} was not seeded`)
        keys.push((await createApiKey(context.db, context.clock, { clubId: club.id, name: 'bench', expiresAt: null,
          scopes: ['read:groups', 'read:events', 'read:news', 'read:competition_results'] })).key)
        if (c <= SESSIONS) {
          const { url: link } = await inviteAdmin(context.db, context.clock, dashboardSettings(context),
            { clubId: club.id, email: `admin@${slug}.example.org`, role: 'admin', actor: OPERATOR })
          invitations.push([slug, new URL(link).hash.replace('#token=', '')])
        }
      }
      return { keys, invitations, courts: await scaleCourts(context.db, Math.min(shape.clubs, BOOKED_CLUBS)) }
    })
    return { env, seedSeconds, ...prepared, drop,
      backlog: (clubs) => withContext(env, (context) => makeRetentionBacklog(context.db, clubs)) }
  } catch (error) {
    await drop()
    throw error
  }
}
