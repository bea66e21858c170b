import { createHash } from "node:crypto";
import type { JWK } from "jose";
import { sameKey, type ParsedCredential } from "../../mocks/wallet/credential.js";
import type { HolderKey } from "../../mocks/wallet/keys.js";
import { jwkThumbprint } from "../../mocks/wallet/thumbprint.js";
import type { HttpResponse } from "../../src/http/client.js";
import type { Ctx, Json } from "./client.js";
import { issuerKeys, judgeSignature, type IssuerKeys } from "./issuer-keys.js";
import { didJwkKey, readableFormat, readCredential, show } from "./session.js";

/** Issuer keys looked up once per `iss` for the whole check; a hostile credential names at most a few. */
export function issuerKeyCache(c: Ctx): (iss: string) => Promise<IssuerKeys> {
  const lookups = new Map<string, Promise<IssuerKeys>>();
  return (iss) => {
    let got = lookups.get(iss);
    if (got === undefined) {
      got =
        lookups.size >= 4
          ? Promise.resolve({ none: "more issuers than the Wallet looks up in one check" })
          : issuerKeys(c, iss);
      lookups.set(iss, got);
    }
    return got;
  };
}

/** What the credentials of one response are judged against. */
export interface IssuedCredentials {
  /** The configuration id and object the credentials were asked for. */
  readonly id: string;
  readonly conf: Json;
  /** The `credential` values of the response, every one of them judged. */
  readonly values: readonly unknown[];
  readonly res: HttpResponse;
  /**
   * The proof key every credential must be bound to; `"unbound"` when the configuration binds no
   * key; `undefined` when the caller judges binding itself (a batch binds each to its own key).
   */
  readonly key: HolderKey | "unbound" | undefined;
  readonly keysOf: (iss: string) => Promise<IssuerKeys>;
}

/**
 * Judges every credential of a response (specs/000 Credential Response; public §8.3, SD-JWT VC):
 * VCI-CRED-FORMAT, VCI-CRED-BOUND-TO-PROOF (unless the caller judges binding) and
 * VCI-CRED-SIGNATURE, each over all credentials, so a batch's or a deferred delivery's later
 * credentials are held to what the first one is.
 */
export async function judgeCredentials(c: Ctx, r: IssuedCredentials): Promise<void> {
  const later = [
    "VCI-CRED-FORMAT",
    ...(r.key !== undefined ? ["VCI-CRED-BOUND-TO-PROOF"] : []),
    "VCI-CRED-SIGNATURE",
  ];
  if (r.values.length === 0) {
    for (const id of later)
      c.skipOnly(id, "the response carries no credential: see VCI-CRED-RESPONSE-SHAPE", "dependency");
    return;
  }
  if (!readableFormat(r.conf.format)) {
    for (const id of later)
      c.skipOnly(
        id,
        `configuration ${r.id} has format ${show(r.conf.format)}; the Wallet reads dc+sd-jwt and jwt_vc_json`,
        "other",
      );
    return;
  }
  const parsed: ParsedCredential[] = [];
  const formatProblems: string[] = [];
  r.values.forEach((value, i) => {
    const out = readCredential(r.conf, value, `credentials[${i}]`);
    formatProblems.push(...out.problems);
    if (out.parsed) {
      parsed.push(out.parsed);
      formatProblems.push(
        ...claimProblems(r.conf, out.parsed, Date.now() / 1000).map((p) => `credentials[${i}]: ${p}`),
      );
    }
  });
  c.check("VCI-CRED-FORMAT", formatProblems.length === 0, {
    expected: `${r.id} credentials of format ${String(r.conf.format)}, well formed`,
    actual: formatProblems.join("; "),
    res: r.res,
  });
  if (parsed.length === 0) {
    for (const id of later.slice(1))
      c.skipOnly(id, "no credential could be read: see VCI-CRED-FORMAT", "dependency");
    return;
  }
  const key = r.key;
  if (key === "unbound")
    c.skipOnly(
      "VCI-CRED-BOUND-TO-PROOF",
      `configuration ${r.id} binds no key (no proof_types_supported or cryptographic_binding_methods_supported)`,
      "not-offered",
    );
  else if (key !== undefined) {
    const wrong: string[] = [];
    for (const [i, p] of parsed.entries()) {
      const b = bindingOf(p, [key.publicJwk]);
      if ("problem" in b) wrong.push(parsed.length > 1 ? `credential ${i}: ${b.problem}` : b.problem);
    }
    c.check("VCI-CRED-BOUND-TO-PROOF", wrong.length === 0, {
      message: `${wrong.length} of ${parsed.length} ${r.id} credential(s) not bound to the key of the request's proof`,
      expected: `bound to the proof's key (thumbprint ${key.thumbprint}): ${BINDINGS(r.conf.format)}`,
      actual: wrong.join("; "),
      res: r.res,
    });
  }
  await judgeSignatures(c, r, parsed);
}

