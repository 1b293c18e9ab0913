/**
 * The names the change feed (src/db/changes.ts) shares with the triggers the migrations created:
 * the PostgreSQL channel the triggers notify, and the scope of the API keys' changes. A migration
 * writes its own copy of a name (what it created stays as it was); these must equal them.
 */

/** The PostgreSQL notification channel of every change (migration 0004). */
export const CHANGE_CHANNEL = 'club_platform_changes'

/** The scope every change of an API key is recorded against (migration 0012). */
export const KEY_SCOPE = 'api_keys'
