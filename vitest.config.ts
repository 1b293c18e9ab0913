import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file creates its own databases. Three workers on two cores: the suites spend part of their time waiting
    // for server processes, relays and leases, and a third keeps both cores busy (the whole suite on this kind of
    // machine: 454 s with three, 490 s with two).
    pool: 'forks',
    // --expose-gc: the limiter's memory test measures the heap after a collection.
    poolOptions: { forks: { maxForks: 3, minForks: 1, execArgv: ['--expose-gc'] } },
  },
})
