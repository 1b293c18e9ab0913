// `npm run build`: the service (tsc), then its API reference page (built by the compiled service's own tool), and beside
// them the dashboard's and the widget's bundles (vite), which read only their own sources and write only their own
// folders of dist/. At the end, the digest of what was built from (scripts/build-if-stale.js --mark).
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
const parts = await Promise.allSettled([
  run(bin('tsc'), ['-p', 'tsconfig.build.json']).then(() => run(process.execPath, ['dist/tools/build-docs.js'])),
  run(bin('vite'), ['build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn']),
  run(bin('vite'), ['build', '--config', 'widget/vite.config.ts', '--logLevel', 'warn']),
])
let failed = false
for (const part of parts) {
  if (part.status === 'fulfilled') continue
  failed = true
  const reason = /** @type {unknown} */ (part.reason)
  process.stderr.write(`build failed: ${reason instanceof Error ? reason.message : String(reason)}\n`)
}
if (failed) process.exit(1)
await run(process.execPath, ['scripts/build-if-stale.js', '--mark'])
