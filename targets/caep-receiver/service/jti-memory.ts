import { LIMITS } from "../limits.js";

/**
 * The jtis of SETs already processed (RFC 8935 §2.2, RFC 8936 §2.4: a Transmitter may send a
 * SET again; the Receiver answers it as if new but acts on it once). Bounded: the oldest are
 * forgotten first.
 */
export class JtiMemory {
  private readonly seen = new Set<string>();

  // Stryker disable next-line BlockStatement: acting once on a re-sent SET is this Receiver's design, which no text requires (CAEPR-DUPLICATE-JTI asks only that it is answered as if new); its effects are idempotent
  has(jti: string): boolean {
    return this.seen.has(jti);
  }

  // Stryker disable next-line BlockStatement: acting once on a re-sent SET is this Receiver's design, which no text requires (CAEPR-DUPLICATE-JTI asks only that it is answered as if new); its effects are idempotent
  remember(jti: string): void {
    this.seen.add(jti);
    // Stryker disable next-line all: memory bound, far above the SETs of a run
    if (this.seen.size > LIMITS.maxRememberedJtis) {
      const oldest = this.seen.values().next().value;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: unreachable: the set is not empty here
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
