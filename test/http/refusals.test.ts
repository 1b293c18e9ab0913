/**
 * Every refusal of the public booking and waiting-list endpoints (and the courts listing's), in each of
 * the six languages: a code (src/domain/refusals.ts), a `detail` and `invalid_params` reasons written
 * from the guest's texts in the language of Accept-Language (with Content-Language saying which), and a
 * text of the widget's for the code. A code without a translation, or a request that answers with
 * another code than its row's, fails here. Four codes cannot be caused from outside (a field repeated
 * in a JSON body, a value of no other kind, a database down, a fault of the service); their texts are
 * checked all the same.
 */
import fs from 'node:fs'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { GUEST_LANGUAGES, LOCALES } from '../../src/domain/languages.js'
import type { GuestLanguage } from '../../src/domain/languages.js'
import { fill } from '../../src/domain/messages.js'
import type { Text } from '../../src/domain/messages.js'
import { PUBLIC_REFUSAL_CODES } from '../../src/domain/refusals.js'
import type { PublicRefusalCode } from '../../src/domain/refusals.js'
import { GUEST_MESSAGES } from '../../src/i18n/guest/index.js'
import { OPERATOR } from '../../src/services/audit.js'
import { changeBookingRules } from '../../src/services/booking-rules.js'
import { importClubData } from '../../src/services/import.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { startHarness, useHarness } from '../helpers/harness.js'

const BOOK = '/api/v1/public/riverside/courts/book'
const WAIT = '/api/v1/public/riverside/courts/waitlist'
const LATE = idFor('court:late')
const at = (time: string, date = TUESDAY) => `${date}T${time}:00+02:00`

interface Problem { code: string, detail: string, invalid_params?: { name: string, code: string, reason: string }[] }

/** One request that is refused, and the code it is refused with. */
interface Case {
  readonly code: PublicRefusalCode
  readonly url?: string
  readonly method?: 'GET' | 'POST'
  readonly payload?: unknown
  readonly headers?: Record<string, string>
}

const booking = (overrides: Record<string, unknown> = {}) => ({ court_id: COURT.a, start_time: at('08:00'), end_time: at('09:00'),
  booker_name: 'Rita Refused', booker_email: 'rita@example.org', ...overrides })
const waiting = (overrides: Record<string, unknown> = {}) => ({ court_id: COURT.a, start_time: at('15:00'), end_time: at('16:00'),
  name: 'Wim Waiting', email: 'wim@example.org', ...overrides })

