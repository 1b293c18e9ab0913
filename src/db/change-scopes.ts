/**
 * The names the change feed (src/db/changes.ts) shares with the triggers the migrations created:
 * the PostgreSQL channel the triggers notify, and the scopes of the changes of API keys and of
 * dashboard access. A migration writes its own copy of a name (what it created stays as it was);
 * these must equal them.
 */

/** The PostgreSQL notification channel of every change (migration 0004). */
export const CHANGE_CHANNEL = 'club_platform_changes'

/** The scope every change of an API key is recorded against (migration 0012). */
export const KEY_SCOPE = 'api_keys'

/** The scope every change of a dashboard session or membership is recorded against (migration 0019). */
export const ACCESS_SCOPE = 'dashboard_access'
