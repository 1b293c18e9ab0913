/**
 * Serialised answers of the read endpoints, kept until what they were read from changes. An entry
 * is served only while its scope's version (src/db/changes.ts) is the one it was read under and
 * the clock is before its `validUntil` (news scheduled for later appears at that moment), so the
 * cache can never answer with data that has changed; it only saves the queries and serialisation
 * of answers that have not.
 *
 * Bounded by the bytes of the bodies it holds; when full, the oldest entries go first. Bodies are
 * kept as strings: they live in the garbage-collected heap, which compacts, where a churn of
 * Buffers of every size fragments the native heap and the process keeps the pages. An entry served
 * a second time keeps its UTF-8 bytes as well (counted in the bound): a socket takes a Buffer as it
 * is, where a string is encoded again for every write. A stream of misses creates none.
 */
import { etagOf } from './conditional.js'

export interface CachedResponse {
  readonly version: number
  readonly validUntil: number
  readonly body: string
  /** The body's UTF-8 encoding, once the entry has been served again. */
  encoded?: Buffer
  /** UTF-8 bytes of the body. */
  readonly bytes: number
  readonly etag: string
}

/** Overhead per entry beyond the body (key, object, Buffer header), for the size bound. */
const ENTRY_OVERHEAD = 256

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>()
  private bytes = 0

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  get size(): { readonly entries: number, readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes }
  }

  get(key: string, version: number, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.version === version && now < entry.validUntil) {
      if (entry.encoded === undefined && this.bytes + entry.bytes <= this.maxBytes) {
        entry.encoded = Buffer.from(entry.body, 'utf8')
        this.bytes += entry.bytes
      }
      return entry
    }
    this.delete(key, entry)
    return undefined
  }

  /** Files a body read under `version`; returns the entry (with its ETag) whether or not it was kept. */
  set(key: string, version: number | undefined, validUntil: number, serialised: string): CachedResponse {
    const encoded = Buffer.from(serialised, 'utf8')
    const cost = encoded.length + key.length + ENTRY_OVERHEAD
    const kept = version !== undefined && cost <= this.maxBytes
    // A serialiser builds its output by concatenation: a rope of many pieces, several times the size of
    // the text. Kept as it is, the cache would hold far more than it counts; a copy decoded from the
    // bytes is one flat string. An answer that is not kept is sent as it is.
    const body = kept ? encoded.toString('utf8') : serialised
    const entry = { version: version ?? -1, validUntil, body, bytes: encoded.length, etag: etagOf(encoded) }
    if (!kept) return entry
    const previous = this.entries.get(key)
    if (previous !== undefined) this.delete(key, previous)
    while (this.bytes + cost > this.maxBytes) {
      const oldest = this.entries.entries().next()
      if (oldest.done === true) break
      this.delete(oldest.value[0], oldest.value[1])
    }
    this.entries.set(key, entry)
    this.bytes += cost
    return entry
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  private delete(key: string, entry: CachedResponse): void {
    this.entries.delete(key)
    this.bytes -= (entry.encoded === undefined ? 0 : entry.bytes) + entry.bytes + key.length + ENTRY_OVERHEAD
  }
}