const CASES: readonly Case[] = [
  { code: 'required', payload: { ...booking(), court_id: undefined } },
  { code: 'blank', payload: booking({ booker_name: '  ' }) },
  { code: 'unknown_field', payload: booking({ price: 0 }) },
  { code: 'invalid_type', payload: booking({ booker_name: { first: 'Rita' } }) },
  { code: 'invalid_email', payload: booking({ booker_email: 'not-an-address' }) },
  { code: 'invalid_date_time', payload: booking({ start_time: 'tomorrow at eight' }) },
  { code: 'invalid_date', method: 'GET', url: '/api/v1/public/riverside/courts?date=16.06.2026' },
  { code: 'invalid_id', payload: booking({ court_id: 'court-1' }) },
  { code: 'too_long', payload: booking({ notes: 'x'.repeat(501) }) },
  { code: 'invalid_characters', payload: booking({ booker_name: 'Eve\r\nBcc: someone@example.org' }) },
  { code: 'out_of_range', method: 'GET', url: '/api/v1/public/riverside/courts?date=1999-12-31' },
  { code: 'court_unknown', payload: booking({ court_id: randomUUID() }) },
  { code: 'end_before_start', payload: booking({ start_time: at('09:00'), end_time: at('08:00') }) },
  { code: 'start_in_past', payload: booking({ start_time: at('08:00', '2026-06-15'), end_time: at('09:00', '2026-06-15') }) },
  { code: 'beyond_horizon', payload: booking({ start_time: at('08:00', '2026-06-30'), end_time: at('09:00', '2026-06-30') }) },
  { code: 'court_closed', payload: booking({ court_id: COURT.b, start_time: at('18:00', '2026-06-20'),
    end_time: at('18:30', '2026-06-20') }) },
  { code: 'outside_opening_hours', payload: booking({ start_time: at('06:00'), end_time: at('07:00') }) },
  { code: 'past_midnight', payload: booking({ court_id: LATE, start_time: at('23:00'), end_time: '2026-06-17T01:00:00+02:00' }) },
  { code: 'off_grid', payload: booking({ start_time: at('08:30'), end_time: at('09:30') }) },
  { code: 'too_many_slots', payload: booking({ start_time: at('08:00'), end_time: at('11:00') }) },
  { code: 'name_with_link', payload: booking({ booker_name: 'Visit www.spam.example' }) },
  { code: 'address_refused', payload: booking({ booker_email: 'full@example.org', start_time: at('14:00'), end_time: at('15:00') }) },
  { code: 'idempotency_key_invalid', payload: booking(), headers: { 'idempotency-key': 'a key with spaces' } },
  { code: 'idempotency_key_reused', payload: booking({ notes: 'Other notes' }), headers: { 'idempotency-key': 'used-once' } },
  { code: 'slot_booked', payload: booking({ start_time: at('15:00'), end_time: at('16:00') }) },
  { code: 'slot_reserved', payload: booking({ start_time: at('12:00'), end_time: at('13:00') }) },
  { code: 'slot_blocked', payload: booking({ start_time: at('10:00'), end_time: at('11:00') }) },
  { code: 'not_one_slot', url: WAIT, payload: waiting({ end_time: at('17:00') }) },
  { code: 'no_waiting_list', url: '/api/v1/public/quiet/courts/waitlist', payload: waiting({ court_id: idFor('court:quiet') }) },
  { code: 'slot_free', url: WAIT, payload: waiting({ start_time: at('16:00'), end_time: at('17:00') }) },
  { code: 'address_cannot_wait', url: WAIT, payload: waiting({ email: 'patient@example.org', start_time: at('10:00'),
    end_time: at('11:00') }) },
  { code: 'invalid_body', payload: '{ nope', headers: { 'content-type': 'application/json' } },
  { code: 'club_not_found', url: '/api/v1/public/nowhere/courts/book', payload: booking() },
  { code: 'payload_too_large', payload: booking({ notes: 'x'.repeat(20_000) }) },
  { code: 'unsupported_media_type', payload: 'court=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
]

/** The quiet club's one booking: a taken time there, which its guests cannot wait for (its list is off). */
const QUIET_BOOKING = { url: '/api/v1/public/quiet/courts/book', payload: { court_id: idFor('court:quiet'),
  start_time: at('15:00'), end_time: at('16:00'), booker_name: 'Quinn Quiet', booker_email: 'quinn@example.org' } }

/** Reached otherwise than by a request of this table: the rate limit (its own harness, below). */
const ELSEWHERE: readonly PublicRefusalCode[] = ['rate_limited']
/** Not to be caused from outside: their texts alone are checked. */
const UNREACHABLE: readonly PublicRefusalCode[] = ['repeated', 'invalid_value', 'service_unavailable', 'internal_error']

/** A text as a pattern its every rendering matches: each placeholder stands for anything, each plural form is allowed. */
function patternOf(text: Text): RegExp {
  const forms = typeof text === 'string' ? [text] : Object.values(text).filter((form) => typeof form === 'string')
  const escaped = forms.map((form) => form.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '.+'))
  return new RegExp(`^(?:${escaped.join('|')})$`)
}

const widgetTexts = (language: GuestLanguage) =>
  JSON.parse(fs.readFileSync(`widget/public/messages/${language}.json`, 'utf8')) as Record<string, Text>

describe('the guest\'s texts of every refusal', () => {
  it('cover every code the public endpoints answer with: a table row, its own harness, or a reason it cannot be caused', () => {
    const covered = [...CASES.map((row) => row.code), ...ELSEWHERE, ...UNREACHABLE].sort()
    expect(covered).toEqual([...PUBLIC_REFUSAL_CODES].sort())
  })

  for (const language of GUEST_LANGUAGES) {
    it(`say each code in ${language}, in the service's texts and the widget's`, () => {
      const widget = widgetTexts(language)
      const english = widgetTexts('en')
      for (const code of PUBLIC_REFUSAL_CODES) {
        const said = GUEST_MESSAGES[language].refusals[code]
        expect(fill(LOCALES[language], said, { field: 'x', count: 2, court: 'Court 1' }).trim(), `${language} ${code}`).not.toBe('')
        const text = widget[`r.${code}`]
        expect(text === undefined ? '' : fill(LOCALES[language], text, { count: 2 }).trim(), `widget ${language} r.${code}`)
          .not.toBe('')
        if (language !== 'en') {
          expect(said, `${language} ${code} is translated`).not.toEqual(GUEST_MESSAGES.en.refusals[code])
          expect(text, `widget ${language} r.${code} is translated`).not.toEqual(english[`r.${code}`])
        }
      }
    })
  }
})

