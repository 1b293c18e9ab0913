/**
 * An edit in the dashboard shows on every instance: a second server process (the real
 * dist/server.js) on the same PostgreSQL database, with Redis, has each list cached when an editor
 * changes a group, an event, a news item and a competition result through the first; its next
 * answers carry the change. The change reaches it by the database's notification (docs/operations.md,
 * "Response cache and change tracking"), which arrives within moments of the commit: the test
 * allows it one second.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { describePostgres, createTestDatabase } from '../helpers/databases.js'
import type { TestDatabase } from '../helpers/databases.js'
import { asSession, ORIGIN, signedIn } from '../helpers/dashboard.js'
import { startHarness } from '../helpers/harness.js'
import type { Harness } from '../helpers/harness.js'
import { storeSetup } from '../helpers/limiters.js'
import type { StoreSetup } from '../helpers/limiters.js'
import { startServer, stopServer } from '../helpers/server-process.js'
import type { StartedServer } from '../helpers/server-process.js'

describePostgres('content edits seen by another server process', () => {
  let database: TestDatabase
  let redis: StoreSetup
  let h: Harness & { close(): Promise<void> }
  let other: StartedServer
  let editor: ReturnType<typeof asSession>
  let key = ''

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    redis = storeSetup(inject('redisUrl') === null ? 'memory' : 'redis')
    h = await startHarness('postgres', { database, env: { ...redis.env, PUBLIC_URL: `${ORIGIN}/` } })
    const club = await h.createClub('twin')
    key = (await h.createKey(club.id)).key
    editor = asSession(h, await signedIn(h, club.id, 'eddie@example.org', 'editor'))
    other = await startServer({ ...database.env, ...redis.env })
  }, 60_000)
  afterAll(async () => {
    await stopServer(other)
    await h.close()
    await database.drop()
    await redis.cleanUp()
  })

  /** The list as the other process answers it. */
  const fromOther = async (path: string) => {
    const response = await fetch(`${other.url}/api/v1/${path}`, { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    return ((await response.json()) as { data: Record<string, unknown>[] }).data
  }
  /** Reads the list twice on the other process (the second answer from its cache), edits, and waits for the change there. */
  const editShows = async (path: string, edit: () => Promise<void>, expected: (data: Record<string, unknown>[]) => boolean) => {
    await fromOther(path)
    expect(expected(await fromOther(path)), `${path} before the edit`).toBe(false)
    await edit()
    await expect.poll(async () => expected(await fromOther(path)), { timeout: 1_000, interval: 10 }).toBe(true)
  }
  const ok = async <T>(response: Promise<{ status: number, body: string, json<U>(): U }>, status: number): Promise<T> => {
    const answered = await response
    expect(answered.status, answered.body).toBe(status)
    return answered.json<T>()
  }

  it('shows a new group, its new name and its deactivation', async () => {
    let id = ''
    await editShows('groups', async () => {
      id = (await ok<{ id: string }>(editor('POST', '/api/admin/v1/clubs/twin/groups', { name: 'Juniors', sport: 'tennis' }), 201)).id
    }, (data) => data.some((group) => group.name === 'Juniors'))
    await editShows('groups', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/groups/${id}`, { name: 'Juniors A', sport: 'tennis', version: 1 }), 200)
    }, (data) => data.some((group) => group.name === 'Juniors A'))
    await editShows('groups', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/groups/${id}`, { name: 'Juniors A', sport: 'tennis', active: false, version: 2 }),
        200)
    }, (data) => data.length === 0)
  })

  it('shows an event once it is released for public booking', async () => {
    const event = { title: 'Open day', starts_at: '2027-05-01T10:00:00+02:00' }
    const { id } = await ok<{ id: string }>(editor('POST', '/api/admin/v1/clubs/twin/events', event), 201)
    await editShows('events', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/events/${id}`, { ...event, public_booking: true, version: 1 }), 200)
    }, (data) => data.some((item) => item.id === id))
  })

  it('shows a news item published, and no longer once unpublished', async () => {
    const item = { title: 'Club night', content: 'Friday.' }
    const { id } = await ok<{ id: string }>(editor('POST', '/api/admin/v1/clubs/twin/news', item), 201)
    await editShows('news', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/news/${id}`, { ...item, published_at: 'now', version: 1 }), 200)
    }, (data) => data.some((news) => news.id === id))
    await editShows('news', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/news/${id}`, { ...item, published_at: null, version: 2 }), 200)
    }, (data) => data.length === 0)
  })

  it('shows competition results from a CSV file, and a result changed', async () => {
    await ok(editor('POST', '/api/admin/v1/clubs/twin/members', { name: 'Mia', email: 'mia@example.org' }), 201)
    await ok(editor('POST', '/api/admin/v1/clubs/twin/groups', { name: 'Seniors', sport: 'tennis' }), 201)
    await editShows('competition-results', async () => {
      await ok(editor('POST', '/api/admin/v1/clubs/twin/competition-results/csv',
        { csv: 'member,group,competition_name,placement\nmia@example.org,Seniors,Spring cup,1' }), 200)
    }, (data) => data.length === 1)
    const [result] = await fromOther('competition-results')
    await editShows('competition-results', async () => {
      await ok(editor('PUT', `/api/admin/v1/clubs/twin/competition-results/${String(result?.id)}`, { member_id: result?.member_id,
        group_id: result?.group_id, competition_name: 'Spring cup', placement: '2', version: 1 }), 200)
    }, (data) => data[0]?.placement === '2')
  })
})
