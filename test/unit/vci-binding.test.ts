import { describe, expect, it } from "vitest";
import type { ParsedCredential } from "../../mocks/wallet/credential.js";
import { holderKey } from "../../mocks/wallet/keys.js";
import { sameKey } from "../../mocks/wallet/credential.js";
import { boundKeyOf, didJwkKey, MAX_DID_JWK } from "../../suites/vci/session.js";

const didJwk = (jwk: object): string => `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString("base64url")}`;

const parsed = (format: "dc+sd-jwt" | "jwt_vc_json", payload: Record<string, unknown>): ParsedCredential => ({
  format,
  header: {},
  payload,
  ...(typeof payload.cnf === "object" && payload.cnf !== null
    ? { cnfJwk: (payload.cnf as { jwk: never }).jwk }
    : {}),
  disclosures: [],
  undisclosedDigestsOk: true,
  problems: [],
  issuerJwt: "",
});

// VCI-CRED-BOUND-TO-PROOF and VCI-BATCH read the holder key where the format puts it.
describe("holder key binding of a credential (specs/000 Rules 8)", () => {
  it("reads did:jwk (with or without a fragment) and refuses garbage and oversized values", async () => {
    const { publicJwk } = await holderKey("ES256");
    expect(sameKey(didJwkKey(didJwk(publicJwk)), publicJwk)).toBe(true);
    expect(sameKey(didJwkKey(`${didJwk(publicJwk)}#0`), publicJwk)).toBe(true);
    expect(didJwkKey("did:jwk:not-base64-json")).toBeUndefined();
    expect(didJwkKey("did:example:123")).toBeUndefined();
    expect(didJwkKey(42)).toBeUndefined();
    expect(didJwkKey(`did:jwk:${"A".repeat(MAX_DID_JWK)}`)).toBeUndefined();
  });

  it("takes cnf.jwk, or for jwt_vc_json a did:jwk subject; an SD-JWT's sub names no key", async () => {
    const a = await holderKey("ES256");
    const b = await holderKey("EdDSA");
    expect(sameKey(boundKeyOf(parsed("dc+sd-jwt", { cnf: { jwk: a.publicJwk } })), a.publicJwk)).toBe(true);
    const vc = parsed("jwt_vc_json", { vc: { credentialSubject: { id: didJwk(b.publicJwk) } } });
    expect(sameKey(boundKeyOf(vc, [a.publicJwk, b.publicJwk]), b.publicJwk)).toBe(true);
    expect(boundKeyOf(parsed("dc+sd-jwt", { sub: didJwk(a.publicJwk) }))).toBeUndefined();
    expect(boundKeyOf(parsed("jwt_vc_json", { vc: {} }))).toBeUndefined();
  });
});
