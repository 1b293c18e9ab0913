/**
 * Start-up failures an operator can cause or meet, each as a real process: one line on stderr
 * naming the cause and the setting behind it, exit code 1, no stack trace — for the server and
 * for the command line, on one process and with WORKERS.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { loadSqliteDriver } from '../../src/db/sqlite-driver.js'
import { freePort } from '../../src/tools/free-port.js'
import { createTestDatabase, describeEachDatabase, describePostgres } from '../helpers/databases.js'
import { useHarness } from '../helpers/harness.js'

const run = promisify(execFile)

interface Failure {
  readonly code: number
  readonly stderr: string
  readonly stdout: string
}

/** Runs a process that is expected to fail and returns how. */
async function failing(script: string, args: string[], env: Record<string, string>): Promise<Failure> {
  const outcome = await run(process.execPath, [script, ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, timeout: 30_000 })
    .then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: unknown) => error as Failure,
    )
  return outcome
}

/** Exit 1 and exactly one line on stderr, starting with the program's name, with no stack frame. */
function expectOneLine(failure: Failure, pattern: RegExp): void {
  expect(failure.code, failure.stderr).toBe(1)
  const lines = failure.stderr.trimEnd().split('\n')
  expect(lines, failure.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^club-platform: /)
  expect(lines[0]).toMatch(pattern)
  expect(failure.stderr).not.toMatch(/\n\s+at /)
}

describe('the server refuses to start, in one line naming the setting', () => {
  let dataDir = ''
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' })

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-startup-'))
  })
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  it('when the port is in use', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const failure = await failing('dist/server.js', [], { ...env(), PORT: String(port), HOST: '127.0.0.1' })
      expectOneLine(failure, new RegExp(`PORT=${String(port)} HOST=127\\.0\\.0\\.1: port ${String(port)} is already in use`))
    } finally {
      blocker.close()
    }
  })

  it('when HOST does not resolve', async () => {
    expectOneLine(await failing('dist/server.js', [], { ...env(), HOST: 'no-such-host.invalid' }),
      /^club-platform: HOST=no-such-host\.invalid: the name does not resolve/)
  })

  it('when HOST is not an address of this machine', async () => {
    expectOneLine(await failing('dist/server.js', [], { ...env(), HOST: '192.0.2.55' }),
      /^club-platform: HOST=192\.0\.2\.55: not an address of this machine/)
  })

  it('when nothing answers at DATABASE_URL, without printing its password', async () => {
    const port = await freePort()
    const failure = await failing('dist/server.js', [], { ...env(), DATABASE_URL: `postgres://club:secret@127.0.0.1:${String(port)}/club` })
    expectOneLine(failure, new RegExp(`^club-platform: DATABASE_URL=postgres://club:\\*\\*\\*@127\\.0\\.0\\.1:${String(port)}/club: `
      + 'nothing accepts connections'))
    expect(failure.stderr).not.toContain('secret')
  })

  it('when the host of DATABASE_URL does not resolve', async () => {
    expectOneLine(await failing('dist/server.js', [], { ...env(), DATABASE_URL: 'postgres://club@db.invalid:5432/club' }),
      /^club-platform: DATABASE_URL=postgres:\/\/club@db\.invalid:5432\/club: the host name db\.invalid does not resolve/)
  })

  it('when DATA_DIR cannot hold the database', async () => {
    const file = path.join(dataDir, 'a-file')
    await fs.writeFile(file, 'not a directory')
    expectOneLine(await failing('dist/server.js', [], { ...env(), DATA_DIR: file }),
      new RegExp(`^club-platform: DATA_DIR=${file.replace(/[.]/g, '\\.')}: its directory cannot be created`))
  })

  it('when the SQLite file is not a database', async () => {
    const file = path.join(dataDir, 'not-a-database.sqlite')
    await fs.writeFile(file, 'hello')
    expectOneLine(await failing('dist/server.js', [], { ...env(), DATABASE_URL: `sqlite:${file}` }),
      /^club-platform: DATABASE_URL=sqlite:.*not-a-database\.sqlite: the file is not a SQLite database/)
  })

  it('tells the command line\'s failures the same way', async () => {
    const port = await freePort()
    expectOneLine(await failing('bin/club-platform.js', ['clubs', 'list'],
      { ...env(), DATABASE_URL: `postgres://club:secret@127.0.0.1:${String(port)}/club` }),
    /^club-platform: DATABASE_URL=postgres:\/\/club:\*\*\*@127\.0\.0\.1:\d+\/club: nothing accepts connections/)
  })
})

describePostgres('the server refuses a PostgreSQL server that refuses it', () => {
  const admin = () => new URL(inject('postgresAdminUrl') ?? '')

  it('when the role does not exist', async () => {
    const url = admin()
    url.username = 'no_such_role'
    expectOneLine(await failing('dist/server.js', [], { DATABASE_URL: url.toString(), PORT: '0' }),
      /^club-platform: DATABASE_URL=postgres:\/\/no_such_role@.*: the database server refused: role "no_such_role" does not/)
  })

  it('when the database does not exist', async () => {
    const url = admin()
    url.pathname = '/no_such_database'
    expectOneLine(await failing('dist/server.js', [], { DATABASE_URL: url.toString(), PORT: '0' }),
      /: the database server refused: database "no_such_database" does not exist/)
  })

  it('with WORKERS, once, instead of restarting workers that cannot listen', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as net.AddressInfo).port
    const database = await createTestDatabase('postgres')
    try {
      const failure = await failing('dist/server.js', [], {
        ...database.env, REDIS_URL: inject('redisUrl') ?? 'redis://127.0.0.1:6379', WORKERS: '2', PORT: String(port),
        HOST: '127.0.0.1',
      })
      expectOneLine(failure, new RegExp(`PORT=${String(port)} HOST=127\\.0\\.0\\.1: port ${String(port)} is already in use`))
    } finally {
      blocker.close()
      await database.drop()
    }
  })
})

describeEachDatabase('a database migrated by a newer version', (dialect) => {
  const harness = useHarness(dialect)

  it('stops the server and the command line with one line, and /readyz reports it', async () => {
    const db = harness.current.context.db
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2099-01-01T00:00:00.000Z')`.execute(db)
    try {
      const env = { ...harness.current.database.env, PORT: '0' }
      const setting = dialect === 'sqlite' ? 'DATA_DIR=' : 'DATABASE_URL=postgres://'
      const pattern = new RegExp(`^club-platform: ${setting}.*: the database was migrated by a newer version of Club Platform `
        + '\\(9999-from-the-future is unknown to this version\\)')
      expectOneLine(await failing('dist/server.js', [], env), pattern)
      expectOneLine(await failing('bin/club-platform.js', ['migrate'], env), pattern)
      const ready = await harness.current.request({ url: '/readyz' })
      expect(ready.status).toBe(503)
      expect(ready.json<{ detail: string }>().detail).toContain('migrated by a newer version (9999-from-the-future)')
    } finally {
      await sql`delete from kysely_migration where name = '9999-from-the-future'`.execute(db)
    }
  })
})

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 (Node-API, prebuilt) on Node.js 22 and later, and 12 on Node.js 20', () => {
    const major = Number(process.versions.node.split('.')[0])
    const { description } = loadSqliteDriver()
    expect(description).toMatch(major >= 22 ? /^better-sqlite3-napi 13\./ : /^better-sqlite3 12\./)
  })
})
