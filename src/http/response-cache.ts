/**
 * Serialised answers of the read endpoints, kept until what they were read from changes. An entry
 * is served only while its scope's version (src/db/changes.ts) is the one it was read under and
 * the clock is before its `validUntil` (news scheduled for later appears at that moment), so the
 * cache can never answer with data that has changed; it only saves the queries and serialisation
 * of answers that have not.
 *
 * Bounded by the bytes of the bodies it holds; when full, the oldest entries go first, and a new
 * page is filed only on its second miss among the last few thousand (`admits`). Bodies are
 * kept as strings: they live in the garbage-collected heap, which compacts, where a churn of
 * Buffers of every size fragments the native heap and the process keeps the pages. An entry served
 * a second time keeps its UTF-8 bytes as well (counted in the bound; in a full cache, the oldest
 * entries make room for them): a socket takes a Buffer as it is, where a string is encoded again for
 * every write. A stream of misses creates none.
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

/** How many missed keys (by hash) the full cache remembers in each of its two generations. */
const REMEMBERED_MISSES = 8_192

/** FNV-1a of the key's UTF-16 code units, as a 32-bit signed integer (a small integer to V8: no allocation). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash | 0
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>()
  private bytes = 0
  /** Hashes of keys missed while the cache was full: the newer generation, and the one before it. */
  private missed = new Set<number>()
  private missedBefore = new Set<number>()

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
      if (entry.encoded === undefined && this.makeRoom(key, entry)) {
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
    const kept = version !== undefined && cost <= this.maxBytes && this.admits(key, cost)
    // A serialiser builds its output by concatenation: a rope of many pieces, several times the size of
    // the text. Kept as it is, the cache would hold far more than it counts; a copy decoded from the
    // bytes is one flat string. An answer that is not kept is sent as it is.
    const body = kept ? encoded.toString('utf8') : serialised
    const entry = { version: version ?? -1, validUntil, body, bytes: encoded.length, etag: etagOf(encoded) }
    if (!kept) return entry
    const previous = this.entries.get(key)
    if (previous !== undefined) this.delete(key, previous)
    this.pushOutFor(cost)
    this.entries.set(key, entry)
    this.bytes += cost
    return entry
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
    this.missed.clear()
    this.missedBefore.clear()
  }

  /**
   * Whether a page read now is filed. While there is room, every page is. Once full, a page is
   * filed on its second miss among the last 8,192 to 16,384 (a doorkeeper, as in TinyLFU): a
   * stream of pages asked for once each (a crawler paging through a long list, a thousand clubs'
   * random pages) would otherwise push out the pages that are asked for again and again. Such a
   * stream is no cheaper to serve for it (docs/performance.md, step 24): what it saves is the
   * other pages' hits.
   */
  private admits(key: string, cost: number): boolean {
    if (this.bytes + cost <= this.maxBytes) return true
    const hash = hashOf(key)
    if (this.missed.delete(hash) || this.missedBefore.delete(hash)) return true
    if (this.missed.size >= REMEMBERED_MISSES) {
      this.missedBefore = this.missed
      this.missed = new Set()
    }
    this.missed.add(hash)
    return false
  }

  /**
   * Room for the bytes of `keep`'s entry, served again, with the oldest other entries pushed out
   * for it; false when the two copies of its body would not fit even alone. A full cache makes room
   * for them as for a new page: without its bytes, a page served again and again would be encoded
   * anew for every answer for as long as the cache stays full.
   */
  private makeRoom(keep: string, entry: CachedResponse): boolean {
    if (2 * entry.bytes + keep.length + ENTRY_OVERHEAD > this.maxBytes) return false
    this.pushOutFor(entry.bytes, keep)
    return true
  }

  /** Pushes out the oldest entries (other than `keep`'s) until `bytes` more fit. */
  private pushOutFor(bytes: number, keep?: string): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes + bytes <= this.maxBytes) return
      if (key !== keep) this.delete(key, entry)
    }
  }

  private delete(key: string, entry: CachedResponse): void {
    this.entries.delete(key)
    this.bytes -= (entry.encoded === undefined ? 0 : entry.bytes) + entry.bytes + key.length + ENTRY_OVERHEAD
  }
}
