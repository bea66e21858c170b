import type { JWK } from "jose";
import type { ConfigurationId } from "../configurations.js";
import { LIMITS } from "../limits.js";
import type { Grant } from "../oauth/access-tokens.js";
import { randomId } from "../random.js";
import { ExpiringStore } from "../store.js";

/** A deferred issuance: what to issue once ready, and how often the wallet asked. */
export interface Transaction {
  readonly grant: Grant;
  readonly configuration: ConfigurationId;
  /** The keys to bind to; undefined binds a credential to no key (the `proof-optional` fault). */
  readonly holders: readonly (JWK | undefined)[];
  /** Deferred Credential Requests so far. */
  polls: number;
  /** The response once issued (kept only for the `deferred-id-reusable` fault). */
  delivered: { credentials: { credential: string }[]; notification_id: string | number } | undefined;
}

/** Live transaction ids (random), each bound to the grant of the token that made it. */
export class DeferredStore {
  private readonly byId = new ExpiringStore<Transaction>();

  /** Remembers `t` under a fresh transaction id, and answers the id. */
  add(t: Transaction): string {
    const id = randomId(24);
    // Stryker disable next-line ArithmeticOperator: how long a pending transaction_id lives is the issuer's choice (public §9 sets no lifetime); a Wallet polls at the interval it is given, seconds here
    this.byId.set(id, t, LIMITS.offerLifetimeSeconds * 6);
    return id;
  }

  find(id: string): Transaction | undefined {
    return this.byId.get(id);
  }

  /** Invalidates a delivered transaction id. */
  delete(id: string): void {
    this.byId.delete(id);
  }
}
