/** The ETag of a body: also computed on the list reader threads, which load nothing of the HTTP layer. */
import { createHash } from 'node:crypto'

/** A strong ETag: the body's SHA-256 in base64url, its first 27 characters. */
export function etagOf(payload: string | Uint8Array): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`
}
