import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file creates its own databases; two workers fit the two cores.
    pool: 'forks',
    // --expose-gc: the limiter's memory test measures the heap after a collection.
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ['--expose-gc'] } },
  },
})
