import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shiftedClock, systemClock } from '../../src/clock.js'
import { ConfigError, readConfig, redactUrl } from '../../src/config.js'
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/domain/api-key.js'
import { slugProblem, timezoneProblem } from '../../src/domain/club.js'
import { parseScopes } from '../../src/domain/scopes.js'
import { renderBookingConfirmation } from '../../src/mail/booking-mail.js'
import { DEFAULT_OPENING_HOURS, WEEKDAYS, daySlots, localDatesOf, slotsCovering } from '../../src/domain/slots.js'
import type { CourtGrid } from '../../src/domain/slots.js'
import { addDays, formatInZone, formatLocalDate, isoWeekday, localDateOf, localToInstant, offsetAt, parseLocalDate }
  from '../../src/domain/zoned-time.js'

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
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'], [{ CLOCK_OFFSET_SECONDS: '1.5' }, 'CLOCK_OFFSET_SECONDS'],
    [{ CLOCK_OFFSET_SECONDS: '999999999' }, 'CLOCK_OFFSET_SECONDS'], [{ CLOCK_OFFSET_SECONDS: 'tomorrow' }, 'CLOCK_OFFSET_SECONDS'],
  ])('names the variable of a bad value: %o', (env, variable) => {
    expect(() => readConfig(env)).toThrow(ConfigError)
    expect(() => readConfig(env)).toThrow(new RegExp(`^${variable}=`))
    try {
      readConfig(env)
    } catch (error) {
      expect(String(error)).not.toContain('hunter2')
    }
  })

  it('moves the service\'s clock by CLOCK_OFFSET_SECONDS, either way, and not at all by default', () => {
    expect(readConfig({}).clockOffsetMs).toBe(0)
    expect(readConfig({ CLOCK_OFFSET_SECONDS: '172800' }).clockOffsetMs).toBe(172_800_000)
    expect(readConfig({ CLOCK_OFFSET_SECONDS: '-60' }).clockOffsetMs).toBe(-60_000)
    const shifted = shiftedClock(86_400_000)
    const before = Date.now()
    const now = shifted.now()
    expect(now - 86_400_000).toBeGreaterThanOrEqual(before)
    expect(now - 86_400_000).toBeLessThanOrEqual(Date.now())
    expect(shiftedClock(0)).toBe(systemClock)
  })

  it('hides URL passwords', () => {
    expect(redactUrl('postgres://club:s3cret@db:5432/x')).toBe('postgres://club:***@db:5432/x')
  })
})

