import { LIMITS } from "../limits.js";
import { randomId } from "../random.js";
import { ExpiringStore } from "../store.js";

/** How a proof's nonce compares with the nonces this issuer handed out. */
export type NonceState = "valid" | "unknown" | "reused";

/**
 * c_nonce values (specs/000 Endpoints: Nonce Endpoint; States 3): 32 random bytes,
 * base64url, valid LIMITS.nonceLifetimeSeconds, reusable until they expire. The
 * `nonce-predictable` fault hands out a zero-padded counter instead.
 */
export class Nonces {
  private readonly live = new ExpiringStore<true>();
  /** Nonces a proof already used (only looked at under the `nonce-reuse-invalid-proof` fault). */
  private readonly used = new ExpiringStore<true>();
  private counter = 0;

  constructor(private readonly predictable: boolean) {}

  issue(): string {
    // Stryker disable next-line all: the counter is read only under the nonce-predictable fault
    this.counter += 1;
    // Stryker disable next-line StringLiteral: the padding shows only under the nonce-predictable fault
    const nonce = this.predictable ? String(this.counter).padStart(43, "0") : randomId(32);
    // Stryker disable next-line BooleanLiteral: equivalent: only the presence of a nonce in the store is read
    this.live.set(nonce, true, LIMITS.nonceLifetimeSeconds);
    return nonce;
  }

  state(nonce: string): NonceState {
    if (this.live.get(nonce) === undefined) return "unknown";
    // Stryker disable next-line all: "reused" is acted on only under the nonce-reuse-invalid-proof fault; a clean issuer treats both alike (States 3)
    return this.used.get(nonce) === undefined ? "valid" : "reused";
  }

  // Stryker disable all: what is marked is read only under the nonce-reuse-invalid-proof fault
  markUsed(nonce: string): void {
    this.used.set(nonce, true, LIMITS.nonceLifetimeSeconds);
  }
  // Stryker restore all
}
