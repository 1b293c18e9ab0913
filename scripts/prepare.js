// npm runs this on every install of the checkout (`npm install`, `npm ci`): it builds the service
// (unless the build is already newer than its sources: scripts/build-if-stale.js).
// Building needs the dev dependencies; an install without them (`npm ci --omit=dev`) cannot build,
// so it stops with the sequence that gives a production install instead of "tsc: not found".
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import process from 'node:process'

const require = createRequire(import.meta.url)
try {
  require.resolve('typescript')
} catch {
  process.stderr.write('club-platform: the build needs the dev dependencies, which this install omits.\n'
    + 'For a production install run: npm ci && npm prune --omit=dev   (docs/operations.md, "Production install")\n')
  process.exit(1)
}
execFileSync(process.execPath, ['scripts/build-if-stale.js'], { stdio: 'inherit' })
