/**
 * The statements PostgreSQL prepares under a name (compiled.ts): the SQL texts compiled once, each
 * with its name, the same for every connection of the process.
 */
const names = new Map<string, string>()

/** Gives the statement a name, if it has none yet. */
export function namePrepared(sqlText: string): void {
  if (!names.has(sqlText)) names.set(sqlText, `club_platform_${String(names.size + 1)}`)
}

/** The name under which PostgreSQL prepares this statement, if it is one compiled once (the others run unnamed). */
export function preparedName(sqlText: string): string | undefined {
  return names.get(sqlText)
}
