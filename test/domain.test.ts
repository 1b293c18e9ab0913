import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig, redactUrl } from '../src/config.js'
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../src/domain/api-key.js'
import { slugProblem, timezoneProblem } from '../src/domain/club.js'
import { parseScopes } from '../src/domain/scopes.js'

describe('API key format', () => {
  it('generates distinct, recognisable, well-formed keys', () => {
    const keys = new Set(Array.from({ length: 500 }, generateApiKey))
    expect(keys.size).toBe(500)
    for (const key of keys) {
      expect(key).toMatch(/^cpk_[0-9A-Za-z]{38}$/)
      expect(isWellFormedApiKey(key)).toBe(true)
    }
  })

  it('detects every single-character change and every adjacent swap', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
    fc.assert(fc.property(fc.integer({ min: 4, max: 41 }), fc.integer({ min: 0, max: 61 }), (position, replacement) => {
      const key = generateApiKey()
      const char = alphabet.charAt(replacement)
      fc.pre(key.charAt(position) !== char)
      expect(isWellFormedApiKey(key.slice(0, position) + char + key.slice(position + 1))).toBe(false)
    }), { numRuns: 2000 })
    fc.assert(fc.property(fc.integer({ min: 4, max: 40 }), (position) => {
      const key = generateApiKey()
      fc.pre(key.charAt(position) !== key.charAt(position + 1))
      const swapped = key.slice(0, position) + key.charAt(position + 1) + key.charAt(position) + key.slice(position + 2)
      expect(isWellFormedApiKey(swapped)).toBe(false)
    }), { numRuns: 1000 })
  })

  it('refuses wrong prefixes, lengths and characters', () => {
    const key = generateApiKey()
    for (const candidate of ['', 'cpk_', key.slice(0, -1), `${key}0`, key.replace('cpk_', 'cpx_'), key.toUpperCase(),
      `${key.slice(0, 10)}-${key.slice(11)}`, ` ${key}`]) {
      expect(isWellFormedApiKey(candidate), candidate).toBe(false)
    }
  })

  it('hashes with SHA-256 and keeps only a short prefix in clear', () => {
    const key = generateApiKey()
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashApiKey(key)).not.toContain(key.slice(4, 12).toLowerCase())
    expect(displayPrefix(key)).toBe(key.slice(0, 10))
  })
})

describe('scopes', () => {
  it('parses lists separated by commas or spaces, without duplicates', () => {
    expect(parseScopes('read:groups, read:news read:groups')).toEqual({ scopes: ['read:groups', 'read:news'] })
    expect(parseScopes('read:groups,write:groups')).toEqual({ error: expect.stringContaining('"write:groups"') as unknown })
    expect(parseScopes(' , ')).toEqual({ error: expect.stringContaining('at least one') as unknown })
  })
})

describe('club identity', () => {
  it.each(['tc-riverside', 'a', 'club2', 'x'.repeat(63)])('accepts the slug %s', (slug) => {
    expect(slugProblem(slug)).toBeUndefined()
  })
  it.each(['', 'TC', 'a--b', '-a', 'a-', 'a_b', 'a b', 'x'.repeat(64), 'é'])('refuses the slug "%s"', (slug) => {
    expect(slugProblem(slug)).toBeDefined()
  })
  it.each(['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+1'])('accepts the zone %s', (zone) => {
    expect(timezoneProblem(zone)).toBeUndefined()
  })
  it.each(['+01:00', 'CET1', 'Europe/Nowhere', '', 'berlin'])('refuses the zone "%s"', (zone) => {
    expect(timezoneProblem(zone)).toBeDefined()
  })
})

describe('configuration', () => {
  it('defaults to SQLite in ./data on port 3000', () => {
    const config = readConfig({})
    expect(config.port).toBe(3000)
    expect(config.database).toEqual({ kind: 'sqlite', file: expect.stringMatching(/data\/club-platform\.sqlite$/) as unknown })
  })

  it('selects PostgreSQL for a postgres URL', () => {
    expect(readConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/x' }).database).toEqual({ kind: 'postgres', url: 'postgresql://u:p@db:5432/x' })
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'], [{ PORT: '70000' }, 'PORT'], [{ DATABASE_URL: 'mysql://root:hunter2@db/x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('names the variable of a bad value: %o', (env, variable) => {
    expect(() => readConfig(env)).toThrow(ConfigError)
    expect(() => readConfig(env)).toThrow(new RegExp(`^${variable}=`))
    try {
      readConfig(env)
    } catch (error) {
      expect(String(error)).not.toContain('hunter2')
    }
  })

  it('hides URL passwords', () => {
    expect(redactUrl('postgres://club:s3cret@db:5432/x')).toBe('postgres://club:***@db:5432/x')
  })
})

describe('per-client limiter of the public endpoints', () => {
  it('keeps at most maxClients buckets, and forgets refilled ones', async () => {
    const { ClientRateLimiter } = await import('../src/http/client-rate-limit.js')
    const { ManualClock } = await import('../src/clock.js')
    const clock = new ManualClock(0)
    const limiter = new ClientRateLimiter({ capacity: 2, refillPerSecond: 1 }, clock, 100)
    for (let i = 0; i < 1_000; i++) limiter.consume(`198.51.100.${String(i)}`)
    expect(limiter.size).toBeLessThanOrEqual(100)
    limiter.consume('203.0.113.1')
    limiter.consume('203.0.113.1')
    expect(() => {
      limiter.consume('203.0.113.1')
    }).toThrow(/retry in 1 s/)
    clock.advance(10_000)
    for (let i = 0; i < 1_000; i++) limiter.consume(`192.0.2.${String(i)}`)
    expect(limiter.size).toBeLessThanOrEqual(100)
  })
})