describeEachDatabase('every refusal of the public endpoints, in six languages', (dialect) => {
  const harness = useHarness(dialect, async (h) => {
    const { clubId } = await setUpCourts(h, 'riverside')
    await importClubData(h.context.db, h.clock, clubId, { courts: [{ id: LATE, name: 'Late court', opening_hours: Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, { open: '08:00', close: '24:00' }])) }] })
    const quiet = await h.createClub('quiet')
    await importClubData(h.context.db, h.clock, quiet.id, { courts: [{ id: idFor('court:quiet'), name: 'Quiet court' }] })
    await changeBookingRules(h.context.db, h.clock, { clubId: quiet.id, actor: OPERATOR, rules: { waitingList: false } })
    const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
      const answer = await h.request({ method: 'POST', url, payload: payload as Record<string, unknown>, headers })
      expect(answer.status, answer.body).toBe(201)
    }
    // What the rows meet: a booked time, an address at its limit, a key used once, an address waiting as often as it may.
    await post(BOOK, booking({ start_time: at('15:00'), end_time: at('16:00'), booker_email: 'host@example.org' }))
    await post(QUIET_BOOKING.url, QUIET_BOOKING.payload)
    for (const hour of ['08', '09']) {
      await post(BOOK, booking({ court_id: COURT.allDay, booker_email: 'full@example.org', start_time: at(`${hour}:00`),
        end_time: at(`${String(Number(hour) + 1).padStart(2, '0')}:00`) }))
    }
    await post(BOOK, booking({ court_id: COURT.allDay, start_time: at('11:00'), end_time: at('12:00'), booker_email: 'once@example.org' }),
      { 'idempotency-key': 'used-once' })
    for (const [start, end] of [['15:00', '16:00'], ['12:00', '13:00']]) {
      await post(WAIT, waiting({ email: 'patient@example.org', start_time: at(start ?? ''), end_time: at(end ?? '') }))
    }
  })

  for (const row of CASES) {
    it(`answers ${row.code} with its code and the guest's words in each language`, async () => {
      const h = harness.current
      for (const language of GUEST_LANGUAGES) {
        const answer = await h.request({ method: row.method ?? 'POST', url: row.url ?? BOOK,
          headers: { ...row.headers, 'accept-language': `${LOCALES[language]},${language};q=0.9` },
          ...row.payload === undefined ? {} : { payload: row.payload as Record<string, unknown> } })
        expect(answer.status, `${language}: ${answer.body}`).toBeGreaterThanOrEqual(400)
        const problem = answer.json<Problem>()
        expect(problem.code, `${language}: ${answer.body}`).toBe(row.code)
        expect(answer.headers['content-language'], language).toBe(language)
        expect(problem.detail, language).toMatch(patternOf(GUEST_MESSAGES[language].refusals[row.code]))
        for (const param of problem.invalid_params ?? []) {
          expect(param.reason, `${language} ${param.name}`).toMatch(patternOf(GUEST_MESSAGES[language].refusals[param.code as
            PublicRefusalCode]))
        }
      }
    })
  }

  it('answers rate_limited in the guest\'s language, counting its seconds with the plural the language asks for', async () => {
    const limited = await startHarness(dialect, { database: harness.current.database,
      env: { BOOKING_RATE_CAPACITY: '1', BOOKING_RATE_PER_MINUTE: '1' } })
    try {
      await limited.request({ method: 'POST', url: BOOK, payload: booking({ court_id: randomUUID() }) })
      for (const language of GUEST_LANGUAGES) {
        const answer = await limited.request({ method: 'POST', url: BOOK, payload: booking(),
          headers: { 'accept-language': language } })
        expect([answer.status, answer.json<Problem>().code, answer.headers['content-language']]).toEqual([429, 'rate_limited', language])
        const seconds = Number(answer.headers['retry-after'])
        expect(answer.json<Problem>().detail).toBe(fill(LOCALES[language], GUEST_MESSAGES[language].refusals.rate_limited,
          { count: seconds }))
      }
    } finally {
      await limited.close()
    }
  })
})
