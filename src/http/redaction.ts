/**
 * Nothing shaped like an API key (or a dashboard token) leaves the service in an answer or a log line, wherever a client
 * put it (a path segment, a query parameter's name, a header that ends up in a message). The match
 * is generous: the prefix in any case, also percent-encoded, followed by anything key-like, valid
 * checksum or not — a key with one typo is still nearly a secret.
 */
const KEY_LIKE = /cpk(?:_|%5f)[0-9a-z_-]*/gi
const MAY_HOLD_KEY = /cpk(?:_|%5f)/i
export const REDACTED_KEY = 'cpk_[redacted]'
/**
 * The other secrets handed out: sign-in links (`cpl_`), invitations (`cpi_`), sessions (`cps_`),
 * guests' booking links (`cpm_`), private calendar feeds' addresses (`cpf_`) and waiting list entries' stop links
 * (`cpw_`); see src/domain/secret-token.ts.
 */
const TOKEN_LIKE = /(cp[lismfw])(?:_|%5f)[0-9a-z_-]*/gi
const MAY_HOLD_TOKEN = /cp[lismfw](?:_|%5f)/i

export function redactKeys(text: string): string {
  const keysRedacted = MAY_HOLD_KEY.test(text) ? text.replace(KEY_LIKE, REDACTED_KEY) : text
  return MAY_HOLD_TOKEN.test(keysRedacted) ? keysRedacted.replace(TOKEN_LIKE, '$1_[redacted]') : keysRedacted
}

export interface LogDestination {
  write(line: string): void
}

/** A log destination that redacts key-shaped text from each line before writing it. */
export function redactingDestination(destination: { write(line: string): unknown }): LogDestination {
  return {
    write(line) {
      destination.write(redactKeys(line))
    },
  }
}
