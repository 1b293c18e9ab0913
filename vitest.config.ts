import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file creates its own databases; two workers fit the two cores. (Three made the whole suite 454 s instead of
    // 490 s, but on a slow machine the third's load pushed 100 simultaneous bookings past PostgreSQL's 2 s wait for a
    // pool connection in test/mail/mail-crash.test.ts: 503s.)
    pool: 'forks',
    // The files of a worker run one after another in its process and share its modules: the service's modules take some
    // 2 s of a core to load, once per worker instead of once per file (the suite took 593 s instead of 698 s on a
    // two-core machine). A test that measures a process (its heap) starts one of its own.
    isolate: false,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
})
