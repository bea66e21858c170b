import { randomBytes } from "node:crypto";
import type { JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { fromB64url } from "../../mocks/wallet/b64.js";
import { parseCredential, type ParsedCredential } from "../../mocks/wallet/credential.js";
import type { HolderKey } from "../../mocks/wallet/keys.js";
import { jwkThumbprint, sameKey } from "../../mocks/wallet/thumbprint.js";
import { isObject, needsProof, said, type Json, type Vci } from "./client.js";

/**
 * The Wallet's plumbing for the credential endpoint checks: a fresh token per use, a good
 * request, the baseline that gives a refusal its meaning, and reading what comes back.
 */
/** One fresh access token and the configuration it is used for. */
export interface Session {
  readonly token: string;
  readonly tokenRes: HttpResponse;
  /** The configuration requested (the first usable one of the offer, unless asked otherwise). */
  readonly id: string;
  readonly conf: Json;
  /** Every usable configuration of the offer. */
  readonly ids: readonly string[];
}

/** A random value no issuer ever handed out. */
export const stranger = (prefix: string): string => `${prefix}-${randomBytes(12).toString("base64url")}`;

/** A fresh pre-authorized offer redeemed for a fresh access token (offers are cheap; tokens are never shared). */
export async function session(
  v: Vci,
  opts: { usesFixed?: boolean; configuration?: string } = {},
): Promise<Session> {
  const o = await v.offer("preAuthorized", opts.usesFixed ? { usesFixed: true } : {});
  const ids = await v.usableConfigurations(o);
  const id =
    opts.configuration !== undefined && ids.includes(opts.configuration) ? opts.configuration : ids[0];
  if (id === undefined)
    v.c.skip("the offer names no usable configuration: see VCI-OFFER-CONFIG-KNOWN", "dependency");
  const conf = await v.configuration(id);
  const { token, res } = await v.accessToken(o);
  return { token, tokenRes: res, id, conf, ids };
}

/**
 * The Credential Request for a session's configuration with one good jwt proof of `key` (fresh
 * nonce), naming the credential the way the Token Response says (`Vci.target`).
 */
export async function goodRequest(
  v: Vci,
  s: Pick<Session, "id" | "conf" | "tokenRes">,
  key: HolderKey,
): Promise<Json> {
  return {
    ...v.target(s.tokenRes, s.id),
    ...(needsProof(s.conf) ? { proofs: { jwt: [await v.proof(key)] } } : {}),
  };
}

/**
 * A valid Credential Request on a fresh access token: the baseline that makes a refusal (or a
 * failure of a variant) mean something. Skips the check, naming VCI-CRED-ISSUE, when even it fails.
 */
export async function baseline(v: Vci): Promise<Session> {
  const s = await session(v);
  const r = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
    label: "valid credential request (baseline)",
  });
  if (r.res.status !== 200)
    v.c.skip(
      `a valid Credential Request on a fresh access token answered ${said(r.res)}, so this check's observation would prove nothing: see VCI-CRED-ISSUE`,
      "dependency",
    );
  return s;
}

/** The `credential` values of a Credential Response (elements without one are left out). */
export function credentialValues(b: Json): unknown[] {
  const list = b.credentials;
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is Json => isObject(e) && e.credential !== undefined).map((e) => e.credential);
}

/** A target's value in a problem text: bounded and depth-safe (`absent` when undefined). */
export const show = (v: unknown): string => quote(v, 80);

