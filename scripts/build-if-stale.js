// Runs `npm run build` unless the last complete build (dist/.build-complete) is newer than every
// file it is built from: an install, the test run, the benchmark and the OpenAPI lint each need a
// current build, and one after another (as in CI) they build once. Built as an install builds:
// for production (a test runner's NODE_ENV=test would bundle Lit's and Svelte's development builds).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

const BUILD_OUTPUT = 'dist/.build-complete'
const BUILD_INPUTS = ['src', 'dashboard', 'widget', 'clients', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']

/** @param {string} entry @returns {number} the newest modification time of the file or of anything below the folder */
function newestModification(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (stat === undefined) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestModification(path.join(entry, name))))
}

const built = fs.statSync(BUILD_OUTPUT, { throwIfNoEntry: false })?.mtimeMs ?? 0
if (BUILD_INPUTS.some((input) => newestModification(input) >= built)) {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
}
