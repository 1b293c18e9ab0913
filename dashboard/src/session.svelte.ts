/** Who is signed in (GET /me), loaded once and after signing in or out. */
import { api } from './api/client'
import type { Schemas } from './api/client'

export const session = $state<{ me: Schemas['Me'] | null, loaded: boolean }>({ me: null, loaded: false })

export async function loadSession(): Promise<void> {
  const { data } = await api.GET('/api/admin/v1/me')
  session.me = data ?? null
  session.loaded = true
}

export type Role = Schemas['ClubMembership']['role']

export function roleIn(slug: string): Role | undefined {
  return session.me?.clubs.find((club) => club.slug === slug)?.role
}

/** Where a club's dashboard opens: developer access, or the content for an editor (who has no other pages). */
export function clubHome(club: { readonly slug: string, readonly role: Role }): string {
  return `/clubs/${club.slug}/${club.role === 'editor' ? 'content/news' : 'developer-access'}`
}

/** The club's time zone, in which its content's times are shown and entered. */
export function timeZoneOf(slug: string): string {
  return session.me?.clubs.find((club) => club.slug === slug)?.timezone ?? 'UTC'
}
