import { describe, expect, it } from "vitest";
import { calculateJwkThumbprint, calculateJwkThumbprintUri, type JWK } from "jose";
import type { ParsedCredential } from "../../mocks/wallet/credential.js";
import { holderKey } from "../../mocks/wallet/keys.js";
import { sameKey } from "../../mocks/wallet/thumbprint.js";
import { bindingOf, thumbprintBy } from "../../suites/vci/judge-credentials.js";

const credential = (
  format: "dc+sd-jwt" | "jwt_vc_json",
  payload: Record<string, unknown>,
  cnfJwk?: JWK,
): ParsedCredential => ({
  format,
  header: {},
  payload,
  ...(cnfJwk !== undefined ? { cnfJwk } : {}),
  disclosures: [],
  undisclosedDigestsOk: true,
  problems: [],
  issuerJwt: "",
});

const boundKey = (p: ParsedCredential, keys: JWK[]): JWK | string => {
  const b = bindingOf(p, keys);
  return "key" in b ? b.key : b.problem;
};

// VCI-CRED-BOUND-TO-PROOF and VCI-BATCH: specs/000 Rules 8; RFC 9278 JWK thumbprint URIs.
describe("a jwt_vc_json credential bound by a JWK thumbprint URI subject (RFC 9278)", () => {
  it("is bound to the proof key whose sha-256 thumbprint URI is its sub, without cnf", async () => {
    const a = await holderKey("ES256");
    const b = await holderKey("EdDSA");
    const uri = await calculateJwkThumbprintUri(b.publicJwk);
    const got = boundKey(credential("jwt_vc_json", { sub: uri }), [a.publicJwk, b.publicJwk]);
    expect(typeof got !== "string" && sameKey(got, b.publicJwk)).toBe(true);
    const inSubject = credential("jwt_vc_json", { vc: { credentialSubject: { id: uri } } });
    expect(typeof boundKey(inSubject, [b.publicJwk])).toBe("object");
  });

  it("computes RFC 7638 thumbprints as jose does, for EC, OKP and RSA keys and each hash", async () => {
    for (const alg of ["ES256", "EdDSA", "PS256"] as const) {
      const { publicJwk } = await holderKey(alg);
      expect(thumbprintBy(publicJwk, "sha-256")).toBe(await calculateJwkThumbprint(publicJwk, "sha256"));
      expect(thumbprintBy(publicJwk, "sha-384")).toBe(await calculateJwkThumbprint(publicJwk, "sha384"));
      expect(thumbprintBy(publicJwk, "sha-512")).toBe(await calculateJwkThumbprint(publicJwk, "sha512"));
    }
    const { publicJwk } = await holderKey("ES256");
    const full = Buffer.from(thumbprintBy(publicJwk, "sha-256")!, "base64url");
    expect(thumbprintBy(publicJwk, "sha-256-128")).toBe(full.subarray(0, 16).toString("base64url"));
    expect(thumbprintBy({ kty: "oct", k: "AAAA" }, "sha-256")).toBeUndefined();
    expect(thumbprintBy(publicJwk, "md5")).toBeUndefined();
  });

  it("takes the hash the URI names and says so when it is one the Wallet does not compute", async () => {
    const a = await holderKey("ES256");
    for (const alg of ["sha-384", "sha-512", "sha3-256", "sha-256-128"]) {
      const uri = `urn:ietf:params:oauth:jwk-thumbprint:${alg}:${thumbprintBy(a.publicJwk, alg)!}`;
      expect(typeof boundKey(credential("jwt_vc_json", { sub: uri }), [a.publicJwk])).toBe("object");
    }
    // The sha-256 value under the name sha-384 is no thumbprint of the key.
    const mislabelled = `urn:ietf:params:oauth:jwk-thumbprint:sha-384:${a.thumbprint}`;
    expect(boundKey(credential("jwt_vc_json", { sub: mislabelled }), [a.publicJwk])).toMatch(
      /a key no proof holds/,
    );
    const sha1 = `urn:ietf:params:oauth:jwk-thumbprint:sha-1:${a.thumbprint}`;
    expect(boundKey(credential("jwt_vc_json", { sub: sha1 }), [a.publicJwk])).toMatch(
      /by hash "sha-1", which the Wallet does not compute/,
    );
    // A URI it cannot read is no evidence against the cnf.jwk that binds the credential.
    const both = credential("jwt_vc_json", { sub: sha1 }, a.publicJwk);
    expect(typeof boundKey(both, [a.publicJwk])).toBe("object");
  });

  it("is not bound by the thumbprint URI of a key no proof holds", async () => {
    const a = await holderKey("ES256");
    const other = await holderKey("ES256");
    const uri = await calculateJwkThumbprintUri(other.publicJwk);
    expect(boundKey(credential("jwt_vc_json", { sub: uri }), [a.publicJwk])).toMatch(
      /sub: it is the sha-256 JWK thumbprint URI .* of a key no proof holds/,
    );
  });

  it("is bound to neither key when cnf names one key and sub another", async () => {
    const a = await holderKey("ES256");
    const b = await holderKey("ES256");
    const p = credential("jwt_vc_json", { sub: await calculateJwkThumbprintUri(b.publicJwk) }, a.publicJwk);
    expect(boundKey(p, [a.publicJwk, b.publicJwk])).toMatch(/different proof keys/);
  });

  it("reads no thumbprint URI in an SD-JWT VC's sub, and names what is missing", async () => {
    const a = await holderKey("ES256");
    const uri = await calculateJwkThumbprintUri(a.publicJwk);
    expect(boundKey(credential("dc+sd-jwt", { sub: uri }), [a.publicJwk])).toBe("no cnf.jwk");
    expect(boundKey(credential("jwt_vc_json", { sub: "urn:example:x" }), [a.publicJwk])).toMatch(
      /neither a did:jwk nor a JWK thumbprint URI/,
    );
    expect(typeof boundKey(credential("dc+sd-jwt", {}, a.publicJwk), [a.publicJwk])).toBe("object");
  });
});
