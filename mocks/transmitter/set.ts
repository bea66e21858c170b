import { createHash, randomUUID } from "node:crypto";
import { calculateJwkThumbprint, CompactSign, importJWK, type JWK } from "jose";
import {
  CAEP_EVENT_NAMES,
  COMMON_CLAIMS,
  EVENT_CLAIMS,
  SET_TYP,
  SSF_VERIFICATION_EVENT,
  eventUri,
  type CaepEventName,
} from "../../src/protocols/caep.js";

/**
 * The Security Event Tokens the mock Transmitter and the caep-receiver checks send
 * (specs/002 area B "security event token envelope", public-spec-facts §4 SET rules, RFC 8417).
 * Valid tokens come from here; a check breaks one property of a valid token (deletes a claim,
 * adds `sub` or `exp`, changes a header member) and re-signs it with `signSet`, and takes the
 * signature forgeries from src/engine/token-attacks.ts.
 */

/** An event given by CAEP name, `"verification"` (the SSF verification event) or any URI. */
export type SetEvent = CaepEventName | "verification" | (string & {});

export interface BuildSetOptions {
  readonly issuer: string;
  /** The Receiver's audience: a string or an array holding it (SETs may carry either). */
  readonly audience: string | readonly string[];
  readonly event: SetEvent;
  /** The event's claim object; default: `exampleClaims(name, "required")` (`{}` for other URIs). */
  readonly claims?: Record<string, unknown>;
  /** The `sub_id`; default: `exampleSubject("email", 0)`. */
  readonly subject?: Record<string, unknown>;
  readonly txn?: string;
  readonly jti?: string;
  /** `iat`, seconds since the epoch (tests fix it). */
  readonly now?: number;
}

/** The event type URI of a CAEP name, of `"verification"`, or the URI itself. */
export function setEventUri(event: SetEvent): string {
  if (event === "verification") return SSF_VERIFICATION_EVENT;
  return (CAEP_EVENT_NAMES as readonly string[]).includes(event) ? eventUri(event as CaepEventName) : event;
}

/**
 * A valid SET payload (SSF; RFC 8417 §2.2): iss, iat, a fresh jti, aud, txn, the top-level
 * `sub_id`, and `events` holding exactly one event (SSF: events SHOULD hold one). No `sub` and
 * no `exp` (SSF forbids both).
 */
export function buildSet(o: BuildSetOptions): Record<string, unknown> {
  const uri = setEventUri(o.event);
  const name = CAEP_EVENT_NAMES.find((n) => eventUri(n) === uri);
  const claims = o.claims ?? (name ? exampleClaims(name, "required") : {});
  return {
    iss: o.issuer,
    iat: o.now ?? Math.floor(Date.now() / 1000),
    jti: o.jti ?? randomUUID(),
    aud: typeof o.audience === "string" ? o.audience : [...o.audience],
    txn: o.txn ?? randomUUID(),
    sub_id: o.subject ?? exampleSubject("email", 0),
    events: { [uri]: claims },
  };
}

/** Claims an event type REQUIRES, with realistic values (specs/002 area B event table, §4). */
const REQUIRED: Record<CaepEventName, Record<string, unknown>> = {
  "session-revoked": {},
  "token-claims-change": { claims: { role: "ro-admin", groups: ["support"] } },
  "credential-change": { credential_type: "fido2-roaming", change_type: "create" },
  "assurance-level-change": { namespace: "NIST-AAL", current_level: "nist-aal2" },
  "device-compliance-change": { previous_status: "compliant", current_status: "not-compliant" },
  "session-established": {},
  "session-presented": {},
  "risk-level-change": { principal: "USER", current_level: "HIGH" },
};

