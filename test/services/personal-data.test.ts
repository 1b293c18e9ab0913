/**
 * Personal data has a lifetime: past bookings lose their guest's name, address and notes after the
 * club's retention period (checked in the database by SQL, not only through the API) while their
 * slot stays booked in the history; idempotency records expire after a day; and everything held
 * about one address can be exported and erased, at one club or at all, recorded in the audit log
 * without the address. The club's privacy notice is linked from the mail and the booking page.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sql } from 'kysely'
import { applyRetention } from '../../src/services/retention.js'
import { importClubData } from '../../src/services/import.js'
import { cli } from '../helpers/cli.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { idFor } from '../helpers/fixtures.js'
import { START, startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

const DAY = 86_400_000

interface PersonalData {
  bookings: { id: string, booker_name: string }[]
  mails: unknown[]
  idempotency_records: unknown[]
}
const LAKE_COURT = idFor('court:lake-privacy')
const at = (date: string, time: string) => `${date}T${time}:00+02:00`

describeEachDatabase('personal data', (dialect) => {
  let h: Harness & { close(): Promise<void> }
  let riverside = ''

  beforeAll(async () => {
    h = await startHarness(dialect, { env: { PUBLIC_URL: 'https://clubs.example', BOOKING_MAX_OPEN_PER_EMAIL: '20' } })
    riverside = (await setUpCourts(h, 'riverside')).clubId
    const lakeside = await h.createClub('lakeside')
    await importClubData(h.context.db, h.clock, lakeside.id, { courts: [{ id: LAKE_COURT, name: 'Lake court', booking_horizon_days: 30,
      opening_hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, { open: '00:00', close: '24:00' }])) }] })
  })
  afterAll(async () => {
    await h.close()
  })
  const book = async (club: string, start: string, end: string, email: string, key?: string) => {
    const response = await h.request({ method: 'POST', url: `/api/v1/public/${club}/courts/book`,
      headers: key === undefined ? {} : { 'idempotency-key': key },
      payload: { court_id: club === 'lakeside' ? LAKE_COURT : COURT.allDay, start_time: start, end_time: end,
        booker_name: 'Petra Private', booker_email: email, notes: 'Call me on 0151 2345678' } })
    expect(response.status, response.body).toBe(201)
    return response.json<{ booking_id: string }>().booking_id
  }
  /** The booking's row as the database holds it. */
  const row = (id: string) => h.context.db.selectFrom('bookings')
    .select(['booker_name', 'booker_email', 'notes', 'member_id', 'manage_token_hash', 'anonymised_at', 'status', 'starts_at'])
    .where('id', '=', id).executeTakeFirstOrThrow()
  const count = async (table: 'mail_outbox' | 'booking_requests', bookingId: string) => Number((await h.context.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n')).where('booking_id', '=', bookingId).executeTakeFirstOrThrow()).n)
  const slotStatus = async (date: string, time: string) => {
    const listing = await h.request({ url: `/api/v1/public/riverside/courts?date=${date}` })
    return listing.json<{ courts: { court_id: string, start_time: string, status: string }[] }>().courts
      .find((slot) => slot.court_id === COURT.allDay && slot.start_time === at(date, time))?.status
  }

  it('removes a past booking\'s guest data after the retention period, keeps its slot booked in the history', async () => {
    const id = await book('riverside', at(TUESDAY, '08:00'), at(TUESDAY, '09:00'), 'Petra@Example.org', 'retention-1')
    const end = Date.parse(at(TUESDAY, '09:00'))
    expect(await count('mail_outbox', id)).toBe(1)

    // A day later the idempotency record has expired; the booking keeps everything else.
    expect(await applyRetention(h.context.db, START + DAY + 1))
      .toMatchObject({ bookingsAnonymised: 0, idempotencyRecordsDeleted: 1 })
    expect(await count('booking_requests', id)).toBe(0)
    // Just before the 90 days after the end: nothing of the guest goes.
    expect((await applyRetention(h.context.db, end + 90 * DAY - 1)).bookingsAnonymised).toBe(0)
    expect(await row(id)).toMatchObject({ booker_name: 'Petra Private', booker_email: 'petra@example.org' })

    const report = await applyRetention(h.context.db, end + 90 * DAY + 1)
    expect(report.bookingsAnonymised).toBe(1)
    // By SQL, on the table itself: no name, address, notes or manage link; the times and the state stay.
    const raw = await sql<Record<string, unknown>>`select * from bookings where id = ${id}`.execute(h.context.db)
    expect(raw.rows).toHaveLength(1)
    expect(raw.rows[0]).toMatchObject({ booker_name: '', booker_email: '', notes: null, manage_token_hash: null, status: 'confirmed' })
    expect(JSON.stringify(raw.rows)).not.toMatch(/petra|0151/i)
    expect(await count('mail_outbox', id)).toBe(0)
    const mails = await sql<{ n: number | string }>`select count(*) as n from mail_outbox
      where lower(recipient_email) = 'petra@example.org'`.execute(h.context.db)
    expect(Number(mails.rows[0]?.n)).toBe(0)
    // The history still shows the slot as it was.
    h.clock.set(end + 90 * DAY + 1)
    try {
      expect(await slotStatus(TUESDAY, '08:00')).toBe('booked')
    } finally {
      h.clock.set(START)
    }
    // Running again changes nothing.
    expect((await applyRetention(h.context.db, end + 91 * DAY)).bookingsAnonymised).toBe(0)
  })

  it('keeps guest data for the club\'s own period, set from the command line', async () => {
    const id = await book('riverside', at(TUESDAY, '10:00'), at(TUESDAY, '11:00'), 'short@example.org')
    const env = h.database.env
    const rules = await cli(env, ['clubs', 'rules', '--club', 'riverside', '--retention-days', '7', '--json'])
    expect(rules.code, rules.stderr).toBe(0)
    expect(rules.json()).toMatchObject({ retention_days: 7 })
    try {
      const end = Date.parse(at(TUESDAY, '11:00'))
      await applyRetention(h.context.db, end + 7 * DAY - 1)
      expect((await row(id)).booker_email).toBe('short@example.org')
      await applyRetention(h.context.db, end + 7 * DAY + 1)
      expect((await row(id)).booker_email).toBe('')
    } finally {
      await cli(env, ['clubs', 'rules', '--club', 'riverside', '--retention-days', '90'])
    }
  })

  it('exports and erases everything about one address, at one club or at all, and audits it without the address', async () => {
    const address = 'erase.me@example.org'
    const near = await book('riverside', at(TUESDAY, '12:00'), at(TUESDAY, '13:00'), address, 'erase-1')
    const far = await book('riverside', at('2026-06-17', '12:00'), at('2026-06-17', '13:00'), 'Erase.Me@example.org')
    const lake = await book('lakeside', at(TUESDAY, '12:00'), at(TUESDAY, '13:00'), address)
    const env = h.database.env

    const exported = await cli(env, ['personal-data', 'export', '--email', 'ERASE.ME@example.org', '--club', 'riverside', '--json'],
      h.clock)
    expect(exported.code, exported.stderr).toBe(0)
    const data = exported.json<PersonalData>()
    expect(data.bookings.map((booking) => booking.id).sort()).toEqual([near, far].sort())
    expect(data.bookings[0]?.booker_name).toBe('Petra Private')
    expect(data.mails).toHaveLength(2)
    expect(data.idempotency_records).toHaveLength(1)
    const everywhere = await cli(env, ['personal-data', 'export', '--email', address, '--json'], h.clock)
    expect(everywhere.json<{ bookings: unknown[] }>().bookings).toHaveLength(3)

    const erased = await cli(env, ['personal-data', 'erase', '--email', address, '--club', 'riverside', '--json'], h.clock)
    expect(erased.code, erased.stderr).toBe(0)
    expect(erased.json()).toEqual({ bookings: 2, mails: 2, idempotency_records: 1, waiting_list_entries: 0,
      member_records_kept: 0 })
    for (const id of [near, far]) {
      // Upcoming bookings are cancelled (nobody holds them any more), and hold nothing of the guest.
      expect(await row(id)).toMatchObject({ booker_name: '', booker_email: '', notes: null, status: 'cancelled' })
      expect(await count('mail_outbox', id)).toBe(0)
      expect(await count('booking_requests', id)).toBe(0)
    }
    expect(await slotStatus(TUESDAY, '12:00')).toBe('available')
    // The other club's booking is untouched until the operator erases the address everywhere.
    expect((await row(lake)).booker_email).toBe(address)
    const all = await cli(env, ['personal-data', 'erase', '--email', address, '--json'], h.clock)
    expect(all.json()).toMatchObject({ bookings: 1 })
    expect((await row(lake)).booker_email).toBe('')
    const left = await cli(env, ['personal-data', 'export', '--email', address, '--json'], h.clock)
    expect(left.json()).toEqual({ bookings: [], mails: [], idempotency_records: [], waiting_list: [], members: [] })

    const audit = await h.context.db.selectFrom('audit_log').selectAll().where('action', 'like', 'personal_data.%').execute()
    expect(audit.map((entry) => [entry.action, entry.club_id])).toEqual(expect.arrayContaining([
      ['personal_data.exported', riverside], ['personal_data.exported', null], ['personal_data.erased', riverside],
      ['personal_data.erased', null]]))
    expect(JSON.stringify(audit)).not.toMatch(/erase\.me/i)
  })

  it('reports member records without removing them, and refuses a malformed address', async () => {
    const env = h.database.env
    const member = await cli(env, ['personal-data', 'erase', '--email', 'mara@example.org', '--club', 'riverside', '--json'], h.clock)
    expect(member.json()).toMatchObject({ member_records_kept: 1 })
    const refused = await cli(env, ['personal-data', 'export', '--email', 'not an address'], h.clock)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('--email: "not an address" is not an e-mail address')
  })

  it('links the club\'s privacy notice from the confirmation mail and the booking page', async () => {
    const env = h.database.env
    expect((await cli(env, ['clubs', 'rules', '--club', 'riverside', '--privacy-url', 'https://tc-riverside.example/privacy'])).code)
      .toBe(0)
    expect((await cli(env, ['clubs', 'rules', '--club', 'riverside', '--privacy-url', 'javascript:alert(1)'])).stderr)
      .toContain('--privacy-url: "javascript:alert(1)" is not a web address')
    try {
      const id = await book('riverside', at(TUESDAY, '14:00'), at(TUESDAY, '15:00'), 'notice@example.org')
      const mail = await h.context.db.selectFrom('mail_outbox').select(['text_body', 'html_body']).where('booking_id', '=', id)
        .executeTakeFirstOrThrow()
      expect(mail.text_body).toContain('How Club riverside handles your data: https://tc-riverside.example/privacy')
      expect(mail.html_body).toContain('<a href="https://tc-riverside.example/privacy">')
      const link = /https:\/\/clubs\.example(\/bookings\/manage\/cpm_[A-Za-z0-9_-]{43})/.exec(mail.text_body)?.[1] ?? ''
      const page = await h.app.inject({ url: link })
      expect(page.body).toContain('<a href="https://tc-riverside.example/privacy" rel="noreferrer">Privacy notice of the club</a>')
    } finally {
      await cli(env, ['clubs', 'rules', '--club', 'riverside', '--privacy-url', 'none'])
    }
  })
})
