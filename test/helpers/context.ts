/** A context of the service on a suite's test database, as a separate process would open it, on the run's clock. */
import { readConfig } from '../../src/config.js'
import { createContext } from '../../src/context.js'
import type { AppContext, ContextOptions } from '../../src/context.js'
import type { TestDatabase } from './databases.js'
import { testClock } from './today.js'

export function openContext(database: Pick<TestDatabase, 'env'>, options: ContextOptions = {}): Promise<AppContext> {
  return createContext(readConfig({ ...database.env, LOG_LEVEL: 'silent' }), { clock: testClock, ...options })
}