/** What is wrong with a 200 Credential Response body (public §8.3), given the number of proofs sent. */
export function shapeProblems(b: Json, proofs: number): string[] {
  const p: string[] = [];
  const list = b.credentials;
  if (!Array.isArray(list) || list.length === 0)
    p.push(`credentials is ${show(list)}, not a non-empty array`);
  else {
    list.forEach((e, i) => {
      if (!isObject(e)) p.push(`credentials[${i}] is not an object`);
      else if (typeof e.credential !== "string" && !isObject(e.credential))
        p.push(`credentials[${i}].credential is ${show(e.credential)}, not a string or object`);
    });
    if (proofs > 0 && list.length > proofs) p.push(`${list.length} credentials for ${proofs} proof(s)`);
  }
  if (b.notification_id !== undefined && typeof b.notification_id !== "string")
    p.push(`notification_id is ${show(b.notification_id)}, not a string`);
  if (b.transaction_id !== undefined) p.push("transaction_id is present beside credentials");
  return p;
}

/** Formats the Wallet reads. */
export const readableFormat = (f: unknown): f is "dc+sd-jwt" | "jwt_vc_json" =>
  f === "dc+sd-jwt" || f === "jwt_vc_json";

/** Parses one credential of `conf`; problems (shape, and vct against the configuration) are collected. */
export function readCredential(
  conf: Json,
  value: unknown,
  where: string,
): { parsed: ParsedCredential | undefined; problems: string[] } {
  try {
    const parsed = parseCredential(String(conf.format), value);
    const problems = parsed.problems.map((p) => `${where}: ${p}`);
    if (conf.format === "dc+sd-jwt" && typeof conf.vct === "string" && parsed.payload.vct !== conf.vct)
      problems.push(`${where}: vct ${show(parsed.payload.vct)}, not the configuration's ${conf.vct}`);
    return { parsed, problems };
  } catch (e) {
    return { parsed: undefined, problems: [`${where}: ${(e as Error).message}`] };
  }
}

/** The longest did:jwk the Wallet decodes; a longer one names no key. */
export const MAX_DID_JWK = 8 * 1024;

/** The public JWK a `did:jwk:<base64url JWK JSON>` (optionally with a DID URL fragment) names; bounded. */
export function didJwkKey(did: unknown): JWK | undefined {
  if (typeof did !== "string" || did.length > MAX_DID_JWK || !did.startsWith("did:jwk:")) return undefined;
  const encoded = did.slice("did:jwk:".length).split("#")[0] ?? "";
  const bytes = fromB64url(encoded);
  if (!bytes || bytes.length === 0) return undefined;
  try {
    const jwk: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return isObject(jwk) && jwkThumbprint(jwk) !== undefined ? (jwk as JWK) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every key a credential names as its holder's: `cnf.jwk`, and for jwt_vc_json a did:jwk in
 * `sub` or `vc.credentialSubject.id` (the W3C VC way of binding a subject to a key).
 */
export function boundKeys(p: ParsedCredential): JWK[] {
  const keys: JWK[] = [];
  if (p.cnfJwk !== undefined && jwkThumbprint(p.cnfJwk) !== undefined) keys.push(p.cnfJwk);
  if (p.format === "jwt_vc_json") {
    const vc = p.payload.vc;
    const subject = isObject(vc) ? vc.credentialSubject : undefined;
    for (const did of [p.payload.sub, isObject(subject) ? subject.id : undefined]) {
      const k = didJwkKey(did);
      if (k !== undefined) keys.push(k);
    }
  }
  return keys;
}

/**
 * The key a credential is bound to: the first of its bound keys that is one of `candidates`
 * (the proofs' keys), else the first it names; undefined when it names none.
 */
export function boundKeyOf(p: ParsedCredential, candidates: readonly JWK[] = []): JWK | undefined {
  const keys = boundKeys(p);
  return keys.find((k) => candidates.some((c) => sameKey(k, c))) ?? keys[0];
}

/** The thumbprint of the key a credential is bound to, for findings (public keys only). */
export const cnfShown = (p: ParsedCredential): string => {
  const k = boundKeyOf(p);
  if (k !== undefined) return `bound to key ${jwkThumbprint(k) ?? "(not a usable public JWK)"}`;
  return p.format === "jwt_vc_json"
    ? "no cnf.jwk and no did:jwk in sub or vc.credentialSubject.id"
    : "no usable cnf.jwk";
};
