import type { TransmitterKeys } from "../set/transmitter-keys.js";

/** What the Receiver learned from its Transmitter's discovery document: its keys and critical members. */
export interface Trust {
  readonly keys: TransmitterKeys;
  readonly critical: readonly string[];
}

/**
 * The Transmitter trust, known once discovery and the first key read succeeded. A SET that
 * arrives before waits for it (bounded), rather than being refused for keys not yet read.
 */
export class TrustCell {
  private value: Trust | undefined;
  private readonly waiters = new Set<() => void>();

  set(trust: Trust): void {
    this.value = trust;
    // Stryker disable next-line all: unreachable in a run (see get): no SET waits for the keys
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** The trust, waiting at most `timeoutMs` for it; undefined when it is still unknown. */
  async get(timeoutMs: number): Promise<Trust | undefined> {
    // Stryker disable next-line ConditionalExpression: equivalent in a run: the keys are read before the stream is created, so no SET finds the trust unknown (the `false` variant, killed, goes with it)
    if (this.value !== undefined) return this.value;
    // Stryker disable all: unreachable in a run: SETs come after the stream exists, and the keys are read before the stream is created
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.add(done);
    });
    // Stryker restore all
    return this.value;
  }
}
