import type { JWK } from "jose";
import { wellKnownUrl } from "../../src/protocols/vci.js";
import { verifyIssuerSignature, type ParsedCredential } from "../../mocks/wallet/credential.js";
import { isObject, said, type Ctx } from "./client.js";
import { show } from "./session.js";

// The issuer's keys for its credentials (SD-JWT VC issuer metadata of the credential's iss),
// and the judgement of one credential's signature with them (VCI-CRED-SIGNATURE).

/** Most published keys tried against a signature without kid. */
const MAX_TRIED_KEYS = 20;

/** Keys of one issuer from its SD-JWT VC issuer metadata, or why there are none. */
export type IssuerKeys = { keys: JWK[] } | { none: string };

/**
 * The keys an SD-JWT VC issuer `iss` publishes: SD-JWT VC issuer metadata at
 * /.well-known/jwt-vc-issuer inserted before the path of `iss` (its `issuer` equal to `iss`),
 * `jwks` inline or at an https `jwks_uri`. Only an https `iss` is looked up (plain http too
 * when options.allowInsecureHttp allows it).
 */
export async function issuerKeys(c: Ctx, iss: string): Promise<IssuerKeys> {
  let u: URL;
  try {
    u = new URL(iss);
  } catch {
    return { none: `iss ${show(iss)} is not a URL` };
  }
  // TLS is mandatory (Authentication 5); plain http only in a run with options.allowInsecureHttp.
  const fetchable = (p: string): boolean => p === "https:" || (p === "http:" && c.http.allowsPlainHttp);
  if (!fetchable(u.protocol)) return { none: `iss ${show(iss)} is not an https URL` };
  const res = await c.http.get(wellKnownUrl(iss, "/.well-known/jwt-vc-issuer"), {
    headers: { accept: "application/json" },
    label: "SD-JWT VC issuer metadata",
  });
  if (res.status !== 200 || !isObject(res.json))
    return { none: `the SD-JWT VC issuer metadata of ${iss} answered ${said(res)}` };
  const m = res.json;
  if (m.issuer !== iss)
    return { none: `the SD-JWT VC issuer metadata names issuer ${show(m.issuer)}, not the credential's iss` };
  const keysOf = (j: unknown): JWK[] | undefined =>
    isObject(j) && Array.isArray(j.keys) ? (j.keys.slice(0, 1000).filter(isObject) as JWK[]) : undefined;
  if (m.jwks !== undefined) {
    const inline = keysOf(m.jwks);
    return inline && inline.length > 0 ? { keys: inline } : { none: "its jwks holds no key" };
  }
  if (typeof m.jwks_uri !== "string")
    return { none: "the SD-JWT VC issuer metadata has neither jwks nor jwks_uri" };
  let k: URL;
  try {
    k = new URL(m.jwks_uri);
  } catch {
    return { none: `jwks_uri ${show(m.jwks_uri)} is not a URL` };
  }
  if (!fetchable(k.protocol)) return { none: `jwks_uri ${show(m.jwks_uri)} is not https` };
  const got = await c.http.get(k, {
    headers: { accept: "application/json" },
    label: "SD-JWT VC issuer keys (jwks_uri)",
  });
  const keys = got.status === 200 ? keysOf(got.json) : undefined;
  return keys && keys.length > 0 ? { keys } : { none: `jwks_uri answered ${said(got)}, with no key` };
}

/** How one credential's issuer signature fared. */
export type SignatureOutcome = { ok: true } | { ok: false; why: string } | { skip: string };

/**
 * Judges the issuer signature of one dc+sd-jwt credential with the keys its `iss` publishes
 * (`keysOf` caches the lookups per iss): by `kid`, or without one by any published key.
 */
export async function judgeSignature(
  p: ParsedCredential,
  keysOf: (iss: string) => Promise<IssuerKeys>,
): Promise<SignatureOutcome> {
  if (p.format !== "dc+sd-jwt")
    return { skip: `a ${p.format} credential: the document gives no way to find its issuer's key` };
  if (p.header.x5c !== undefined)
    return {
      skip: "the credential is signed under an x5c certificate chain, whose trust the document does not give",
    };
  const iss = p.payload.iss;
  if (typeof iss !== "string")
    return { skip: "the credential has no iss, so its issuer key cannot be found" };
  const published = await keysOf(iss);
  if ("none" in published) return { skip: `its iss publishes no key (${published.none})` };
  const kid = p.header.kid;
  if (typeof kid === "string") {
    const key = published.keys.find((k) => k.kid === kid);
    if (key === undefined)
      return {
        ok: false,
        why: `kid ${show(kid)} is not among the ${published.keys.length} keys iss publishes`,
      };
    return (await verifyIssuerSignature(p, { keys: [key] }))
      ? { ok: true }
      : { ok: false, why: `does not verify with the published key ${show(kid)} (alg ${show(p.header.alg)})` };
  }
  const tried = published.keys.slice(0, MAX_TRIED_KEYS);
  for (const key of tried) if (await verifyIssuerSignature(p, { keys: [key] })) return { ok: true };
  if (published.keys.length > MAX_TRIED_KEYS)
    return {
      skip: `no kid, and none of the first ${MAX_TRIED_KEYS} of the ${published.keys.length} published keys verifies it (the rest are not tried)`,
    };
  return {
    ok: false,
    why: `no kid, and none of the ${tried.length} published keys verifies it (alg ${show(p.header.alg)})`,
  };
}
