/**
 * The key format, tested apart from its checksum: the alphabet and entropy of generated keys, and
 * keys of the wrong prefix, length or alphabet that carry a valid checksum.
 */
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { generateApiKey, isWellFormedApiKey } from '../../src/domain/api-key.js'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** The format's checksum, as documented: CRC-32 of everything before it, six base62 digits. */
function withChecksum(body: string): string {
  let value = crc32(body)
  let sum = ''
  for (let i = 0; i < 6; i++) {
    sum = BASE62.charAt(value % 62) + sum
    value = Math.floor(value / 62)
  }
  return body + sum
}

describe('generated keys', () => {
  const keys = Array.from({ length: 2_000 }, generateApiKey)

  it('use the whole base62 alphabet at every random position', () => {
    const all = new Set(keys.flatMap((key) => Array.from(key.slice(4, 36))))
    expect([...all].sort().join('')).toBe(Array.from(BASE62).sort().join(''))
    for (let position = 4; position < 36; position++) {
      const seen = new Set(keys.map((key) => key.charAt(position)))
      // 2,000 draws from 62 symbols miss one with probability ~62·e^(−32): every symbol appears.
      expect(seen.size, `position ${String(position)}`).toBeGreaterThanOrEqual(60)
    }
  })

  it('are close to uniform: no symbol more than twice as frequent as it should be', () => {
    const counts = new Map<string, number>()
    for (const key of keys) for (const char of key.slice(4, 36)) counts.set(char, (counts.get(char) ?? 0) + 1)
    const expected = (keys.length * 32) / 62
    for (const [char, n] of counts) {
      expect(n, char).toBeGreaterThan(expected / 2)
      expect(n, char).toBeLessThan(expected * 2)
    }
  })

  it('carry the checksum the format documents', () => {
    for (const key of keys.slice(0, 50)) expect(withChecksum(key.slice(0, -6))).toBe(key)
  })
})

describe('the shape check, apart from the checksum', () => {
  const random = (length: number) => Array.from({ length }, (_, i) => BASE62.charAt((i * 7 + 3) % 62)).join('')

  it('accepts a made-up key of the right shape and checksum', () => {
    expect(isWellFormedApiKey(withChecksum(`cpk_${random(32)}`))).toBe(true)
  })

  it('refuses a valid checksum on the wrong prefix, length or alphabet', () => {
    const cases = {
      'another prefix': withChecksum(`cpx_${random(32)}`),
      'no prefix': withChecksum(`cpk${random(33)}`),
      'upper-case prefix': withChecksum(`CPK_${random(32)}`),
      'one character short': withChecksum(`cpk_${random(31)}`),
      'one character long': withChecksum(`cpk_${random(33)}`),
      'a hyphen in the body': withChecksum(`cpk_${random(31)}-`),
      'an underscore in the body': withChecksum(`cpk_${random(31)}_`),
      'a non-ASCII letter': withChecksum(`cpk_${random(31)}é`),
      'a trailing newline': `${withChecksum(`cpk_${random(32)}`)}\n`,
      'a leading space': ` ${withChecksum(`cpk_${random(32)}`)}`,
    }
    for (const [name, candidate] of Object.entries(cases)) expect(isWellFormedApiKey(candidate), name).toBe(false)
  })
})
