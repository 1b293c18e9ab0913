// The booking widget's build (npm run build): one minified ES module, dist/widget/v1/club-booking.js, served by the service.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import type { Plugin } from 'vite'

/**
 * The widget's style sheet (src/styles.ts, a Lit css`` template without interpolations) shipped
 * without its comments and spaces: 0.4 kB of the 15 kB budget.
 */
function minifiedStyles(): Plugin {
  return {
    name: 'club-booking-minified-styles',
    transform(code, id) {
      if (!id.endsWith('/src/styles.ts')) return undefined
      return code.replace(/css`([^`]*)`/, (_, sheet: string) => `css\`${sheet.replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\s+/g, ' ').replace(/\s*([{}:;,>])\s*/g, '$1').replace(/;}/g, '}').trim()}\``)
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [minifiedStyles()],
  build: {
    outDir: fileURLToPath(new URL('../dist/widget/v1', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    modulePreload: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: fileURLToPath(new URL('src/club-booking.ts', import.meta.url)),
      output: { format: 'es', entryFileNames: 'club-booking.js' },
    },
  },
})
