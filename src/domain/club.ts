/** Rules for club identity, shared by the command line and the import. */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const MAX_SLUG_LENGTH = 63

export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0 || slug.length > MAX_SLUG_LENGTH || !SLUG.test(slug)) {
    return `"${slug}" is not a valid slug: use 1–${MAX_SLUG_LENGTH} lower-case letters, digits and single hyphens (e.g. tc-riverside)`
  }
  return undefined
}

/** An IANA zone name the runtime knows (e.g. Europe/Berlin); fixed offsets such as "+01:00" are refused. */
export function timezoneProblem(timezone: string): string | undefined {
  const named = timezone === 'UTC' || /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+$/.test(timezone)
  if (named) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: timezone })
      return undefined
    } catch {
      // fall through
    }
  }
  return `"${timezone}" is not an IANA time zone name (e.g. Europe/Berlin)`
}
