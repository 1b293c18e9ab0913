/**
 * Work a request starts but does not wait for (preparing a sign-in link after the answer, so
 * that the answer's timing says nothing). Tracked so that stopping the server finishes it, and
 * so that tests can wait for it instead of sleeping.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>()

  run(task: () => Promise<unknown>, onError: (error: unknown) => void): void {
    const promise = task().then(() => undefined, onError).finally(() => {
      this.running.delete(promise)
    })
    this.running.add(promise)
  }

  /** Resolves when every task started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }
}
