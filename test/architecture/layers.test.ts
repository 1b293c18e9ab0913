/**
 * The layers of src/ as .dependency-cruiser.cjs draws them, held by `npm run lint`: the check is run
 * here on the tree (it passes) and on small trees that each break one rule (it fails, naming the
 * rule); and the searches that no import rule can make — who wakes a worker, where SQL is written,
 * which comments lean on a notebook — over the sources.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const ROOT = path.resolve(import.meta.dirname, '../..')
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs')
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')

/** Runs the layer check on `src` of a directory; the exit code and what it printed. */
async function cruise(directory: string): Promise<{ code: number, output: string }> {
  try {
    const { stdout } = await run(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], { cwd: directory })
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { code: number, stdout: string, stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

/** Every TypeScript file under src/, with its text. */
async function sources(): Promise<{ file: string, text: string }[]> {
  const files = (await fs.readdir(path.join(ROOT, 'src'), { recursive: true })).filter((file) => file.endsWith('.ts'))
  return Promise.all(files.map(async (file) => ({ file: `src/${file}`, text: await fs.readFile(path.join(ROOT, 'src', file), 'utf8') })))
}

/** The lines of the sources that match, as `file: line`, leaving out comment lines. */
function matches(all: { file: string, text: string }[], pattern: RegExp, except: (file: string) => boolean): string[] {
  return all.filter(({ file }) => !except(file)).flatMap(({ file, text }) => text.split('\n')
    .filter((line) => pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)).map((line) => `${file}: ${line.trim()}`))
}

describe('the layers of src/', () => {
  let fixtures: string

  beforeAll(async () => {
    fixtures = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-layers-'))
  })
  afterAll(async () => {
    await fs.rm(fixtures, { recursive: true, force: true })
  })

  /** A tree of modules (path → text) beside a tsconfig like the project's. */
  const tree = async (name: string, files: Record<string, string>) => {
    const directory = path.join(fixtures, name)
    for (const [file, text] of Object.entries({ ...files, 'tsconfig.json': '{ "compilerOptions": { "module": "nodenext" } }' })) {
      await fs.mkdir(path.dirname(path.join(directory, file)), { recursive: true })
      await fs.writeFile(path.join(directory, file), text)
    }
    return directory
  }

  it('hold on the tree as it is', async () => {
    const { code, output } = await cruise(ROOT)
    expect(output).toContain('no dependency violations found')
    expect(code).toBe(0)
  }, 60_000)

  it.each([
    ['routes-call-services', {
      'src/routes/clubs.ts': 'import { findClub } from \'../db/repositories/clubs.js\'\nexport const route = findClub\n',
      'src/db/repositories/clubs.ts': 'export const findClub = 1\n',
    }],
    ['no-circular', {
      'src/services/a.ts': 'import { b } from \'./b.js\'\nexport const a = () => b\n',
      'src/services/b.ts': 'import { a } from \'./a.js\'\nexport const b = () => a\n',
    }],
    ['no-migration-imports', {
      'src/services/keys.ts': 'import { KEY } from \'../db/migrations/0001-keys.js\'\nexport const key = KEY\n',
      'src/db/migrations/0001-keys.ts': 'export const KEY = 1\n',
    }],
    ['db-below-services', {
      'src/db/repositories/bookings.ts': 'import { rule } from \'../../services/rules.js\'\nexport const booking = rule\n',
      'src/services/rules.ts': 'export const rule = 1\n',
    }],
    ['sql-only-in-db', {
      'src/services/report.ts': 'import { sql } from \'kysely\'\nexport const query = sql`select 1`\n',
    }],
    ['domain-is-pure', {
      'src/domain/slots.ts': 'import { config } from \'../config.js\'\nexport const slots = config\n',
      'src/config.ts': 'export const config = 1\n',
    }],
    ['routes-on-top', {
      'src/http/docs.ts': 'import { route } from \'../routes/clubs.js\'\nexport const docs = route\n',
      'src/routes/clubs.ts': 'export const route = 1\n',
    }],
  ] as const)('refuse an import that breaks %s, naming the rule', async (rule, files) => {
    // A package named kysely, so that an import of it resolves as in the tree.
    const directory = await tree(rule, { ...files, 'node_modules/kysely/package.json': '{ "name": "kysely", "main": "index.js" }',
      'node_modules/kysely/index.js': 'exports.sql = () => undefined\n' })
    const { code, output } = await cruise(directory)
    expect(output).toContain(`error ${rule}:`)
    expect(code).not.toBe(0)
  }, 60_000)

  it('leave waking the workers and marking the change feed to the unit of work', async () => {
    const all = await sources()
    const calls = matches(all, /\.wake\(\)|\.changedHere\(/, (file) => file === 'src/services/unit-of-work.ts')
    // A worker's own wake() runs its polling loop: that is where waking happens, not a call to wake a worker.
    expect(calls.filter((line) => !line.endsWith('this.loop.wake()'))).toEqual([])
    expect(matches(all, /queuedHere/, () => false)).toEqual([])
  })

  it('keep SQL in src/db/', async () => {
    const all = await sources()
    expect(matches(all, /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`/,
      (file) => file.startsWith('src/db/'))).toEqual([])
    expect(matches(all, /from '[./]*\/db\//, (file) => !file.startsWith('src/routes/') && !file.startsWith('src/pages/'))).toEqual([])
  })

  it('let only the dialect module tell the databases apart', async () => {
    const all = await sources()
    // Elsewhere the dialect is handed to the named differences (sqlBoolean, descNullsLast), never compared.
    const dialectModule = (file: string) => /^src\/db\/(dialect\.ts|migrations\/)/.test(file)
    const compared = matches(all, /dialectOf(<\w+>)?\([^)]*\)\s*[!=]==/, dialectModule)
    expect(compared).toEqual([])
  })

  it('explain the code in its own terms, not by the steps of a notebook', async () => {
    const all = await sources()
    expect(all.filter(({ text }) => /\bstep \d/i.test(text)).map(({ file }) => file)).toEqual([])
  })

  it('keep the change feed\'s names as the migrations wrote them', async () => {
    const { CHANGE_CHANNEL, KEY_SCOPE } = await import('../../src/db/change-scopes.js')
    const migration = (name: string) => fs.readFile(path.join(ROOT, 'src/db/migrations', name), 'utf8')
    expect(await migration('0004-change-tracking.ts')).toContain(`const CHANGE_CHANNEL = '${CHANGE_CHANNEL}'`)
    expect(await migration('0012-key-change-tracking.ts')).toContain(`const KEY_SCOPE = '${KEY_SCOPE}'`)
  })
})
