import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { ManualClock } from '../../src/clock.js'
import { MemoryLimiterStore } from '../../src/limits/memory-store.js'
import { RedisLimiterStore } from '../../src/limits/redis-store.js'
import type { LimiterStore } from '../../src/limits/store.js'
import { createApiKey } from '../../src/services/api-keys.js'
import { START, startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { describeEachStore, storeSetup } from '../helpers/limiters.js'
import { freePort } from '../../src/tools/free-port.js'

const CONTRACT = { capacity: 60, refillPerSecond: 1, dailyQuota: 10_000 }
const redisUrl = inject('redisUrl')

async function eachStore(test: (store: LimiterStore, clock: ManualClock) => Promise<void>): Promise<void> {
  const stores: [string, () => Promise<[LimiterStore, ManualClock, () => Promise<void>]>][] = [['memory', async () => {
    const clock = new ManualClock(START)
    return [await MemoryLimiterStore.open(clock), clock, () => Promise.resolve()]
  }]]
  if (redisUrl !== null) {
    stores.push(['redis', () => {
      const clock = new ManualClock(START)
      const setup = storeSetup('redis')
      const store = new RedisLimiterStore({ url: redisUrl, keyPrefix: setup.env.REDIS_KEY_PREFIX ?? '', clock })
      return Promise.resolve([store, clock, () => setup.cleanUp()])
    }])
  }
  for (const [, open] of stores) {
    const [store, clock, cleanUp] = await open()
    try {
      await test(store, clock)
    } finally {
      await store.close()
      await cleanUp()
    }
  }
}

describe('the daily quota of the contract', () => {
  it('admits the 10,000th request of a UTC day, refuses the 10,001st until 00:00:00 UTC (each store)', async () => {
    await eachStore(async (store, clock) => {
      const dayStart = Date.parse('2026-06-15T00:00:00Z')
      clock.set(dayStart)
      for (let i = 1; i <= 10_000; i++) {
        const decision = await store.consume('quota-key', CONTRACT)
        if (!decision.admitted) throw new Error(`request ${String(i)} refused (${decision.refusal ?? ''}) on ${store.kind}`)
        clock.advance(1_000)
      }
      const refused = await store.consume('quota-key', CONTRACT)
      expect(refused).toMatchObject({ admitted: false, refusal: 'daily', used: 10_000 })
      // What the dashboard shows for the key: today's count, and nothing of another day or key.
      expect(await store.usedToday('quota-key', clock.now())).toBe(10_000)
      expect(await store.usedToday('quota-key', dayStart + 86_400_000)).toBe(0)
      expect(await store.usedToday('other-key', clock.now())).toBe(0)
      clock.set(dayStart + 86_400_000 - 1)
      expect((await store.consume('quota-key', CONTRACT)).admitted).toBe(false)
      clock.set(dayStart + 86_400_000)
      expect(await store.consume('quota-key', CONTRACT)).toMatchObject({ admitted: true, used: 1 })
    })
  }, 120_000)

  it('gives back the day\'s unit of a request the service failed (503)', async () => {
    await eachStore(async (store) => {
      const first = await store.consume('refund-key', CONTRACT)
      expect(first.used).toBe(1)
      await store.refundDay('refund-key', first.now)
      expect((await store.consume('refund-key', CONTRACT)).used).toBe(1)
    })
  })
})

describe.skipIf(redisUrl === null)('the Redis store', () => {
  it('gives every key it writes an expiry: until the bucket is full and the day is over', async () => {
    const { Redis } = await import('ioredis')
    const setup = storeSetup('redis')
    const clock = new ManualClock(Date.parse('2026-06-15T23:59:30Z'))
    const store = new RedisLimiterStore({ url: redisUrl ?? '', keyPrefix: setup.env.REDIS_KEY_PREFIX ?? '', clock })
    const redis = new Redis(redisUrl ?? '')
    try {
      await store.consume('ttl-key', CONTRACT)
      const keys = await redis.keys(`${setup.env.REDIS_KEY_PREFIX ?? ''}*`)
      expect(keys).toHaveLength(1)
      // 30 s to midnight, plus a minute's margin.
      const ttl = await redis.pttl(keys[0] ?? '')
      expect(ttl).toBeGreaterThan(89_000)
      expect(ttl).toBeLessThanOrEqual(90_000)
    } finally {
      redis.disconnect()
      await store.close()
      await setup.cleanUp()
    }
  })
})

describe('the in-process store', () => {
  it('keeps the day\'s counts and buckets across a graceful restart', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'club-platform-limits-')), 'rate-limits.json')
    const clock = new ManualClock(START)
    const before = await MemoryLimiterStore.open(clock, file)
    for (let i = 0; i < 25; i++) before.consume('restart-key', CONTRACT)
    await before.close()
    const after = await MemoryLimiterStore.open(clock, file)
    expect(after.consume('restart-key', CONTRACT)).toMatchObject({ used: 26, tokens: 34 })
    clock.set(Date.parse('2026-06-16T00:00:00Z'))
    expect(after.consume('restart-key', CONTRACT)).toMatchObject({ used: 1 })
    fs.rmSync(path.dirname(file), { recursive: true, force: true })
  })

  it('remembers 100,000 keys used once each in bounded memory, and forgets full buckets with no count for today', () => {
    // Measured in a process of its own, on the built store as the server runs it: a test process shares its heap with
    // the files that ran in it before (the same loop measured 47 MiB there, 21 MiB in a fresh process).
    const probe = `
      import { ManualClock } from ${JSON.stringify(pathToFileURL(path.resolve('dist/clock.js')).href)}
      import { MemoryLimiterStore } from ${JSON.stringify(pathToFileURL(path.resolve('dist/limits/memory-store.js')).href)}
      const clock = new ManualClock(${String(START)})
      const store = await MemoryLimiterStore.open(clock)
      const contract = ${JSON.stringify(CONTRACT)}
      globalThis.gc()
      const heapBefore = process.memoryUsage().heapUsed
      for (let i = 0; i < 100_000; i++) store.consume('00000000-0000-4000-8000-' + String(i).padStart(12, '0'), contract)
      globalThis.gc()
      const grown = process.memoryUsage().heapUsed - heapBefore
      const size = store.size
      clock.set(Date.parse('2026-06-16T00:01:00Z'))
      store.sweep()
      process.stdout.write(JSON.stringify({ size, grown, swept: store.size }))
      await store.close()`
    const { size, grown, swept } = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', probe],
      { encoding: 'utf8' })) as { size: number, grown: number, swept: number }
    console.info(`limiter memory: ${String(size)} keys, heap grew by ${(grown / 1_048_576).toFixed(1)} MiB`)
    expect(size).toBe(100_000)
    // Stated bound (docs/operations-limits.md): under 32 MiB for 100,000 keys.
    expect(grown).toBeLessThan(32 * 1_048_576)
    expect(swept).toBe(0)
  })
})

