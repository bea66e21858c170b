import {
  createPrivateKey,
  createPublicKey,
  sign,
  verify,
  type JsonWebKey as NodeJwk,
  type KeyObject,
} from "node:crypto";
import { z } from "zod";

/**
 * Keys a profile gives as JSON text (from `${ENV}`): checked when the profile is loaded, so a
 * key that is not JSON, not a signing key, or not what a suite can sign with is refused by
 * `idconform validate` with its path, never met as a crash during the run. No message ever
 * quotes the key: JSON.parse's own messages echo the input, so none of them is passed on.
 */

/** Longest key text read (an RSA 8192 private JWK is under 7 KB; a JWK Set of 100 keys fits). */
const MAX_KEY_TEXT = 256 * 1024;

/** The members of a JWK that are private (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
export const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

/** Signing algorithms a private JWK may name, by key type and curve. */
const ALGS: Record<string, readonly string[]> = {
  "EC P-256": ["ES256"],
  "EC P-384": ["ES384"],
  "EC P-521": ["ES512"],
  RSA: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"],
  "OKP Ed25519": ["EdDSA", "Ed25519"],
};

/** The algorithm a key without `alg` signs with: ES* by curve, RS256 for RSA, EdDSA for Ed25519. */
const DEFAULT_ALG: Record<string, string> = {
  "EC P-256": "ES256",
  "EC P-384": "ES384",
  "EC P-521": "ES512",
  RSA: "RS256",
  "OKP Ed25519": "EdDSA",
};

/** What the README and the messages say is taken. */
export const TAKEN_KEYS =
  "EC P-256 (ES256), P-384 (ES384), P-521 (ES512); RSA of 2048 bits or more (RS256 by default; RS384, RS512, PS256, PS384, PS512 when alg says so); OKP Ed25519 (EdDSA)";

type Json = Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; message: string };

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** A public member's value in a message: a short string quoted, anything else by its type. */
function shown(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v.slice(0, 20)) : describe(v);
}

/** Parses JSON text that must hold an object, saying what it holds instead (never the text). */
function jsonObject(text: string, what: string): Result<Json> {
  if (text.length > MAX_KEY_TEXT)
    return { ok: false, message: `expected ${what}; the value is longer than ${MAX_KEY_TEXT} characters` };
  const t = text.trim();
  if (t.startsWith("-----BEGIN")) {
    return {
      ok: false,
      message: `expected ${what}; the value is a PEM key: give it as a JWK (JSON text) instead`,
    };
  }
  let v: unknown;
  try {
    v = JSON.parse(t) as unknown;
  } catch {
    return { ok: false, message: `expected ${what}; the value is not JSON` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    return { ok: false, message: `expected ${what}; the value is JSON but ${describe(v)}, not an object` };
  }
  return { ok: true, value: v as Json };
}

/** `EC P-256`, `RSA`, `OKP Ed25519`: the key's kind, or why it is none that signs. */
function kindOf(jwk: Json): Result<string> {
  const { kty, crv } = jwk;
  if (kty === undefined) return { ok: false, message: "the JWK has no kty" };
  if (typeof kty !== "string") return { ok: false, message: "kty is not a string" };
  if (kty === "oct")
    return { ok: false, message: `kty "oct" is a shared secret, not a key pair: give ${TAKEN_KEYS}` };
  if (kty === "RSA") return { ok: true, value: "RSA" };
  if (kty !== "EC" && kty !== "OKP")
    return { ok: false, message: `kty ${JSON.stringify(kty.slice(0, 20))} is not taken: give ${TAKEN_KEYS}` };
  if (typeof crv !== "string") return { ok: false, message: `a ${kty} JWK needs crv` };
  const kind = `${kty} ${crv}`;
  if (ALGS[kind] === undefined) {
    return {
      ok: false,
      message: `${kty} curve ${JSON.stringify(crv.slice(0, 20))} is not taken${crv.startsWith("X") ? " (a key-agreement curve, not a signing one)" : ""}: give ${TAKEN_KEYS}`,
    };
  }
  return { ok: true, value: kind };
}

/** `use` and `key_ops`, when given, must allow signing (RFC 7517 §4.2, §4.3). */
function usable(jwk: Json, op: "sign" | "verify"): string | undefined {
  if (jwk.use !== undefined && jwk.use !== "sig") return `use is ${shown(jwk.use)}, not "sig"`;
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes(op))) {
    return `key_ops does not include "${op}"`;
  }
  return undefined;
}

