/** Who is signed in (GET /me), loaded once and after signing in or out. */
import { api } from './api/client'
import type { Schemas } from './api/client'

export const session = $state<{ me: Schemas['Me'] | null, loaded: boolean }>({ me: null, loaded: false })

export async function loadSession(): Promise<void> {
  const { data } = await api.GET('/api/admin/v1/me')
  session.me = data ?? null
  session.loaded = true
}

export function roleIn(slug: string): 'owner' | 'admin' | undefined {
  return session.me?.clubs.find((club) => club.slug === slug)?.role
}
