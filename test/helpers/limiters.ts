/** Runs a suite once per database and per limiter store (in-process, Redis). */
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { describe, inject } from 'vitest'
import type { DialectName } from '../../src/db/dialect.js'
import { DIALECTS } from './databases.js'

export type StoreKind = 'memory' | 'redis'

export interface StoreSetup {
  readonly store: StoreKind
  /** Settings that select the store, with a key prefix of the suite's own. */
  readonly env: Record<string, string>
  /** Deletes whatever the suite wrote to Redis. */
  cleanUp(): Promise<void>
}

export function storeSetup(store: StoreKind): StoreSetup {
  if (store === 'memory') return { store, env: {}, cleanUp: () => Promise.resolve() }
  const url = inject('redisUrl') ?? ''
  const prefix = `cp-test-${randomBytes(6).toString('hex')}:`
  return {
    store,
    env: { REDIS_URL: url, REDIS_KEY_PREFIX: prefix },
    async cleanUp() {
      const redis = new Redis(url)
      try {
        const keys = await redis.keys(`${prefix}*`)
        if (keys.length > 0) await redis.del(...keys)
      } finally {
        redis.disconnect()
      }
    },
  }
}

export function describeEachStore(title: string, body: (dialect: DialectName, setup: StoreSetup) => void): void {
  for (const dialect of DIALECTS) {
    for (const store of ['memory', 'redis'] as const) {
      const missing = dialect === 'postgres' && inject('postgresAdminUrl') === null
        ? 'PostgreSQL'
        : store === 'redis' && inject('redisUrl') === null ? 'Redis' : undefined
      const name = `${title} [${dialect}, ${store}]`
      if (missing !== undefined) {
        describe.skip(`${name} — SKIPPED: ${missing} unreachable`, () => {
          body(dialect, storeSetup('memory'))
        })
      } else {
        describe(name, () => {
          body(dialect, storeSetup(store))
        })
      }
    }
  }
}
