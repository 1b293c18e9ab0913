// `npm run build`: the service (tsc), then its API reference page (built by the compiled service's own tool), and beside
// them the dashboard's and the widget's bundles (vite), which read only their own sources and write only their own
// folders of dist/, each followed by the compressed copies of its files. At the end, the digest of what was built from
// (scripts/build-if-stale.js --mark).
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import process from 'node:process'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

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

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * Beside each file of a bundle's folder that is worth compressing, its brotli (quality 11) and gzip (level 9) copies,
 * `.br` and `.gz`: the server serves them as they are (src/http/static-page.ts, `precompressed`) instead of compressing
 * at every start.
 * @param {string} directory
 */
async function precompress(directory) {
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true })
  await Promise.all(entries.filter((entry) => entry.isFile() && /\.(?:js|css|html|svg)$/.test(entry.name)).map(async (entry) => {
    const file = path.join(entry.parentPath, entry.name)
    const body = await fs.readFile(file)
    if (body.length <= 512) return
    const [br, gz] = await Promise.all([
      brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzip(body, { level: 9 }),
    ])
    await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)])
  }))
}

/** @param {string} name @returns {string} the project's own copy of the tool */
const bin = (name) => `node_modules/.bin/${name}`
const parts = await Promise.allSettled([
  run(bin('tsc'), ['-p', 'tsconfig.build.json']).then(() => run(process.execPath, ['dist/tools/build-docs.js'])),
  run(bin('vite'), ['build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn']).then(() => precompress('dist/dashboard')),
  run(bin('vite'), ['build', '--config', 'widget/vite.config.ts', '--logLevel', 'warn']).then(() => precompress('dist/widget')),
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
