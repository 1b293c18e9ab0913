/**
 * Sessions and memberships kept in the process (src/services/dashboard-sessions.ts): two servers on
 * one database, as two processes behind a balancer. What one of them ends or changes — a sign-out,
 * a role, a removal from the club — binds the other from its next request on (SQLite), or once the
 * database's notification has arrived and within a second at most (PostgreSQL); in steady use the
 * access check reads nothing; a session's last use is still written once a minute and its idle
 * limit and maximum age still end it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { changeRole, removeAdmin } from '../../src/services/admins.js'
import { OPERATOR } from '../../src/services/audit.js'
import { setUpCourts, TUESDAY } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { asSession, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'

describeEachDatabase('dashboard sessions kept in the process', (dialect) => {
  let first: Harness & { close(): Promise<void> }
  let second: Harness & { close(): Promise<void> }
  let clubId = ''
  const planner = `/api/admin/v1/clubs/keep-a/planner?date=${TUESDAY}`

  beforeAll(async () => {
    const env = { PUBLIC_URL: `${ORIGIN}/` }
    first = await startHarness(dialect, { env })
    second = await startHarness(dialect, { database: first.database, env })
    clubId = (await setUpCourts(first, 'keep-a')).clubId
  }, 60_000)

  afterAll(async () => {
    await second.close()
    await first.close()
  })

  /**
   * Both servers have seen every change committed so far: PostgreSQL's notification has arrived;
   * SQLite's counters, read once per turn of the event loop, are read again (the two servers share
   * this process, so a change of one can fall within the other's turn, which two processes cannot).
   */
  const settled = () => Promise.all([first, second].map((h) => h.context.changes.settle()))

  /** Statements the server ran while `action` did. */
  async function statementsOf(h: Harness, action: () => Promise<unknown>): Promise<string[]> {
    const before = h.queries.length
    await action()
    return h.queries.slice(before)
  }

  it('reads neither session nor membership in steady use, and still writes the last use once a minute', async () => {
    const cookie = await signedIn(first, clubId, 'steady@keep-a.example', 'admin')
    await settled()
    const me = asSession(second, cookie)
    expect((await me('GET', planner)).status).toBe(200)
    const steady = await statementsOf(second, async () => {
      for (let i = 0; i < 3; i++) expect((await me('GET', '/api/admin/v1/clubs/keep-a/booking-rules')).status).toBe(200)
    })
    expect(steady.filter((sql) => /admin_sessions|club_admins/.test(sql))).toEqual([])
    second.clock.advance(61_000)
    first.clock.advance(61_000)
    const touched = await statementsOf(second, () => me('GET', planner))
    expect(touched.filter((sql) => /update "admin_sessions" set "last_seen_at"/.test(sql))).toHaveLength(1)
  })

  it('refuses a session ended through the other server from its next request on', async () => {
    const cookie = await signedIn(first, clubId, 'leaving@keep-a.example', 'admin')
    expect((await asSession(second, cookie)('GET', planner)).status).toBe(200)
    expect((await asSession(second, cookie)('GET', planner)).status).toBe(200)
    expect((await asSession(first, cookie)('DELETE', '/api/admin/v1/me/sessions')).status).toBe(204)
    // The server that ended it refuses it at once, whatever the database's notifications do.
    expect((await asSession(first, cookie)('GET', planner)).status).toBe(401)
    await settled()
    expect((await asSession(second, cookie)('GET', planner)).status).toBe(401)
  })

  it('applies a role changed or a member removed through the other server', async () => {
    const cookie = await signedIn(first, clubId, 'changing@keep-a.example', 'admin')
    const me = asSession(second, cookie)
    const adminId = ((await me('GET', '/api/admin/v1/me')).json<{ admin_id: string }>()).admin_id
    expect((await me('GET', planner)).status).toBe(200)
    await changeRole(first.context.db, first.clock, { clubId, adminId, role: 'editor', actor: OPERATOR })
    await settled()
    expect((await me('GET', planner)).status).toBe(403)
    await changeRole(first.context.db, first.clock, { clubId, adminId, role: 'admin', actor: OPERATOR })
    await settled()
    expect((await me('GET', planner)).status).toBe(200)
    await removeAdmin(first.context.db, first.clock, { clubId, adminId, actor: OPERATOR })
    await settled()
    expect((await me('GET', planner)).status).toBe(404)
  })

  it('ends a kept session at its idle limit and its maximum age', async () => {
    const idle = await signedIn(first, clubId, 'idle@keep-a.example', 'admin')
    expect((await asSession(second, idle)('GET', planner)).status).toBe(200)
    for (const h of [first, second]) h.clock.advance(12 * 3_600_000)
    expect((await asSession(second, idle)('GET', planner)).status).toBe(401)
    const busy = await signedIn(first, clubId, 'busy@keep-a.example', 'admin')
    // Used every six hours for a week: never idle, then past its seven days.
    for (let hour = 0; hour < 7 * 24; hour += 6) {
      expect((await asSession(second, busy)('GET', planner)).status).toBe(200)
      for (const h of [first, second]) h.clock.advance(6 * 3_600_000)
    }
    expect((await asSession(second, busy)('GET', planner)).status).toBe(401)
  })
})
