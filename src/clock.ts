/** "Now" as Unix epoch milliseconds. Everything that depends on time takes a Clock. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/**
 * The machine's clock moved by `offsetMs` (CLOCK_OFFSET_SECONDS): time runs as usual from another
 * day. The suites that run real server processes use it to run on a chosen "today".
 */
export function shiftedClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => Date.now() + offsetMs }
}

/** A clock that only moves when told to; used by tests and by anything that replays time. */
export class ManualClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current
  }

  set(epochMs: number | string): void {
    this.current = typeof epochMs === 'string' ? Date.parse(epochMs) : epochMs
  }

  advance(ms: number): void {
    this.current += ms
  }
}
