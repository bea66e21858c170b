import { SignJWT } from "jose";
import type { FaultSet } from "../faults.js";
import type { JsonObject } from "../http/json-body.js";
import type { SigningKey } from "../service/keys.js";
import { SET_TYP } from "../ssf.js";

/** What one SET says: who issues it, to whom, about whom, which event, and its ids. */
export interface SetContent {
  readonly issuer: string;
  readonly aud: string;
  readonly jti: string;
  readonly txn: string;
  readonly subject: JsonObject;
  /** Event type URI to event claims; one event (SSF 1.0 §4.2.1). */
  readonly events: Readonly<Record<string, JsonObject>>;
}

/** A plain name of the subject for a JWT sub (only the `sub-claim` fault writes one). */
// Stryker disable all: read only under the sub-claim fault
function subjectName(s: JsonObject): string {
  const v = s.email ?? s.id ?? s.sub ?? s.uri ?? s.phone_number;
  return typeof v === "string" ? v : JSON.stringify(s);
}
// Stryker restore all

/**
 * The claims of a SET (RFC 8417 §2.2, SSF 1.0 §4.1): iss, aud, iat, jti, txn (SSF §4.1.9: one
 * per underlying event), the subject as the top-level sub_id (§4.1.2), the event; never a JWT
 * sub or exp (§4.1.3, §4.1.7).
 */
export function setClaims(c: SetContent, nowMs: number, faults: FaultSet): JsonObject {
  const iat = faults.has("iat-milliseconds") ? nowMs : Math.floor(nowMs / 1000);
  const claims: JsonObject = {
    iss: faults.has("iss-trailing-slash") ? `${c.issuer}/` : c.issuer,
    aud: c.aud,
    iat,
    jti: c.jti,
    sub_id: c.subject,
    events: c.events,
  };
  // Stryker disable next-line ConditionalExpression: equivalent without the no-txn fault
  if (!faults.has("no-txn")) claims.txn = c.txn;
  if (faults.has("sub-claim")) claims.sub = subjectName(c.subject);
  if (faults.has("exp-claim")) claims.exp = Math.floor(nowMs / 1000) + 3600;
  if (faults.has("subject-in-event")) {
    delete claims.sub_id;
    claims.events = Object.fromEntries(
      Object.entries(c.events).map(([uri, e]) => [uri, { ...e, subject: c.subject }]),
    );
  }
  return claims;
}

/** Signs SET claims: ES256 with the signing key's kid, explicitly typed (SSF 1.0 §4.1.1). */
export function signSet(claims: JsonObject, key: SigningKey, faults: FaultSet): Promise<string> {
  const typ = faults.has("typ-missing") ? {} : { typ: SET_TYP };
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: key.kid, ...typ }).sign(key.privateKey);
}