describe('per-client limiter of the public endpoints', () => {
  it('keeps at most maxClients buckets, and forgets refilled ones', async () => {
    const { ClientRateLimiter } = await import('../../src/http/client-rate-limit.js')
    const { ManualClock } = await import('../../src/clock.js')
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

describe('zoned time in any year', () => {
  it.each([
    ['0001-01-01', 1], ['0050-06-15', 3], ['0099-12-31', 4], ['0000-03-01', 3], ['2026-06-15', 1], ['9999-12-31', 5],
  ])('reads %s as that date (ISO weekday %i), not one of the 1900s', (date, weekday) => {
    expect(formatLocalDate(parseLocalDate(date))).toBe(date)
    expect(isoWeekday(date)).toBe(weekday)
    expect(localToInstant(date, 8 * 60, 'UTC')).toBe(Date.parse(`${date}T08:00:00Z`))
    expect(localDateOf(localToInstant(date, 12 * 60, 'Europe/Berlin'), 'Europe/Berlin')).toBe(date)
  })

  it('counts days across the years 99 and 100', () => {
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01')
    expect(addDays('0100-03-01', -1)).toBe('0100-02-28')
    expect(daySlots({ slotMinutes: 60, openingHours: DEFAULT_OPENING_HOURS }, '0050-06-01', 'UTC')[0])
      .toEqual({ start: Date.parse('0050-06-01T08:00:00Z'), end: Date.parse('0050-06-01T09:00:00Z') })
  })

  it('knows offsets with seconds, and formats them as a whole-minute RFC 3339 offset naming the exact instant', () => {
    // Liberia kept -00:44:30 until 1972.
    const eight = localToInstant('1960-06-01', 8 * 60, 'Africa/Monrovia')
    expect(eight).toBe(Date.parse('1960-06-01T08:44:30Z'))
    expect(offsetAt(eight, 'Africa/Monrovia')).toBe(-(44 * 60 + 30) * 1000)
    const text = formatInZone(eight, 'Africa/Monrovia')
    expect(text).toMatch(RFC_3339)
    expect(Date.parse(text)).toBe(eight)
  })

  it('formats every instant of every zone as RFC 3339 that parses back to it', () => {
    const zones = ['Africa/Monrovia', 'Europe/Amsterdam', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Berlin',
      'Asia/Kathmandu', 'America/Santiago', 'UTC']
    const instants = fc.integer({ min: Date.UTC(1850, 0), max: Date.UTC(2150, 0) })
    fc.assert(fc.property(fc.constantFrom(...zones), instants, (zone, at) => {
      const instant = Math.floor(at / 1000) * 1000
      const text = formatInZone(instant, zone)
      expect(text).toMatch(RFC_3339)
      expect(Date.parse(text)).toBe(instant)
    }), { numRuns: 3000 })
  })

  it('has whole-minute offsets in every zone from 2000 through 2099, the dates the listing accepts', () => {
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      for (let year = 2000; year <= 2099; year += 1) {
        for (const month of [0, 6]) {
          expect(offsetAt(Date.UTC(year, month, 1), zone) % 60_000 === 0, `${zone} ${String(year)}`).toBe(true)
        }
      }
    }
  })
})

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/

describe('the slots a booking covers', () => {
  const allDay = { slotMinutes: 60, openingHours: Object.fromEntries(WEEKDAYS.map((day) => [day, { open: '00:00', close: '24:00' }])) }
  const daytime = { slotMinutes: 60, openingHours: DEFAULT_OPENING_HOURS }
  // Tuesday open until midnight, Wednesday from 08:00, Friday until midnight, Saturday closed.
  const late = { slotMinutes: 60, openingHours: { tue: { open: '08:00', close: '24:00' }, wed: { open: '08:00', close: '22:00' },
    fri: { open: '08:00', close: '24:00' } } }
  const berlin = (text: string) => Date.parse(text)
  const cover = (court: CourtGrid, start: string, end: string, limit = 2, zone = 'Europe/Berlin') =>
    slotsCovering(court, { start: berlin(start), end: berlin(end) }, zone, limit)
  const starts = (coverage: ReturnType<typeof slotsCovering>, zone = 'Europe/Berlin') =>
    coverage.kind === 'slots' ? coverage.slots.map((slot) => formatInZone(slot.start, zone)) : coverage

  it('covers contiguous slots of each day\'s grid across midnight', () => {
    expect(starts(cover(allDay, '2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00')))
      .toEqual(['2026-06-16T23:00:00+02:00', '2026-06-17T00:00:00+02:00'])
    expect(starts(cover(late, '2026-06-16T22:00:00+02:00', '2026-06-17T00:00:00+02:00')))
      .toEqual(['2026-06-16T22:00:00+02:00', '2026-06-16T23:00:00+02:00'])
  })

  it('crosses midnight into the days on which the clocks change', () => {
    expect(starts(cover(allDay, '2026-10-24T23:00:00+02:00', '2026-10-25T01:00:00+02:00')))
      .toEqual(['2026-10-24T23:00:00+02:00', '2026-10-25T00:00:00+02:00'])
    expect(starts(cover(allDay, '2027-03-27T23:00:00+01:00', '2027-03-28T03:00:00+02:00', 3)))
      .toEqual(['2027-03-27T23:00:00+01:00', '2027-03-28T00:00:00+01:00', '2027-03-28T01:00:00+01:00'])
    // Chile moves its clocks at midnight: Saturday's 24:00 is Sunday's 01:00, where Sunday's grid begins.
    expect(starts(cover(allDay, '2026-09-05T23:00:00-04:00', '2026-09-06T02:00:00-03:00', 2, 'America/Santiago'), 'America/Santiago'))
      .toEqual(['2026-09-05T23:00:00-04:00', '2026-09-06T01:00:00-03:00'])
  })

  it('says which rule a booking breaks', () => {
    expect(cover(daytime, '2026-06-16T21:00:00+02:00', '2026-06-16T23:00:00+02:00'))
      .toEqual({ kind: 'outside-hours', date: '2026-06-16', hours: { open: '08:00', close: '22:00' } })
    expect(cover(late, '2026-06-16T06:00:00+02:00', '2026-06-16T07:00:00+02:00'))
      .toEqual({ kind: 'outside-hours', date: '2026-06-16', hours: { open: '08:00', close: '24:00' } })
    expect(cover(late, '2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00')).toEqual({ kind: 'outside-hours-after-midnight',
      date: '2026-06-16', next: '2026-06-17', hours: { open: '08:00', close: '22:00' } })
    expect(cover(late, '2026-06-19T23:00:00+02:00', '2026-06-20T01:00:00+02:00'))
      .toEqual({ kind: 'outside-hours-after-midnight', date: '2026-06-19', next: '2026-06-20', hours: undefined })
    expect(cover(late, '2026-06-20T10:00:00+02:00', '2026-06-20T11:00:00+02:00')).toEqual({ kind: 'closed', date: '2026-06-20' })
    expect(cover(allDay, '2026-06-16T23:00:00+02:00', '2026-06-17T00:30:00+02:00'))
      .toEqual({ kind: 'off-grid', date: '2026-06-17', hours: { open: '00:00', close: '24:00' } })
    expect(cover(allDay, '2026-06-16T22:00:00+02:00', '2026-06-17T01:00:00+02:00')).toEqual({ kind: 'too-many', limit: 2, covered: 3 })
    expect(cover(allDay, '2026-06-16T22:00:00+02:00', '2099-01-01T00:00:00+01:00'))
      .toEqual({ kind: 'too-many', limit: 2, covered: undefined })
  })

  it('lists the local dates an interval touches, its end exclusive', () => {
    const dates = (start: string, end: string) => localDatesOf({ start: berlin(start), end: berlin(end) }, 'Europe/Berlin')
    expect(dates('2026-06-16T23:00:00+02:00', '2026-06-17T00:00:00+02:00')).toEqual(['2026-06-16'])
    expect(dates('2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00')).toEqual(['2026-06-16', '2026-06-17'])
    expect(dates('2026-06-16T00:00:00+02:00', '2026-06-19T00:00:01+02:00')).toEqual(['2026-06-16', '2026-06-17', '2026-06-18',
      '2026-06-19'])
  })
})

describe('the confirmation\'s time of day', () => {
  const render = (start: string, end: string) => renderBookingConfirmation({ bookingId: 'b', clubName: 'Club', timezone: 'Europe/Berlin',
    courtName: 'Court D', start: Date.parse(start), end: Date.parse(end), bookerName: 'Nora', bookerEmail: 'nora@example.org',
    language: 'en', notes: null, createdAt: 0, contactEmail: null, mailFrom: 'Club <bookings@club.example>',
    manage: { url: 'https://clubs.example/bookings/manage/cpm_x', cancelUntil: 0 } })
  // The dates as Intl writes them in British English on this Node.js (its ICU decides a comma after the weekday).
  const long = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric',
    timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))
  const short = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short',
    year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))

  it('ends a booking at 24:00 of its day, and names both dates of one across midnight', () => {
    expect(long('2026-06-16')).toMatch(/^Tuesday,? 16 June 2026$/)
    expect(render('2026-06-16T23:00:00+02:00', '2026-06-17T00:00:00+02:00').subject)
      .toBe(`Booking confirmed: Court D, ${short('2026-06-16')}, 23:00–24:00 — Club`)
    const across = render('2026-06-16T23:00:00+02:00', '2026-06-17T01:00:00+02:00')
    expect(across.subject).toBe(`Booking confirmed: Court D, ${short('2026-06-16')} 23:00 – ${short('2026-06-17')} 01:00 — Club`)
    expect(across.text).toContain(`When:       ${long('2026-06-16')} 23:00 – ${long('2026-06-17')} 01:00 (Central European Time)`)
    expect(render('2026-06-16T08:00:00+02:00', '2026-06-16T09:00:00+02:00').text)
      .toContain(`When:       ${long('2026-06-16')}, 08:00–09:00 (Central European Time)`)
  })
})
