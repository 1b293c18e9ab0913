/**
 * Serialised answers of the read endpoints, kept until what they were read from changes. An entry
 * is served only while its scope's version (src/db/changes.ts) is the one it was read under and
 * the clock is before its `validUntil` (news scheduled for later appears at that moment), so the
 * cache can never answer with data that has changed; it only saves the queries and serialisation
 * of answers that have not.
 *
 * Bounded by the bytes of the bodies it holds; when full, the oldest entries go first, and a new
 * page is filed only on its second miss among the last few thousand (`admits`). A filed body is
 * kept as its UTF-8 bytes, which a socket takes as they are, outside the collected heap. Kept as
 * strings, the bodies are promoted into the old generation among the short-lived objects of the
 * misses around them, and once those are collected V8 keeps the partly used pages: some 35 MiB
 * more than in use after a stream of misses (measured), which a full collection does not
 * compact. Freed bytes go back to malloc, which reuses them for the next bodies. An answer that is
 * not filed is sent as it came: the serialiser's string, or the bytes a list reader thread wrote
 * into memory it shares with the event loop (src/speed/list-readers.ts).
 */
import { etagOf } from '../http/etag.js'

/** A body serialised elsewhere (a list reader thread), as text or as its UTF-8 bytes, with its ETag. */
export interface TaggedBody {
  readonly body: string | Buffer
  readonly etag: string
}

export interface CachedResponse {
  readonly version: number
  readonly validUntil: number
  /** What is sent: the UTF-8 bytes of a filed body; the string or bytes of one that was not filed, as they came. */
  readonly body: Buffer | string
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
  /** Answers served from the cache, and answers read because it had none to serve (src/speed/cached-read.ts counts them). */
  readonly counts = { hits: 0, misses: 0 }

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  get size(): { readonly entries: number, readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes }
  }

  /** Whether an entry is filed under `key`, current or not (get says whether it may be served). */
  holds(key: string): boolean {
    return this.entries.has(key)
  }

  get(key: string, version: number, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.version === version && now < entry.validUntil) return entry
    this.delete(key, entry)
    return undefined
  }

  /**
   * Files a body read under `version`, the serialiser's string, or one tagged where it was
   * serialised; returns the entry (with its ETag) whether or not it was kept. Bytes given are
   * copied when kept: they may be memory the giver uses again once the answer is sent.
   */
  set(key: string, version: number | undefined, validUntil: number, serialised: string | TaggedBody): CachedResponse {
    const given = typeof serialised === 'string' ? serialised : serialised.body
    const bytes = typeof given === 'string' ? Buffer.byteLength(given, 'utf8') : given.length
    const cost = bytes + key.length + ENTRY_OVERHEAD
    const kept = version !== undefined && cost <= this.maxBytes && this.admits(key, cost)
    // An answer that is not kept is sent as it is; the socket encodes a string once.
    const body = !kept ? given : typeof given === 'string' ? Buffer.from(given, 'utf8') : Buffer.from(given)
    const entry = { version: version ?? -1, validUntil, body, bytes,
      etag: typeof serialised === 'string' ? etagOf(body) : serialised.etag }
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
   * stream is no cheaper to serve for it (measured): what it saves is the
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

  /** Pushes out the oldest entries until `bytes` more fit. */
  private pushOutFor(bytes: number): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes + bytes <= this.maxBytes) return
      this.delete(key, entry)
    }
  }

  private delete(key: string, entry: CachedResponse): void {
    this.entries.delete(key)
    this.bytes -= entry.bytes + key.length + ENTRY_OVERHEAD
  }
}
