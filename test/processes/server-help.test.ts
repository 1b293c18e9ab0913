/**
 * `node dist/server.js --help` as an operator runs it: the options and every setting, exit 0, and
 * nothing touched (no database, no data directory, no port); an unknown option is one line and exit 2.
 * The settings it lists are the README's, with the same defaults.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SETTINGS } from '../../src/settings.js'

const run = promisify(execFile)
const SERVER = path.resolve('dist/server.js')

describe('the server\'s own help', () => {
  let cwd = ''
  beforeAll(async () => {
    cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-help-'))
  })
  afterAll(async () => {
    await fs.rm(cwd, { recursive: true, force: true })
  })

  it('prints the options and settings, exits 0 and creates nothing in the working directory', async () => {
    // PORT taken by nothing would be started on: a setting that would fail the start shows --help reads none.
    const { stdout, stderr } = await run(process.execPath, [SERVER, '--help'], { cwd, timeout: 20_000,
      env: { ...process.env, PORT: 'not a port', DATA_DIR: '', DATABASE_URL: '' } })
    expect(stderr).toBe('')
    expect(stdout).toMatch(/^Usage: node dist\/server\.js \[--demo\]/)
    expect(stdout).toContain('--demo')
    for (const name of SETTINGS.flatMap((setting) => setting.names)) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'))
    expect(await fs.readdir(cwd)).toEqual([])
  })

  it('refuses an unknown option in one line, exit 2, and starts nothing', async () => {
    const failure = await run(process.execPath, [SERVER, '--hlep'], { cwd, timeout: 20_000, env: { ...process.env, PORT: '0' } })
      .then(() => ({ code: 0, stderr: '' }), (error: unknown) => error as { code: number, stderr: string })
    expect(failure.code).toBe(2)
    expect(failure.stderr).toBe('club-platform: unknown option "--hlep" (options: --demo, --help)\n')
    expect(await fs.readdir(cwd)).toEqual([])
  })

  it('lists the README\'s settings with its defaults', async () => {
    const readme = await fs.readFile('README.md', 'utf8')
    const table = readme.slice(readme.indexOf('## Settings'), readme.indexOf('A bad value stops the start'))
    const rows = table.split('\n').filter((line) => line.startsWith('| `')).map((line) => {
      const [names = '', defaults = ''] = line.split('|').slice(1, 3)
      return { names: [...names.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]),
        default: defaults.trim().replaceAll('`', '') }
    })
    expect(rows).toEqual(SETTINGS.map((setting) => ({ names: setting.names, default: setting.default })))
  })
})