/** The public members a kind of key must carry. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = { EC: ["x", "y"], OKP: ["x"], RSA: ["n", "e"] };

/**
 * A private signing JWK as JSON text: the JWK with its `alg` (the one it names, checked against
 * its key type and curve, or the key type's usual one), or why it is not one.
 */
export function checkPrivateJwk(text: string): Result<Json & { alg: string }> {
  const what = "a private JWK as JSON text";
  const parsed = jsonObject(text, what);
  if (!parsed.ok) return parsed;
  const jwk = parsed.value;
  if (Array.isArray(jwk.keys))
    return { ok: false, message: `expected one private JWK, received a JWK Set: give one of its keys` };
  const kind = kindOf(jwk);
  if (!kind.ok) return kind;
  const kty = jwk.kty as string;
  if (typeof jwk.d !== "string")
    return {
      ok: false,
      message: `the ${kty} JWK has no d: it is a public key, and a private key is needed to sign`,
    };
  const missing = (PUBLIC_MEMBERS[kty] ?? []).filter((m) => typeof jwk[m] !== "string");
  if (missing.length > 0) return { ok: false, message: `the ${kty} JWK has no ${missing.join(", ")}` };
  const unusable = usable(jwk, "sign");
  if (unusable) return { ok: false, message: unusable };
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: jwk as NodeJwk, format: "jwk" });
  } catch {
    // Node's message names the member it could not read (never its value); keep ours generic.
    return {
      ok: false,
      message:
        kty === "RSA"
          ? "not a usable RSA private key (an RSA JWK needs n, e, d, p, q, dp, dq and qi, base64url)"
          : `not a usable ${kind.value} private key (x${kty === "EC" ? ", y" : ""} and d must be base64url of the curve's size)`,
    };
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (kty === "RSA" && (bits < 2048 || bits > 8192)) {
    return { ok: false, message: `an RSA key of ${bits} bits: 2048 to 8192 are taken` };
  }
  if (!halves(key, jwk, kty)) {
    return {
      ok: false,
      message: `${PUBLIC_MEMBERS[kty]?.join(" and ")} are not the public half of d: the JWK mixes two keys`,
    };
  }
  const taken = ALGS[kind.value] ?? [];
  if (jwk.alg !== undefined) {
    if (typeof jwk.alg !== "string" || !taken.includes(jwk.alg)) {
      return {
        ok: false,
        message: `alg ${shown(jwk.alg)} does not go with an ${kind.value} key: expected ${taken.join(", ")} (or no alg, for ${DEFAULT_ALG[kind.value]})`,
      };
    }
    return { ok: true, value: jwk as Json & { alg: string } };
  }
  return { ok: true, value: { ...jwk, alg: DEFAULT_ALG[kind.value] ?? "ES256" } };
}

/**
 * Whether the JWK's public members are the public half of its private key: what the suite
 * publishes (its jwks_uri) is the public members, and a mixed key would make every signature fail.
 */
function halves(key: KeyObject, jwk: Json, kty: string): boolean {
  const pub: Json = { kty };
  for (const m of [...(PUBLIC_MEMBERS[kty] ?? []), "crv"]) if (jwk[m] !== undefined) pub[m] = jwk[m];
  try {
    const hash = kty === "OKP" ? null : "sha256";
    const data = Buffer.from("idconform key check");
    return verify(hash, data, createPublicKey({ key: pub as NodeJwk, format: "jwk" }), sign(hash, data, key));
  } catch {
    return false;
  }
}

