/**
 * Budgets in this process: exact, since each decision is one synchronous step. Memory is bounded
 * by what must be remembered: a key whose bucket is full and whose day count is zero (or of an
 * earlier day) carries no information and is dropped when the map is swept. The day's counts and
 * the buckets are written to a file on a graceful stop and read back on start, so a restart does
 * not hand out a fresh daily quota.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Clock } from '../clock.js'
import { decide, utcDay } from '../domain/rate-limit.js'
import { tokensAt } from '../domain/token-bucket.js'
import type { Decision, KeyLimits, KeyState } from '../domain/rate-limit.js'
import type { LimiterStore } from './store.js'

const SWEEP_EVERY = 10_000
const FILE_VERSION = 1

interface Entry {
  state: KeyState
  capacity: number
  refillPerSecond: number
}

export class MemoryLimiterStore implements LimiterStore {
  readonly kind = 'memory'
  private readonly entries = new Map<string, Entry>()
  private sinceSweep = 0

  private constructor(private readonly clock: Clock, private readonly file: string | undefined) {}

  /** Opens the store, reading back the state a graceful stop left in `file` (if any). */
  static async open(clock: Clock, file?: string): Promise<MemoryLimiterStore> {
    const store = new MemoryLimiterStore(clock, file)
    if (file !== undefined) await store.load(file)
    return store
  }

  /** Synchronous: decided in this process. */
  consume(keyId: string, limits: KeyLimits): Decision {
    const now = this.clock.now()
    const { decision, state } = decide(this.entries.get(keyId)?.state, limits, now)
    this.entries.set(keyId, { state, capacity: limits.capacity, refillPerSecond: limits.refillPerSecond })
    if (++this.sinceSweep >= SWEEP_EVERY) this.sweep(now)
    return decision
  }

  usedToday(keyId: string, now: number): Promise<number> {
    const state = this.entries.get(keyId)?.state
    return Promise.resolve(state !== undefined && state.day === utcDay(now) ? state.used : 0)
  }

  refundDay(keyId: string, admittedAt: number): Promise<void> {
    const entry = this.entries.get(keyId)
    if (entry !== undefined && entry.state.day === utcDay(admittedAt) && entry.state.used > 0) {
      entry.state = { ...entry.state, used: entry.state.used - 1 }
    }
    return Promise.resolve()
  }

  /** How many keys it remembers. */
  get size(): number {
    return this.entries.size
  }

  /** Drops what carries no information: full buckets without a count for today. */
  sweep(now = this.clock.now()): void {
    this.sinceSweep = 0
    const today = utcDay(now)
    for (const [keyId, { state, capacity, refillPerSecond }] of this.entries) {
      if (state.day === today && state.used > 0) continue
      if (tokensAt(state, { capacity, refillPerSecond }, now) >= capacity) this.entries.delete(keyId)
    }
  }

  ping(): Promise<void> {
    return Promise.resolve()
  }

  async close(): Promise<void> {
    if (this.file === undefined) return
    this.sweep()
    const entries = [...this.entries].map(([keyId, { state, capacity, refillPerSecond }]) =>
      [keyId, state.tokens, state.updatedAt, state.day, state.used, capacity, refillPerSecond])
    await fs.mkdir(path.dirname(this.file), { recursive: true })
    // A temporary name of this process's own: two processes sharing a DATA_DIR never rename each other's half-written file.
    const temporary = `${this.file}.${String(process.pid)}.tmp`
    await fs.writeFile(temporary, JSON.stringify({ version: FILE_VERSION, entries }))
    await fs.rename(temporary, this.file)
  }

  private async load(file: string): Promise<void> {
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch {
      return
    }
    const saved = JSON.parse(text) as { version?: number, entries?: unknown[] }
    if (saved.version !== FILE_VERSION || !Array.isArray(saved.entries)) return
    for (const row of saved.entries) {
      if (!Array.isArray(row) || row.length !== 7) continue
      type Saved = [string, number, number, number, number, number, number]
      const [keyId, tokens, updatedAt, day, used, capacity, refillPerSecond] = row as Saved
      this.entries.set(keyId, { state: { tokens, updatedAt, day, used }, capacity, refillPerSecond })
    }
  }
}
