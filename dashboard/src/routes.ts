/**
 * The dashboard's pages: where each one is, which component shows it, who may open it and the header's link to it.
 * `App.svelte` shows the page the address names from these tables; a new page is a component and a row here.
 */
import type { Component } from 'svelte'
import type { MessageKey } from './i18n.svelte'
import Account from './pages/Account.svelte'
import Bookings from './pages/Bookings.svelte'
import Clubs from './pages/Clubs.svelte'
import Content from './pages/Content.svelte'
import type { Section } from './pages/content/sections'
import Courts from './pages/Courts.svelte'
import DeveloperAccess from './pages/DeveloperAccess.svelte'
import Landing from './pages/Landing.svelte'
import Planner from './pages/Planner.svelte'
import Team from './pages/Team.svelte'
import Utilisation from './pages/Utilisation.svelte'
import Website from './pages/Website.svelte'
import type { Role } from './session.svelte'

/** A page outside the clubs, at its own address. */
export interface Page {
  readonly path: string
  /** `anyone`: shown before the session is known (the pages the mailed links open); `signed-in`: for a signed-in person. */
  readonly access: 'anyone' | 'signed-in'
  readonly component: Component
}

export const PAGES: readonly Page[] = [
  { path: '/sign-in', access: 'anyone', component: Landing },
  { path: '/invitation', access: 'anyone', component: Landing },
  { path: '/account', access: 'signed-in', component: Account },
  { path: '/', access: 'signed-in', component: Clubs },
]

/** What a club's page is given: the club, and the last part of its address (the content's section; the first when none). */
export interface ClubPageProps {
  readonly slug: string
  readonly section: Section
}

/** A page of a club the person administers, at `/clubs/<slug>/<name>` (and `/clubs/<slug>/<name>/<section>`). */
export interface ClubPage {
  readonly name: string
  readonly component: Component<ClubPageProps>
  /** The roles that may open it; to the others its address says that it is beyond their role. */
  readonly opens: readonly Role[]
  /** The roles whose header links to it (the team page opens for admins, who see the service's refusal). */
  readonly listed: readonly Role[]
  /** The text of the header's link. */
  readonly label: MessageKey
  /** Where the header links to, after `/clubs/<slug>/`, when not to the name itself. */
  readonly link?: string
}

const ADMINS: readonly Role[] = ['admin', 'owner']
const EVERYONE: readonly Role[] = ['editor', 'admin', 'owner']

/** In the order of the header's links. */
export const CLUB_PAGES: readonly ClubPage[] = [
  { name: 'developer-access', component: DeveloperAccess, opens: ADMINS, listed: ADMINS, label: 'nav.developer' },
  { name: 'planner', component: Planner, opens: ADMINS, listed: ADMINS, label: 'nav.planner' },
  { name: 'bookings', component: Bookings, opens: ADMINS, listed: ADMINS, label: 'nav.bookings' },
  { name: 'utilisation', component: Utilisation, opens: ADMINS, listed: ADMINS, label: 'nav.utilisation' },
  { name: 'courts', component: Courts, opens: ADMINS, listed: ADMINS, label: 'nav.courts' },
  { name: 'website', component: Website, opens: ADMINS, listed: ADMINS, label: 'nav.website' },
  { name: 'content', component: Content, opens: EVERYONE, listed: EVERYONE, label: 'nav.content', link: 'content/news' },
  { name: 'team', component: Team, opens: ADMINS, listed: ['owner'], label: 'nav.team' },
]

/** The club page an address names: the table's row, the club's slug and the section; undefined for any other address. */
export function clubPageAt(path: string): { page: ClubPage, slug: string, section: string | undefined } | undefined {
  const match = /^\/clubs\/([^/]+)\/([a-z-]+)(?:\/([a-z]+))?$/.exec(path)
  const page = CLUB_PAGES.find((row) => row.name === match?.[2])
  if (match === null || page === undefined) return undefined
  return { page, slug: decodeURIComponent(match[1] ?? ''), section: match[3] }
}
