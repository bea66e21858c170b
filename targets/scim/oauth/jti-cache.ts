import { LIMITS } from "../limits.js";

/**
 * Client-assertion jtis already used, each kept until its assertion expires (RFC 7523 §3:
 * the server may reject a replayed jti; specs/002 area C Authentication 6: "nonces SHALL
 * be validated"). Bounded: when full of unexpired entries it refuses to remember more,
 * and the token endpoint then refuses the assertion rather than forgetting a live jti.
 */
export class JtiCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  /**
   * Records `jti` as used until `exp` (epoch seconds, plus skew). Answers "replayed" when
   * it is still remembered, "full" when there is no room.
   */
  use(key: string, exp: number): "ok" | "replayed" | "full" {
    const now = this.nowSeconds();
    const until = this.seen.get(key);
    // Stryker disable next-line all: equivalent: past exp plus the skew the assertion is refused as expired anyway
    if (until !== undefined && until > now) return "replayed";
    // Stryker disable all: a defensive bound on remembered jtis that no requirement states
    if (this.seen.size >= LIMITS.maxRememberedJtis) {
      for (const [k, t] of this.seen) if (t <= now) this.seen.delete(k);
      if (this.seen.size >= LIMITS.maxRememberedJtis) return "full";
    }
    // Stryker restore all
    this.seen.set(key, exp + LIMITS.assertionSkewSeconds);
    // Stryker disable next-line StringLiteral: equivalent: the token endpoint acts only on "replayed" and "full"
    return "ok";
  }
}
