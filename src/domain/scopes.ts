/** The scopes of the read API, one per endpoint (contract §5.5). */
export const SCOPES = ['read:groups', 'read:events', 'read:news', 'read:competition_results'] as const
export type Scope = (typeof SCOPES)[number]

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** Parses "read:groups,read:events" (commas or spaces); unknown or repeated scopes are errors. */
export function parseScopes(input: string): { scopes: Scope[] } | { error: string } {
  const parts = input.split(/[\s,]+/).filter((part) => part !== '')
  if (parts.length === 0) return { error: `at least one scope is required (${SCOPES.join(', ')})` }
  const scopes: Scope[] = []
  for (const part of parts) {
    if (!isScope(part)) return { error: `unknown scope "${part}"; known scopes: ${SCOPES.join(', ')}` }
    if (!scopes.includes(part)) scopes.push(part)
  }
  return { scopes }
}
