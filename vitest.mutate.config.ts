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
    include: ['test/domain/*.test.ts', 'test/limits/rate-arithmetic.test.ts', 'test/limits/rate-limit.test.ts',
      'test/bookings/booking.test.ts', 'test/bookings/booking-boundaries.test.ts', 'test/bookings/booking-abuse.test.ts',
      'test/bookings/courts.test.ts', 'test/http/http-hardening.test.ts', 'test/api/tenancy.test.ts',
      'test/dashboard/dashboard-api.test.ts'],
    poolOptions: { forks: { maxForks: 1, minForks: 1, execArgv: ['--expose-gc'] } },
  },
})