/** Every optional claim an event type names, consistent with its required ones. */
const OPTIONAL: Record<CaepEventName, Record<string, unknown>> = {
  "session-revoked": {},
  "token-claims-change": {},
  "credential-change": {
    friendly_name: "Jane's USB security key",
    x509_issuer: "CN=Example Issuing CA,O=Example,C=US",
    x509_serial: "0b7d3d4ea5f1",
    fido2_aaguid: "2fc0579f-8113-47ea-b116-bb5a8db9202a",
  },
  "assurance-level-change": { previous_level: "nist-aal1", change_direction: "increase" },
  "device-compliance-change": {},
  "session-established": {
    fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9a4c81611",
    acr: "AAL2",
    amr: ["pwd", "otp"],
    ext_id: "12345",
  },
  "session-presented": { fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9a4c81611", ext_id: "12345" },
  "risk-level-change": { risk_reason: "PASSWORD_FOUND_IN_DATA_BREACH", previous_level: "LOW" },
};

/**
 * Valid claims of one CAEP event: `"required"` only what the type REQUIRES, `"full"` also
 * every optional claim of the type and every claim available in every event
 * (`event_timestamp`, `initiating_entity`, `reason_admin` and `reason_user` maps).
 */
export function exampleClaims(
  name: CaepEventName,
  mode: "required" | "full",
  now = Math.floor(Date.now() / 1000),
): Record<string, unknown> {
  const required = structuredClone(REQUIRED[name]);
  if (mode === "required") return required;
  return {
    ...required,
    ...structuredClone(OPTIONAL[name]),
    event_timestamp: now - 5,
    initiating_entity: "policy",
    reason_admin: { en: "Policy violation: landspeed", de: "Richtlinienverstoß: Reisegeschwindigkeit" },
    reason_user: {
      en: "Access attempt from multiple regions.",
      "es-410": "Intento de acceso desde varias regiones.",
    },
  };
}

/** The claims `exampleClaims(name, "full")` sets: every claim the rules name for the type. */
export const ALL_CLAIM_NAMES = (name: CaepEventName): string[] => [
  ...Object.keys(COMMON_CLAIMS),
  ...Object.keys(EVENT_CLAIMS[name]),
];

/** A short stable token derived from the seed, so different seeds give different subjects. */
const tag = (seed: string | number): string =>
  createHash("sha256").update(String(seed)).digest("hex").slice(0, 10);

/**
 * A valid subject identifier of the format (RFC 9493 and SSF, public-spec-facts §4), with
 * members derived from `seed`: every simple format, `aliases` (an email and a phone number)
 * and `complex` (a user by email and a session by opaque id).
 */
export function exampleSubject(format: string, seed: string | number = 0): Record<string, unknown> {
  const t = tag(seed);
  const digits = String(parseInt(t.slice(0, 8), 16) % 10_000).padStart(4, "0");
  const email = { format: "email", email: `user-${t}@example.com` };
  switch (format) {
    case "account":
      return { format, uri: `acct:user-${t}@example.com` };
    case "email":
      return email;
    case "iss_sub":
      return { format, iss: "https://idp.example.com/", sub: `user-${t}` };
    case "opaque":
      return { format, id: `opaque-${t}` };
    case "phone_number":
      return { format, phone_number: `+1206555${digits}` };
    case "did":
      return { format, url: `did:example:${t}` };
    case "uri":
      return { format, uri: `https://users.example.com/${t}` };
    case "aliases":
      return { format, identifiers: [email, { format: "phone_number", phone_number: `+1206555${digits}` }] };
    case "jwt_id":
      return { format, iss: "https://idp.example.com/", jti: `jwt-${t}` };
    case "saml_assertion_id":
      return { format, issuer: "https://idp.example.com/saml", assertion_id: `_${t}` };
    case "ip-addresses":
      return {
        format,
        "ip-addresses": [`192.0.2.${parseInt(t.slice(0, 2), 16) % 255}`, `2001:db8::${t.slice(0, 4)}`],
      };
    case "complex":
      return { format, user: email, session: { format: "opaque", id: `session-${t}` } };
    default:
      throw new Error(`no example subject for format ${JSON.stringify(format)}`);
  }
}

/** The algorithm a key signs with: its own `alg`, else its key type's usual one. */
export function keyAlg(jwk: JWK): string {
  if (typeof jwk.alg === "string") return jwk.alg;
  if (jwk.kty === "RSA") return "RS256";
  if (jwk.kty === "OKP") return "EdDSA";
  return ({ "P-384": "ES384", "P-521": "ES512" } as Record<string, string>)[jwk.crv ?? ""] ?? "ES256";
}

/** A signing key with its `alg` and a `kid` (the RFC 7638 thumbprint when it has none). */
export async function completeKey(jwk: JWK): Promise<JWK> {
  return { ...jwk, alg: keyAlg(jwk), kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)) };
}

// Imported keys, so a bench of thousands of SETs pays the import once per key.
const imported = new Map<string, Promise<CryptoKey | Uint8Array>>();

function importCached(jwk: JWK, alg: string): Promise<CryptoKey | Uint8Array> {
  const id = `${alg}:${JSON.stringify(jwk)}`;
  let k = imported.get(id);
  if (!k) {
    if (imported.size >= 32) imported.clear();
    k = importJWK(jwk, alg);
    imported.set(id, k);
  }
  return k;
}

/**
 * Signs a SET (compact JWS) with the Transmitter's private JWK: header `alg` of the key, `typ`
 * `secevent+jwt`, the key's `kid`, then `header` (an `undefined` value removes a member, so
 * `{ typ: undefined }` gives a token without typ). A string payload is signed as it is (a
 * payload that is not JSON). An `alg` given in `header` must fit the key (forgeries with other
 * algorithms come from src/engine/token-attacks.ts).
 */
export async function signSet(
  payload: Record<string, unknown> | string,
  privateJwk: JWK,
  header: Record<string, unknown> = {},
): Promise<string> {
  const alg = keyAlg(privateJwk);
  const h: Record<string, unknown> = {
    alg,
    typ: SET_TYP,
    ...(privateJwk.kid ? { kid: privateJwk.kid } : {}),
  };
  for (const [k, v] of Object.entries(header)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  const bytes = new TextEncoder().encode(typeof payload === "string" ? payload : JSON.stringify(payload));
  return new CompactSign(bytes)
    .setProtectedHeader(h as { alg: string })
    .sign(await importCached(privateJwk, alg));
}
