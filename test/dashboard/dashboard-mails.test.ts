/**
 * The dashboard's mails to people: an invitation names the role it is for, as it is, from the
 * dashboard and from the command line; invitations are limited per address (across clubs) and per
 * club in 24 hours, and sign-in links per address in an hour and in 24 hours, as booking mails are —
 * a refused invitation is a 429 with Retry-After and mails nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cli } from '../helpers/cli.js'
import { ORIGIN, asSession, signedIn } from '../helpers/dashboard.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { TestSmtpServer } from '../helpers/smtp.js'

const HOUR = 3_600_000

describeEachDatabase('the dashboard\'s mails', (dialect) => {
  const smtp = new TestSmtpServer()
  let h: Harness & { close(): Promise<void> }
  let env: Record<string, string>
  let riverside: ReturnType<typeof asSession>
  let hillside: ReturnType<typeof asSession>

  beforeAll(async () => {
    await smtp.start()
    // Sessions that outlast the days the test moves through.
    h = await startHarness(dialect, { env: { SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`, INVITATIONS_PER_CLUB_PER_DAY: '6',
      SESSION_IDLE_HOURS: '720', SESSION_MAX_DAYS: '30' } })
    env = { ...h.database.env, SMTP_URL: smtp.url, PUBLIC_URL: `${ORIGIN}/`, INVITATIONS_PER_CLUB_PER_DAY: '6' }
    riverside = asSession(h, await signedIn(h, (await h.createClub('riverside')).id, 'olivia@example.org', 'owner'))
    hillside = asSession(h, await signedIn(h, (await h.createClub('hillside')).id, 'hugo@example.org', 'owner'))
  })
  afterAll(async () => {
    await h.close()
    await smtp.stop()
  })

  /** The mails delivered to `address` since `from` (an index into the SMTP server's mails). */
  const mailsTo = async (address: string, from = 0) => {
    await h.context.background.settled()
    while (await h.context.mail.runOnce() > 0);
    return smtp.received.slice(from).filter((mail) => mail.envelopeTo.includes(address))
  }
  const invite = (as: typeof riverside, club: string, email: string, role: string) =>
    as('POST', `/api/admin/v1/clubs/${club}/invitations`, { email, role })

  it('names each role as it is, from the dashboard and from the command line', async () => {
    for (const [email, role, words] of [['erin@example.org', 'editor', 'as an editor (news, events'],
      ['adam@example.org', 'admin', 'as an admin (API keys'], ['otto@example.org', 'owner', 'as an owner (everything']] as const) {
      expect((await invite(riverside, 'riverside', email, role)).status).toBe(204)
      const [mail] = await mailsTo(email)
      expect(mail?.parsed.subject).toBe(`Invitation: ${role} of Club riverside on Club Platform`)
      expect(mail?.parsed.text).toContain(`you have been invited to Club riverside on Club Platform ${words}`)
      expect(mail?.parsed.html).toContain(words)
    }
    const byCli = await cli(env, ['admins', 'invite', '--club', 'hillside', '--email', 'eddie@example.org', '--role', 'editor'], h.clock)
    expect(byCli.code, byCli.stderr).toBe(0)
    const [mail] = await mailsTo('eddie@example.org')
    expect(mail?.parsed.text).toContain('as an editor')
    expect(mail?.parsed.text).not.toMatch(/as an admin|as an owner/)
  })

  it('sends one address at most three invitations in 24 hours, from all clubs together, and says when the next may go', async () => {
    const before = smtp.received.length
    expect((await invite(riverside, 'riverside', 'pat@example.org', 'editor')).status).toBe(204)
    h.clock.advance(HOUR)
    expect((await invite(riverside, 'riverside', 'pat@example.org', 'editor')).status).toBe(204)
    expect((await invite(hillside, 'hillside', 'pat@example.org', 'admin')).status).toBe(204)
    for (const [as, club] of [[riverside, 'riverside'], [hillside, 'hillside']] as const) {
      const refused = await invite(as, club, 'pat@example.org', 'editor')
      expect(refused.status, refused.body).toBe(429)
      expect(refused.json<{ type: string, detail: string }>()).toMatchObject({ type: '/api/v1/problems/rate-limited',
        detail: 'pat@example.org was sent 3 invitations in the last 24 hours, the most allowed; try again later.' })
      // The first went out an hour ago: the next may go in 23 hours.
      expect(refused.headers['retry-after']).toBe(String(23 * 3600))
    }
    const byCli = await cli(env, ['admins', 'invite', '--club', 'hillside', '--email', 'Pat@Example.org'], h.clock)
    expect([byCli.code, byCli.stderr]).toEqual([1, expect.stringContaining('the most allowed') as unknown])
    expect(await mailsTo('pat@example.org', before)).toHaveLength(3)
    h.clock.advance(23 * HOUR)
    expect((await invite(hillside, 'hillside', 'pat@example.org', 'admin')).status).toBe(204)
    expect(await mailsTo('pat@example.org', before)).toHaveLength(4)
  })

  it('lets one club send at most its number of invitations in 24 hours', async () => {
    h.clock.advance(25 * HOUR)
    const before = smtp.received.length
    for (let i = 0; i < 6; i++) expect((await invite(riverside, 'riverside', `member${String(i)}@example.org`, 'editor')).status).toBe(204)
    const refused = await invite(riverside, 'riverside', 'member6@example.org', 'editor')
    expect(refused.status).toBe(429)
    expect(refused.json<{ detail: string }>().detail).toBe('The club sent 6 invitations in the last 24 hours, the most allowed; '
      + 'try again later.')
    expect(refused.headers['retry-after']).toBe(String(24 * 3600))
    // Another club is not held back by it.
    expect((await invite(hillside, 'hillside', 'member6@example.org', 'editor')).status).toBe(204)
    await mailsTo('member6@example.org')
    expect(smtp.received.slice(before).filter((mail) => mail.envelopeTo.some((to) => to.startsWith('member')))).toHaveLength(7)
  })

  it('sends one address at most five sign-in links an hour and ten in 24 hours, answering every request alike', async () => {
    h.clock.advance(25 * HOUR)
    const before = smtp.received.length
    const ask = () => h.request({ method: 'POST', url: '/api/admin/v1/sign-in/link', payload: { email: 'olivia@example.org' },
      headers: { origin: ORIGIN } })
    const answers = new Set<string>()
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < 6; i++) {
        const answer = await ask()
        expect(answer.status).toBe(202)
        answers.add(answer.body)
      }
      // The link is made after the answer (nothing about the address shows in its timing): within this hour, not the next.
      await h.context.background.settled()
      h.clock.advance(HOUR)
    }
    expect(answers.size).toBe(1)
    expect(await mailsTo('olivia@example.org', before)).toHaveLength(10)
    h.clock.advance(22 * HOUR)
    await ask()
    await h.context.background.settled()
    expect(await mailsTo('olivia@example.org', before)).toHaveLength(11)
  })
})
