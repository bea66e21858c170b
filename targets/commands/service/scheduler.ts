/**
 * Timers of one running target (asynchronous command completions): unref'd so they never
 * keep the process alive, and all cleared when the target closes.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  after(ms: number, run: () => void): void {
    // Stryker disable next-line ConditionalExpression: shutdown plumbing: timers scheduled after the target closed are unref'd and touch only its memory
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  // Stryker disable next-line BlockStatement: shutdown plumbing: clearing timers when the target closes is nothing the protocol shows
  close(): void {
    // Stryker disable next-line BooleanLiteral: shutdown plumbing: clearing timers when the target closes is nothing the protocol shows
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
