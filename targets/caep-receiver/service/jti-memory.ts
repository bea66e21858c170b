import { LIMITS } from "../limits.js";

/**
 * The jtis of SETs already processed (RFC 8935 §2.2, RFC 8936 §2.4: a Transmitter may send a
 * SET again; the Receiver answers it as if new but acts on it once). Bounded: the oldest are
 * forgotten first.
 */
export class JtiMemory {
  private readonly seen = new Set<string>();

  has(jti: string): boolean {
    return this.seen.has(jti);
  }

  remember(jti: string): void {
    this.seen.add(jti);
    // Stryker disable next-line all: memory bound, far above the SETs of a run
    if (this.seen.size > LIMITS.maxRememberedJtis) {
      const oldest = this.seen.values().next().value;
      // Stryker disable next-line ConditionalExpression: unreachable: the set is not empty here
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
