import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file creates its own databases; two workers fit the two cores. (Three made the whole suite 454 s instead of
    // 490 s, but on a slow machine the third's load pushed 100 simultaneous bookings past PostgreSQL's 2 s wait for a
    // pool connection in test/mail-crash.test.ts: 503s.)
    pool: 'forks',
    // --expose-gc: the limiter's memory test measures the heap after a collection.
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ['--expose-gc'] } },
  },
})
