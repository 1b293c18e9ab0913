// The booking widget's build (npm run build): one minified ES module, dist/widget/v1/club-booking.js, served by the service.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
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