/** A JWK Set of public keys as JSON text (keys trusted to verify), or why it is not one. */
export function checkPublicJwkSet(text: string): Result<Json> {
  const parsed = jsonObject(text, 'a JWK Set as JSON text: {"keys": [...]}');
  if (!parsed.ok) return parsed;
  const keys = parsed.value.keys;
  if (!Array.isArray(keys)) {
    return {
      ok: false,
      message:
        parsed.value.kty !== undefined
          ? 'expected a JWK Set ({"keys": [...]}), received one JWK: wrap it in {"keys": [...]}'
          : 'expected a JWK Set as JSON text: {"keys": [...]}',
    };
  }
  if (keys.length === 0) return { ok: false, message: "the JWK Set has no keys: nothing would verify" };
  if (keys.length > 100) return { ok: false, message: `the JWK Set has ${keys.length} keys: at most 100` };
  for (const [i, k] of keys.entries()) {
    if (k === null || typeof k !== "object" || Array.isArray(k))
      return { ok: false, message: `keys[${i}] is ${describe(k)}, not a JWK` };
    const jwk = k as Json;
    if (PRIVATE_JWK_MEMBERS.some((m) => jwk[m] !== undefined)) {
      return { ok: false, message: `keys[${i}] holds private members: give the public keys only` };
    }
    const kind = kindOf(jwk);
    if (!kind.ok) return { ok: false, message: `keys[${i}]: ${kind.message}` };
    const unusable = usable(jwk, "verify");
    if (unusable) return { ok: false, message: `keys[${i}]: ${unusable}` };
    try {
      createPublicKey({ key: jwk as NodeJwk, format: "jwk" });
    } catch {
      return { ok: false, message: `keys[${i}] is not a usable ${kind.value} public key` };
    }
  }
  return { ok: true, value: parsed.value };
}

/**
 * A profile member holding a private signing JWK as JSON text. The value it gives the suite is
 * the key's JSON text with `alg` always set, so no check has to guess the algorithm.
 */
export function privateJwkText() {
  return z
    .string()
    .min(1)
    .transform((text, ctx) => {
      const r = checkPrivateJwk(text);
      if (!r.ok) {
        ctx.addIssue({ code: "custom", message: r.message, input: undefined });
        return z.NEVER;
      }
      return r.value.alg === (JSON.parse(text) as Json).alg ? text : JSON.stringify(r.value);
    });
}

/** A profile member holding a JWK Set of public keys as JSON text. */
export function publicJwkSetText() {
  return z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      const r = checkPublicJwkSet(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.message, input: undefined });
    });
}

/**
 * The private parts of a key text, for the redactor: a JWK's private members and, for a key
 * given without `alg`, the text the suite receives instead. Empty for anything else.
 */
export function privateKeyParts(text: string): string[] {
  if (text.length > MAX_KEY_TEXT || !text.trim().startsWith("{")) return [];
  let v: unknown;
  try {
    v = JSON.parse(text) as unknown;
  } catch {
    return [];
  }
  const keys = (v as { keys?: unknown })?.keys;
  const list = Array.isArray(keys) ? keys : [v];
  const out: string[] = [];
  for (const k of list) {
    if (k === null || typeof k !== "object" || typeof (k as Json).kty !== "string") continue;
    for (const m of PRIVATE_JWK_MEMBERS) {
      const x = (k as Json)[m];
      if (typeof x === "string" && x.length > 0) out.push(x);
    }
  }
  if (out.length > 0 && !Array.isArray(keys)) {
    const r = checkPrivateJwk(text);
    if (r.ok && r.value.alg !== (v as Json).alg) out.push(JSON.stringify(r.value));
  }
  return out;
}