/** Where a credential of `format` may name its holder's key, for findings. */
export const BINDINGS = (format: unknown): string =>
  format === "jwt_vc_json"
    ? "cnf.jwk, or a did:jwk or an RFC 9278 JWK thumbprint URI of it in sub or vc.credentialSubject.id"
    : "cnf.jwk";

/** RFC 9278 §3: urn:ietf:params:oauth:jwk-thumbprint:<hash-alg>:<base64url thumbprint>. */
const THUMBPRINT_URI = /^urn:ietf:params:oauth:jwk-thumbprint:([^:]{1,32}):([A-Za-z0-9_-]{1,256})$/;

/**
 * The hash algorithms RFC 9278 §3 names a thumbprint's by (the IANA Named Information Hash
 * Algorithm registry, RFC 6920 §9.4) that node computes: the node name and, for the truncated
 * sha-256 variants, the bytes kept. A registered name left out here (k12, blake2b-256) is one
 * the Wallet cannot check.
 */
const THUMBPRINT_HASHES: Readonly<Record<string, readonly [string, number?]>> = {
  "sha-256": ["sha256"],
  "sha-256-128": ["sha256", 16],
  "sha-256-120": ["sha256", 15],
  "sha-256-96": ["sha256", 12],
  "sha-256-64": ["sha256", 8],
  "sha-256-32": ["sha256", 4],
  "sha-384": ["sha384"],
  "sha-512": ["sha512"],
  "sha3-224": ["sha3-224"],
  "sha3-256": ["sha3-256"],
  "sha3-384": ["sha3-384"],
  "sha3-512": ["sha3-512"],
  "blake2s-256": ["blake2s256"],
  "blake2b-512": ["blake2b512"],
};

/** RFC 7638 §3.2: the required members of each key type, the only ones a thumbprint covers. */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ["crv", "kty", "x", "y"],
  OKP: ["crv", "kty", "x"],
  RSA: ["e", "kty", "n"],
};

/** The RFC 7638 thumbprint of a public JWK by the hash `alg` names; undefined for a key without its members. */
export function thumbprintBy(jwk: JWK, alg: string): string | undefined {
  const [hash, bytes] = THUMBPRINT_HASHES[alg] ?? [];
  const members = typeof jwk.kty === "string" ? THUMBPRINT_MEMBERS[jwk.kty] : undefined;
  if (hash === undefined || members === undefined) return undefined;
  const canonical: Record<string, unknown> = {};
  for (const m of members) {
    const v = (jwk as Record<string, unknown>)[m];
    if (typeof v !== "string") return undefined;
    canonical[m] = v;
  }
  const digest = createHash(hash).update(JSON.stringify(canonical)).digest();
  return (bytes === undefined ? digest : digest.subarray(0, bytes)).toString("base64url");
}

/** What one place of a credential says of its holder key. */
type Named =
  | { readonly where: string; readonly key: JWK }
  /** It names a key, and that key is no proof's. */
  | { readonly where: string; readonly other: string }
  /** It looks like a binding the Wallet cannot read (an unknown hash). */
  | { readonly where: string; readonly unread: string };

/**
 * What a JWK thumbprint URI (RFC 9278) at `where` names among `candidates`: the key whose RFC
 * 7638 thumbprint, by the hash the URI names, is the URI's; undefined when it is no such URI.
 */
export function thumbprintUriNames(
  where: string,
  uri: string,
  candidates: readonly JWK[],
): Named | undefined {
  const m = THUMBPRINT_URI.exec(uri);
  if (!m) return undefined;
  const [, alg = "", value = ""] = m;
  if (THUMBPRINT_HASHES[alg] === undefined)
    return {
      where,
      unread: `it is a JWK thumbprint URI by hash ${show(alg)}, which the Wallet does not compute (${Object.keys(THUMBPRINT_HASHES).join(", ")})`,
    };
  const key = candidates.find((k) => thumbprintBy(k, alg) === value);
  return key !== undefined
    ? { where, key }
    : { where, other: `it is the ${alg} JWK thumbprint URI ${uri} of a key no proof holds` };
}

