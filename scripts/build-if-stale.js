// Runs `npm run build` unless the last complete build was built from exactly the files it would be
// built from now: an install, the test run, the benchmark and the OpenAPI lint each need a current
// build, and one after another (as in CI) they build once. The build ends by writing a digest of its
// inputs (their paths and contents) into dist/.build-complete (`--mark`); a build is current when
// that digest is the inputs' digest now. Contents, not modification times: `npm install` rewrites
// package-lock.json unchanged, and a copy or checkout gives every file a new time.
// Built as an install builds: for production (a test runner's NODE_ENV=test would bundle Lit's and
// Svelte's development builds).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

const BUILD_OUTPUT = 'dist/.build-complete'
const BUILD_INPUTS = ['src', 'dashboard', 'widget', 'clients', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']

/** @param {string} entry @returns {string[]} the file, or every file below the folder, in a fixed order */
function filesOf(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (stat === undefined) return []
  if (!stat.isDirectory()) return [entry]
  return fs.readdirSync(entry).sort().flatMap((name) => filesOf(path.join(entry, name)))
}

/** @returns {string} the digest of every input's path and content */
function inputsDigest() {
  const hash = createHash('sha256')
  for (const file of BUILD_INPUTS.flatMap(filesOf)) {
    const content = fs.readFileSync(file)
    hash.update(`${file}\0${String(content.length)}\0`).update(content)
  }
  return hash.digest('hex')
}

if (process.argv[2] === '--mark') {
  fs.writeFileSync(BUILD_OUTPUT, `${inputsDigest()}\n`)
} else {
  const marked = fs.existsSync(BUILD_OUTPUT) ? fs.readFileSync(BUILD_OUTPUT, 'utf8').trim() : ''
  if (marked !== inputsDigest()) {
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
  }
}
