import { LIMITS } from "../limits.js";

const WINDOW_MS = 1000;

/**
 * Per-token rate limit of the SCIM endpoints (specs/002 area C Limits: "enforced; on
 * excess answer 429 with Retry-After"). A sliding window: at most `ratePerSecond`
 * accepted requests in any one second, so a burst meets the limit wherever it starts
 * (a fixed window could split a burst in two halves that each stay under it). Refused
 * requests are not counted, so waiting one second always recovers.
 */
export class RateLimiter {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly limit: number = LIMITS.ratePerSecond,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `key`; false when it is over the limit (and is not counted). */
  take(key: string): boolean {
    const now = this.now();
    let times = this.recent.get(key);
    if (times === undefined) {
      if (this.recent.size >= LIMITS.maxLiveTokens) this.forgetIdle(now);
      times = [];
      this.recent.set(key, times);
    }
    while (times.length > 0 && (times[0] ?? 0) <= now - WINDOW_MS) times.shift();
    if (times.length >= this.limit) return false;
    times.push(now);
    return true;
  }

  /** Keys with nothing in the last window hold no state worth keeping. */
  private forgetIdle(now: number): void {
    for (const [key, times] of this.recent) {
      const last = times[times.length - 1];
      if (last === undefined || last <= now - WINDOW_MS) this.recent.delete(key);
    }
  }
}
