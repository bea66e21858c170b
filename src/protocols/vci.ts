/**
 * The identifiers of the credential issuance interface (specs/000), in one place. The
 * document's names contain `std`; real deployments use the published `openid` names
 * (specs/README.md). A profile chooses the set; targets, mocks and checks read it from here.
 */
export type IdentifierSetName = "std" | "openid";

export interface VciIdentifiers {
  readonly name: IdentifierSetName;
  /** authorization_details type (Rules 11). */
  readonly authorizationDetailsType: string;
  /** Well-known path segment of the issuer metadata (Endpoints: metadata). */
  readonly wellKnown: string;
  /** Custom scheme of a Credential Offer invocation (Endpoints: Wallet Credential Offer Endpoint). */
  readonly offerScheme: string;
  /** JOSE typ of signed issuer metadata (Resources: Signed Credential Issuer Metadata). */
  readonly metadataJwtTyp: string;
  /** JOSE typ of a `jwt` proof (public-spec-facts §1, appendix F.1). */
  readonly proofTyp: string;
}

export const IDENTIFIER_SETS: Readonly<Record<IdentifierSetName, VciIdentifiers>> = {
  std: {
    name: "std",
    authorizationDetailsType: "std_credential",
    wellKnown: "/.well-known/std-credential-issuer",
    offerScheme: "std-credential-offer://",
    metadataJwtTyp: "stdvci-issuer-metadata+jwt",
    proofTyp: "std4vci-proof+jwt",
  },
  openid: {
    name: "openid",
    authorizationDetailsType: "openid_credential",
    wellKnown: "/.well-known/openid-credential-issuer",
    offerScheme: "openid-credential-offer://",
    metadataJwtTyp: "openidvci-issuer-metadata+jwt",
    proofTyp: "openid4vci-proof+jwt",
  },
};

/** Grant type of the Pre-Authorized Code Flow (Rules 5). */
export const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** RFC 8414 well-known path of Authorization Server metadata. */
export const AS_WELL_KNOWN = "/.well-known/oauth-authorization-server";

/**
 * Inserts a well-known segment between an identifier's host and its path (specs/000
 * Endpoints: metadata; RFC 8414 §3): `https://h/tenant` gives `https://h<wellKnown>/tenant`.
 * A trailing slash of the identifier's path is kept out of the result.
 */
export function wellKnownUrl(identifier: string, wellKnown: string): string {
  const u = new URL(identifier);
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "");
  return `${u.origin}${wellKnown}${path}`;
}

/**
 * The wording of a run with identifier set `name`: each `std` identifier, as requirement texts
 * and check titles write it, becomes the set's own (src/engine/requirement.ts Wording).
 */
export function identifierWording(name: IdentifierSetName): { set: string; terms: Record<string, string> } {
  const std = IDENTIFIER_SETS.std;
  const set = IDENTIFIER_SETS[name];
  const keys = ["authorizationDetailsType", "metadataJwtTyp", "proofTyp", "offerScheme"] as const;
  const terms: Record<string, string> = Object.fromEntries(keys.map((k) => [std[k], set[k]]));
  // Texts write the well-known path with or without its leading "/.well-known/".
  terms[std.wellKnown.replace("/.well-known/", "")] = set.wellKnown.replace("/.well-known/", "");
  return { set: name, terms };
}
