/** A signed-in dashboard session for API tests: an invitation accepted over HTTP, without a mail round trip. */
import { expect } from 'vitest'
import type { AdminRole } from '../../src/domain/admin-roles.js'
import { dashboardSettings } from '../../src/http/dashboard-access.js'
import { inviteAdmin } from '../../src/services/admins.js'
import { OPERATOR } from '../../src/services/audit.js'
import type { ApiResponse, Harness } from './harness.js'

export const ORIGIN = 'https://clubs.example'
export const COOKIE = '__Host-cp_session'

/** Invites `email` to the club with `role` and accepts it; returns the session cookie's value. */
export async function signedIn(h: Harness, clubId: string, email: string, role: AdminRole): Promise<string> {
  const { url } = await inviteAdmin(h.context.db, h.clock, dashboardSettings(h.context), { clubId, email, role, actor: OPERATOR })
  const token = new URL(url).hash.replace('#token=', '')
  const response = await h.request({ method: 'POST', url: '/api/admin/v1/invitations/accept', payload: { token },
    headers: { origin: ORIGIN } })
  expect(response.status, response.body).toBe(201)
  const header = [response.headers['set-cookie'] ?? []].flat().map(String).find((line) => line.startsWith(`${COOKIE}=`))
  const value = /^[^=]+=([^;]*)/.exec(header ?? '')?.[1]
  if (value === undefined || value === '') throw new Error(`no session cookie in ${response.body}`)
  return value
}

/** A dashboard API request with the session and the dashboard's own origin. */
export function asSession(h: Harness, cookie: string) {
  return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<ApiResponse> => h.request({
    method, url, headers: { origin: ORIGIN, cookie: `${COOKIE}=${cookie}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}