describeEachStore('two instances sharing one budget', (dialect, setup) => {
  if (setup.store === 'memory') {
    it('is what REDIS_URL is for: the in-process store is per instance', () => {
      expect(setup.env.REDIS_URL).toBeUndefined()
    })
    return
  }
  const harnesses: (Harness & { close(): Promise<void> })[] = []
  afterAll(async () => {
    for (const h of harnesses.reverse()) await h.close()
    await setup.cleanUp()
  })

  const twoInstances = async (env: Record<string, string>, onHarnessClock: boolean) => {
    const first = await startHarness(dialect, { env: { ...setup.env, ...env }, redisOnHarnessClock: onHarnessClock })
    const second = await startHarness(dialect, { env: { ...setup.env, ...env }, redisOnHarnessClock: onHarnessClock,
      database: first.database })
    harnesses.push(second, first)
    const club = await first.createClub(`shared-${String(harnesses.length)}`)
    const { key } = await createApiKey(first.context.db, first.clock, { clubId: club.id, name: 'shared', scopes: ['read:groups'],
      expiresAt: null })
    return { first, second, key }
  }
  const burst = async (instances: Harness[], key: string) => {
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      (instances[i % 2] as Harness).request({ url: '/api/v1/groups', key })))
    return [responses.filter((r) => r.status === 200).length, responses.filter((r) => r.status === 429).length]
  }

  it('admits exactly 60 of 200 requests split across two instances', async () => {
    const { first, second, key } = await twoInstances({ RATE_LIMIT_CAPACITY: '60', RATE_LIMIT_PER_MINUTE: '60' }, true)
    expect(await burst([first, second], key)).toEqual([60, 140])
  })

  it('admits exactly 60 when the instances\' clocks are 30 s apart (the script decides on the Redis server\'s clock)', async () => {
    // A slow refill (1 per minute) keeps the count exact however long the burst takes in real time.
    const { first, second, key } = await twoInstances({ RATE_LIMIT_CAPACITY: '60', RATE_LIMIT_PER_MINUTE: '1' }, false)
    second.clock.advance(30_000)
    expect(await burst([first, second], key)).toEqual([60, 140])
    const afterSkew = await first.request({ url: '/api/v1/groups', key })
    expect(afterSkew.status).toBe(429)
  })
})

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'])
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(child)
    })
    child.on('error', reject)
  })
}

const haveRedisServer = fs.existsSync('/usr/bin/redis-server') || fs.existsSync('/usr/local/bin/redis-server')
if (!haveRedisServer) {
  if (process.env.CLUB_PLATFORM_REQUIRE_SERVICES === '1') throw new Error('redis-server is required for the outage test but not installed')
  console.warn('\n!!! redis-server is not installed: the Redis outage test is SKIPPED.\n')
}

describe.skipIf(!haveRedisServer)('when Redis goes away', () => {
  it('answers 503 within 2 s (never 200), keeps public endpoints working, and recovers without a restart', async () => {
    const port = await freePort()
    let redis = await startRedis(port)
    const h = await startHarness('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${String(port)}`, REDIS_KEY_PREFIX: 'outage:',
      RATE_LIMIT_CAPACITY: '60' } })
    try {
      const club = await h.createClub('outage')
      const { key } = await h.createKey(club.id, ['read:groups'])
      expect((await h.request({ url: '/api/v1/groups', key })).status).toBe(200)

      const stopped = new Promise((resolve) => redis.on('exit', resolve))
      redis.kill('SIGKILL')
      await stopped
      for (let i = 0; i < 5; i++) {
        const started = performance.now()
        const response = await h.request({ url: '/api/v1/groups', key })
        expect(performance.now() - started).toBeLessThan(2_000)
        expect(response.status).toBe(503)
        expect(response.json<{ type: string }>().type).toBe('/api/v1/problems/service-unavailable')
        expect(response.headers['retry-after']).toBe('1')
      }
      expect((await h.request({ url: '/api/v1/public/outage/courts' })).status).toBe(200)

      redis = await startRedis(port)
      let status = 0
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        status = (await h.request({ url: '/api/v1/groups', key })).status
      }
      expect(status).toBe(200)
    } finally {
      await h.close()
      redis.kill('SIGKILL')
    }
  }, 60_000)
})
