import { expect, it } from 'vitest'
import { importClubData } from '../../src/services/import.js'
import { COURT, TUESDAY, setUpCourts } from '../helpers/courts.js'
import { describeEachDatabase } from '../helpers/databases.js'
import { clubFixture } from '../helpers/fixtures.js'
import { START, useHarness } from '../helpers/harness.js'

describeEachDatabase('conditional requests', (dialect) => {
  let key = ''
  let clubId = ''
  const fixture = clubFixture('etag', START)
  const harness = useHarness(dialect, async (h) => {
    clubId = (await setUpCourts(h, 'etag')).clubId
    await importClubData(h.context.db, h.clock, clubId, fixture)
    key = (await h.createKey(clubId)).key
  }, { env: { RATE_LIMIT_CAPACITY: '1000', DAILY_QUOTA: '100000' } })
  const get = (url: string, etag?: string) =>
    harness.current.request({ url, key, headers: etag === undefined ? {} : { 'if-none-match': etag } })

  it('tags a list, answers 304 to its tag with the rate-limit headers, and counts it as a call', async () => {
    const first = await get('/api/v1/groups')
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(first.headers['cache-control']).toBe('private, no-cache')
    expect(first.headers.vary).toBe('Authorization')
    const again = await get('/api/v1/groups', etag)
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.etag).toBe(etag)
    expect(Number(again.headers['x-ratelimit-day-remaining'])).toBe(Number(first.headers['x-ratelimit-day-remaining']) - 1)
    expect((await get('/api/v1/groups', `W/${etag}`)).status).toBe(304)
    expect((await get('/api/v1/groups', `"other", ${etag}`)).status).toBe(304)
    expect((await get('/api/v1/groups', '"other"')).status).toBe(200)
    expect((await get('/api/v1/groups?limit=2')).headers.etag).not.toBe(etag)
  })

  it('changes the tag when the listed data changes', async () => {
    const before = String((await get('/api/v1/groups')).headers.etag)
    const group = fixture.groups[0]
    await importClubData(harness.current.context.db, harness.current.clock, clubId, { groups: [{ ...group, name: 'Renamed for ETag' }] })
    // This process wrote it: on PostgreSQL, wait for the notification that another process would get first.
    await harness.current.context.changes.settle()
    const after = await get('/api/v1/groups', before)
    expect(after.status).toBe(200)
    expect(after.headers.etag).not.toBe(before)
  })

  it('changes the news tag when a scheduled item comes due', async () => {
    const before = String((await get('/api/v1/news')).headers.etag)
    harness.current.clock.advance(60_000)
    try {
      const after = await get('/api/v1/news', before)
      expect(after.status).toBe(200)
      expect(after.json<{ data: { title: string }[] }>().data.map((item) => item.title)).toContain('Scheduled')
    } finally {
      harness.current.clock.set(START)
    }
  })

  it('tags the public courts listing briefly cacheable, and changes the tag with a booking', async () => {
    const url = `/api/v1/public/etag/courts?date=${TUESDAY}`
    const first = await harness.current.request({ url })
    expect(first.headers['cache-control']).toBe('public, max-age=10')
    const etag = String(first.headers.etag)
    expect((await harness.current.request({ url, headers: { 'if-none-match': etag } })).status).toBe(304)
    const booked = await harness.current.request({ method: 'POST', url: '/api/v1/public/etag/courts/book', payload: {
      court_id: COURT.a, start_time: `${TUESDAY}T20:00:00+02:00`, end_time: `${TUESDAY}T21:00:00+02:00`, booker_name: 'E',
      booker_email: 'e@example.org' } })
    expect(booked.status).toBe(201)
    expect((await harness.current.request({ url, headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  it('never answers 304 to an error', async () => {
    const bad = await harness.current.request({ url: '/api/v1/groups?limit=0', key, headers: { 'if-none-match': '*' } })
    expect(bad.status).toBe(400)
    expect(bad.headers.etag).toBeUndefined()
  })
})
