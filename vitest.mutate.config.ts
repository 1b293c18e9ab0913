import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

/**
 * The suites that test the mutated code (stryker.config.mjs): the domain rules, the booking service, the access checks
 * of the API and the dashboard, and the guards of who may do what and where the service may connect.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/domain.test.ts', 'test/api-key.test.ts', 'test/date-time.test.ts', 'test/rate-arithmetic.test.ts',
      'test/booking.test.ts', 'test/booking-boundaries.test.ts', 'test/booking-abuse.test.ts', 'test/courts.test.ts',
      'test/rate-limit.test.ts', 'test/http-hardening.test.ts', 'test/tenancy.test.ts', 'test/guards.test.ts',
      'test/webhook-addresses.test.ts', 'test/club-websites.test.ts', 'test/dashboard-api.test.ts'],
    poolOptions: { forks: { maxForks: 1, minForks: 1, execArgv: ['--expose-gc'] } },
  },
})
