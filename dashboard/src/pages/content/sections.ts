/** The sections of a club's content, in the order of its tabs; `data` (import and export) is for admins and owners. */
export const SECTIONS = ['news', 'events', 'groups', 'results', 'members', 'data'] as const
export type Section = (typeof SECTIONS)[number]
