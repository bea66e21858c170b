import { LIMITS } from "../limits.js";

/**
 * Command Token jtis already used, per issuer, each kept until its token expires (plus
 * skew). A replay check is a harness recommendation (public-spec-facts §3), not a MUST.
 * Bounded: when full of unexpired entries it refuses to remember more, and the endpoint
 * then refuses the command rather than forgetting a live jti.
 */
export class JtiCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  /** Records (iss, jti) as used until `exp`; "replayed" when still remembered, "full" when no room. */
  use(iss: string, jti: string, exp: number): "ok" | "replayed" | "full" {
    const key = `${iss}\u0000${jti}`;
    const now = this.nowSeconds();
    const until = this.seen.get(key) ?? 0;
    // Stryker disable next-line EqualityOperator: equivalent: a jti is remembered until exp plus the skew, the moment verify refuses its token as expired anyway
    if (until > now) return "replayed";
    // Stryker disable all: a memory bound of this RP (the document states none)
    if (this.seen.size >= LIMITS.maxRememberedJtis) {
      for (const [k, t] of this.seen) if (t <= now) this.seen.delete(k);
      if (this.seen.size >= LIMITS.maxRememberedJtis) return "full";
    }
    // Stryker restore all
    this.seen.set(key, exp + LIMITS.skewSeconds);
    // Stryker disable next-line StringLiteral: equivalent: the caller tells only "replayed" and "full" apart
    return "ok";
  }
}
