/**
 * The loop of a background worker (the mail outbox, webhooks): one round at a time, every
 * `pollMs`, at once after wake(), and at once again after a round that found a full batch.
 * stop() ends the loop and waits for the round in flight.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  private stopped = true

  /** `round` resolves to true when there may be more due at once (it handled a full batch). */
  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.schedule(0)
  }

  /** Look now rather than at the next poll (after a change that queued work). */
  wake(): void {
    if (this.stopped) return
    if (this.running !== undefined) {
      this.again = true
      return
    }
    this.schedule(0)
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.running = this.round()
        .then((more) => {
          if (more) this.again = true
        })
        .catch((error: unknown) => {
          this.onError(error)
        })
        .finally(() => {
          this.running = undefined
          if (this.stopped) return
          const next = this.again ? 0 : this.pollMs
          this.again = false
          this.schedule(next)
        })
    }, delay)
    this.timer.unref()
  }
}
