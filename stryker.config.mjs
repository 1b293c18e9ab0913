// Mutation testing (`npm run mutate`; see CONTRIBUTING.md, "Mutation testing"). Not part of CI: it runs
// the covering tests once per mutant, minutes to hours on two cores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: ['src/domain/**/*.ts', 'src/services/bookings.ts', 'src/http/access.ts', 'src/http/dashboard-access.ts'],
  coverageAnalysis: 'perTest',
  // Module-level constants would rerun every covering test per mutant; the rules themselves are what is measured.
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 20_000,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
