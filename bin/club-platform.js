#!/usr/bin/env node
// The command line runs the compiled sources (npm install builds them; so does npm run build).
import { existsSync } from 'node:fs'

const entry = new URL('../dist/cli/bin.js', import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write('club-platform: not built yet; run "npm install" or "npm run build" in the checkout first\n')
  process.exit(1)
}
await import(entry.href)