/**
 * The proof key a credential is bound to (specs/000 Rules 8: binding material is conveyed in
 * proofs): every key it names as its holder's (cnf.jwk; for jwt_vc_json also a did:jwk or an
 * RFC 9278 JWK thumbprint URI in sub or vc.credentialSubject.id, the subject identifiers of
 * VCDM 1.1 §6.3.1) is one of `proofKeys`, the same one; otherwise what is wrong. A credential
 * naming one key in cnf and another in sub is bound to neither. A thumbprint URI by a hash the
 * Wallet does not compute is no evidence either way: it binds nothing, and fails nothing that
 * another place binds.
 */
export function bindingOf(
  p: ParsedCredential,
  proofKeys: readonly JWK[],
): { key: JWK } | { problem: string } {
  const named: Named[] = [];
  const byKey = (where: string, k: JWK): void => {
    const key = proofKeys.find((c) => sameKey(k, c));
    named.push(
      key !== undefined
        ? { where, key }
        : {
            where,
            other: `it names key ${jwkThumbprint(k) ?? "(not a usable public JWK)"}, which no proof holds`,
          },
    );
  };
  if (p.cnfJwk !== undefined) byKey("cnf.jwk", p.cnfJwk);
  if (p.format === "jwt_vc_json") {
    const vc = p.payload.vc;
    const subject = typeof vc === "object" && vc !== null ? (vc as Json).credentialSubject : undefined;
    const subjectId =
      typeof subject === "object" && subject !== null && !Array.isArray(subject)
        ? (subject as Json).id
        : undefined;
    for (const [where, id] of [
      ["sub", p.payload.sub],
      ["vc.credentialSubject.id", subjectId],
    ] as const) {
      if (typeof id !== "string") continue;
      const did = didJwkKey(id);
      if (did !== undefined) byKey(where, did);
      const t = thumbprintUriNames(where, id, proofKeys);
      if (t !== undefined) named.push(t);
    }
  }
  const other = named.find((n) => "other" in n);
  if (other !== undefined && "other" in other) return { problem: `${other.where}: ${other.other}` };
  const bound = named.flatMap((n) => ("key" in n ? [n] : []));
  const keys = new Set(bound.map((n) => jwkThumbprint(n.key)));
  if (keys.size > 1)
    return { problem: `${bound.map((n) => n.where).join(", ")} name ${keys.size} different proof keys` };
  if (bound[0] !== undefined) return { key: bound[0].key };
  const unread = named.find((n) => "unread" in n);
  if (unread !== undefined && "unread" in unread) return { problem: `${unread.where}: ${unread.unread}` };
  return {
    problem:
      p.format === "jwt_vc_json"
        ? "no cnf.jwk, and neither a did:jwk nor a JWK thumbprint URI in sub or vc.credentialSubject.id"
        : p.cnfJwk === undefined && p.payload.cnf !== undefined
          ? "cnf has no usable jwk"
          : "no cnf.jwk",
  };
}

/** Leeway for the clocks of issuer and Wallet when judging a fresh credential's time claims. */
const CLOCK_SKEW_SECONDS = 300;

/** The contexts a W3C VC's `@context` starts with (VCDM 1.1 §4.1, VCDM 2.0 §4.3). */
const VC_CONTEXTS = ["https://www.w3.org/2018/credentials/v1", "https://www.w3.org/ns/credentials/v2"];

const isNonEmptyString = (x: unknown): x is string => typeof x === "string" && x !== "";

/**
 * What the format asks of every issued credential beyond its shape: the header `alg` is one the
 * configuration names in credential_signing_alg_values_supported (public §8.3 metadata); the
 * header typ of the format (dc+sd-jwt; for jwt_vc_json JWT when present); a fresh
 * credential is valid now (RFC 7519 §4.1.4/§4.1.5: not expired, not yet-to-begin; iat not in the
 * future); for jwt_vc_json the VCDM JWT encoding: `iss` (the issuer), `vc` with `@context`
 * starting with the VCDM context, `type` including VerifiableCredential, a non-empty
 * `credentialSubject`, whose `id`, when `sub` is there too, is `sub` (VCDM 1.1 §6.3.1).
 */
