/**
 * A step of `npm run build` (scripts/build.js), after the bundles': beside each script, style
 * sheet, page and image of the folders given (the dashboard's and the widget's), its brotli
 * (quality 11) and gzip copies. The server serves them as they are (`precompressed` in
 * src/http/static-page.ts) instead of compressing the files at every start.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { COMPRESSED_ABOVE_BYTES, writeCompressedCopies } from '../http/static-page.js'

const COMPRESSIBLE = /\.(?:js|css|html|svg)$/

for (const directory of process.argv.slice(2)) {
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true })
  await Promise.all(entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map(async (entry) => {
    const file = path.join(entry.parentPath, entry.name)
    const body = await fs.readFile(file)
    if (body.length > COMPRESSED_ABOVE_BYTES) await writeCompressedCopies(file, body, 11)
  }))
}
