/**
 * Timers of one running target (asynchronous command completions): unref'd so they never
 * keep the process alive, and all cleared when the target closes.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  after(ms: number, run: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