export function claimProblems(conf: Json, p: ParsedCredential, now: number): string[] {
  const out: string[] = [];
  const algs = conf.credential_signing_alg_values_supported;
  if (Array.isArray(algs) && algs.length > 0 && algs.every((a) => typeof a === "string"))
    if (!(algs as unknown[]).includes(p.header.alg))
      out.push(`alg ${show(p.header.alg)} is not in credential_signing_alg_values_supported`);
  const { iat, nbf, exp } = p.payload;
  for (const [name, v] of [
    ["iat", iat],
    ["nbf", nbf],
  ] as const) {
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v)) out.push(`${name} ${show(v)} is not a NumericDate`);
    else if (v > now + CLOCK_SKEW_SECONDS)
      out.push(`${name} ${v} lies in the future (now ${Math.floor(now)})`);
  }
  if (exp !== undefined) {
    if (typeof exp !== "number" || !Number.isFinite(exp)) out.push(`exp ${show(exp)} is not a NumericDate`);
    else if (exp <= now - CLOCK_SKEW_SECONDS)
      out.push(`exp ${exp}: expired when issued (now ${Math.floor(now)})`);
  }
  const typ = p.header.typ;
  if (p.format === "dc+sd-jwt") {
    // SD-JWT VC §3.2.1: explicitly typed dc+sd-jwt (vc+sd-jwt during the transition it names).
    if (typeof typ !== "string" || !["dc+sd-jwt", "vc+sd-jwt"].includes(typ.toLowerCase()))
      out.push(`header typ ${show(typ)} is not dc+sd-jwt`);
    return out;
  }
  // VCDM 1.1 §6.3.1: typ, if present, is JWT (VC-JOSE-COSE for VCDM 2.0: vc+jwt).
  if (typ !== undefined && (typeof typ !== "string" || !["jwt", "vc+jwt"].includes(typ.toLowerCase())))
    out.push(`header typ ${show(typ)} is neither JWT nor vc+jwt`);
  if (!isNonEmptyString(p.payload.iss)) out.push(`iss ${show(p.payload.iss)} is no issuer`);
  const vc = p.payload.vc;
  if (typeof vc !== "object" || vc === null || Array.isArray(vc)) return out;
  const v = vc as Json;
  // A single value may stand for a one-item set (JSON-LD compaction).
  const context: unknown = v["@context"];
  const contexts: unknown[] = Array.isArray(context) ? context : [context];
  if (!VC_CONTEXTS.includes(contexts[0] as string))
    out.push(`vc.@context ${show(context)} does not start with ${VC_CONTEXTS.join(" or ")}`);
  const type: unknown = v.type;
  const types: unknown[] = Array.isArray(type) ? type : [type];
  if (!types.includes("VerifiableCredential") || !types.every(isNonEmptyString))
    out.push(`vc.type ${show(type)} is not a set of type names including VerifiableCredential`);
  const subject = v.credentialSubject;
  const subjects = Array.isArray(subject) ? subject : [subject];
  const emptyOrNot =
    subjects.length === 0 ||
    subjects.some(
      (x) => typeof x !== "object" || x === null || Array.isArray(x) || Object.keys(x).length === 0,
    );
  if (emptyOrNot) out.push(`vc.credentialSubject ${show(subject)} has no claims`);
  else if (!Array.isArray(subject) && p.payload.sub !== undefined) {
    const id = (subject as Json).id;
    if (id !== undefined && id !== p.payload.sub)
      out.push(`vc.credentialSubject.id ${show(id)} is not sub ${show(p.payload.sub)}`);
  }
  return out;
}

/** VCI-CRED-SIGNATURE over every readable credential; skipped only when none could be judged. */
async function judgeSignatures(
  c: Ctx,
  r: IssuedCredentials,
  parsed: readonly ParsedCredential[],
): Promise<void> {
  const failed: string[] = [];
  const skipped: string[] = [];
  let verified = 0;
  for (const [i, p] of parsed.entries()) {
    const out = await judgeSignature(p, r.keysOf);
    if ("skip" in out) skipped.push(`credential ${i} of ${r.id}: ${out.skip}`);
    else if (out.ok) verified++;
    else failed.push(`credential ${i} of ${r.id} ${out.why}`);
  }
  if (failed.length > 0 || verified > 0) {
    c.check("VCI-CRED-SIGNATURE", failed.length === 0, {
      expected:
        "the issuer JWT of each dc+sd-jwt credential verifies with a key its iss publishes in SD-JWT VC issuer metadata (/.well-known/jwt-vc-issuer), by kid",
      actual: failed.join("; "),
      res: r.res,
    });
    if (skipped.length > 0) c.note(`VCI-CRED-SIGNATURE not judged for ${skipped.join("; ")}`);
  } else if (skipped[0] !== undefined)
    c.skipOnly(
      "VCI-CRED-SIGNATURE",
      skipped.length === 1 ? skipped[0] : `${skipped[0]} (and ${skipped.length - 1} more)`,
      "other",
    );
}
