/**
 * The authenticated list endpoints, in the order the API documents them: the path, its segment after `/api/v1/`, the
 * scope that reads it, its listing (the table and the change feed's area), the index its query reads in order, and the
 * schema of its envelope. Extend it with a new list endpoint (CONTRIBUTING.md, "Adding an authenticated list endpoint").
 */
export const LIST_ENDPOINTS = [
  { path: '/api/v1/groups', segment: 'groups', scope: 'read:groups', listing: 'groups', index: 'groups_listing_idx',
    envelope: 'GroupList' },
  { path: '/api/v1/events', segment: 'events', scope: 'read:events', listing: 'events', index: 'events_listing_idx',
    envelope: 'EventList' },
  { path: '/api/v1/news', segment: 'news', scope: 'read:news', listing: 'news', index: 'news_listing_idx', envelope: 'NewsList' },
  { path: '/api/v1/competition-results', segment: 'competition-results', scope: 'read:competition_results',
    listing: 'competition_results', index: 'competition_results_listing_idx', envelope: 'CompetitionResultList' },
] as const

export type ListEndpoint = (typeof LIST_ENDPOINTS)[number]

/** The endpoints' paths, in the table's order. */
export const LIST_PATHS = LIST_ENDPOINTS.map((endpoint) => endpoint.path)

/** The scopes that read them, in the table's order. */
export const LIST_SCOPES = LIST_ENDPOINTS.map((endpoint) => endpoint.scope)
