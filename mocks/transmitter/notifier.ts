/**
 * Wakes whoever waits for a state change (a long poll waiting for SETs, a check waiting for
 * outcomes): `wait` resolves as soon as `ready()` holds, or at the deadline, or at `close`.
 * Nothing sleeps: every change calls `notify`.
 */
export class Notifier {
  private readonly waiters = new Set<() => void>();
  private closed = false;

  notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves true when `ready()` holds, false at the deadline or when closed. */
  wait(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (this.closed || signal?.aborted || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (v: boolean): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        signal?.removeEventListener("abort", aborted);
        resolve(v);
      };
      const waiter = (): void => {
        if (this.closed) done(false);
        else if (ready()) done(true);
      };
      const aborted = (): void => done(false);
      const timer = setTimeout(() => done(ready()), timeoutMs);
      this.waiters.add(waiter);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }

  /** Releases every waiter (the mock is closing) and makes later waits return at once. */
  close(): void {
    this.closed = true;
    this.notify();
  }
}
