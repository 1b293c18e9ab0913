// `npm run build`: the service (tsc), then its API reference page (built by the compiled service's own tool), and beside
// them the dashboard's and the widget's bundles (vite), which read only their own sources and write only their own
// folders of dist/, each followed by the compressed copies of its files (the compiled src/tools/precompress.ts, once
// the service is compiled). At the end, the digest of what was built from (scripts/build-if-stale.js --mark).
import { spawn } from 'node:child_process'
import process from 'node:process'

/** @param {string} command @param {string[]} args @returns {Promise<void>} */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${[command, ...args].join(' ')} ended with ${signal ?? `exit code ${String(code)}`}`))
    })
  })
}

/** @param {string} name @returns {string} the project's own copy of the tool */
const bin = (name) => `node_modules/.bin/${name}`
/**
 * Settles once every step has ended (none is left running), failing with the first failure.
 * @param {Promise<void>[]} steps
 */
async function allEnded(steps) {
  for (const step of await Promise.allSettled(steps)) {
    if (step.status === 'rejected') throw step.reason instanceof Error ? step.reason : new Error(String(step.reason))
  }
}

const service = run(bin('tsc'), ['-p', 'tsconfig.build.json'])
/** @param {string} name the bundle's folder (its vite config's), also its folder in dist/ */
const bundle = (name) => allEnded([service, run(bin('vite'), ['build', '--config', `${name}/vite.config.ts`, '--logLevel', 'warn'])])
  .then(() => run(process.execPath, ['dist/tools/precompress.js', `dist/${name}`]))
const parts = await Promise.allSettled([
  service.then(() => run(process.execPath, ['dist/tools/build-docs.js'])),
  bundle('dashboard'),
  bundle('widget'),
])
// A failure the parts share (the service's compile) is told once.
const failures = new Set(parts.flatMap((part) => {
  if (part.status === 'fulfilled') return []
  const reason = /** @type {unknown} */ (part.reason)
  return [reason instanceof Error ? reason.message : String(reason)]
}))
for (const failure of failures) process.stderr.write(`build failed: ${failure}\n`)
if (failures.size > 0) process.exit(1)
await run(process.execPath, ['scripts/build-if-stale.js', '--mark'])
