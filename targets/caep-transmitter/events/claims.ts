import type { FaultSet } from "../faults.js";
import type { JsonObject } from "../http/json-body.js";
import type { CaepEventName } from "../ssf.js";

/**
 * What this Transmitter says in each CAEP 1.0 event (§3) when the hook gives no claims of its
 * own: the REQUIRED claims with values of their closed sets, and some OPTIONAL ones
 * (`reason_admin`/`reason_user` as language maps, CAEP 1.0 §2).
 */
function defaults(name: CaepEventName): JsonObject {
  switch (name) {
    // Stryker disable ConditionalExpression,StringLiteral,ObjectLiteral: session-revoked has no claim of its own: its claims here are optional (CAEP 1.0 §3.1), so none, or the next case's as unknown members (SSF §4.2.3), is as valid
    case "session-revoked":
      return {
        initiating_entity: "policy",
        reason_admin: { en: "Landspeed Policy Violation: C076E82F" },
        reason_user: {
          en: "Access attempt from multiple regions.",
          de: "Zugriffsversuch aus mehreren Regionen.",
        },
      };
    // Stryker restore all
    case "token-claims-change":
      // Stryker disable next-line StringLiteral: the value of a changed claim is the Transmitter's (any value is valid)
      return { claims: { role: "ro-admin" } };
    case "credential-change":
      return {
        credential_type: "fido2-roaming",
        change_type: "create",
        friendly_name: "Jane's USB authenticator",
        initiating_entity: "user",
        // Stryker disable next-line ObjectLiteral,StringLiteral: an optional claim: no reason, or an empty message in it, is as valid
        reason_admin: { en: "User self-enrollment" },
      };
    case "assurance-level-change":
      return {
        namespace: "NIST-AAL",
        current_level: "nist-aal2",
        previous_level: "nist-aal1",
        change_direction: "increase",
      };
    case "device-compliance-change":
      return { previous_status: "compliant", current_status: "not-compliant", initiating_entity: "policy" };
    // Stryker disable ConditionalExpression,StringLiteral,ObjectLiteral,ArrayDeclaration: session-established and session-presented have optional claims only (CAEP 1.0 §3.6, §3.7): other values, none, or the next case's as unknown members (SSF §4.2.3) are as valid
    case "session-established":
      return {
        fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9a4c81611",
        acr: "AAL2",
        amr: ["otp"],
        ext_id: "12345",
      };
    case "session-presented":
      return { fp_ua: "abb0b6e7da81a42233f8f2b1a8ddb1b9a4c81611", ext_id: "12345" };
    // Stryker restore all
    case "risk-level-change":
      return {
        principal: "USER",
        current_level: "HIGH",
        previous_level: "LOW",
        // Stryker disable next-line StringLiteral: risk_reason is a free string (RECOMMENDED, not REQUIRED)
        risk_reason: "PASSWORD_FOUND_IN_DATA_BREACH",
      };
  }
}

/**
 * The claims of one event: its defaults, the hook's claims over them, and `event_timestamp`
 * (the time it occurred, CAEP 1.0 §2) unless the hook gave one. The claim faults then apply.
 */
export function eventClaims(
  name: CaepEventName,
  given: JsonObject | undefined,
  now: number,
  faults: FaultSet,
): JsonObject {
  const claims: JsonObject = { event_timestamp: now, ...defaults(name), ...given };
  if (name === "risk-level-change" && faults.has("risk-no-principal")) delete claims.principal;
  if (name === "credential-change" && faults.has("credential-no-change-type")) delete claims.change_type;
  if (name === "device-compliance-change" && faults.has("device-status-noncompliant"))
    for (const k of ["previous_status", "current_status"])
      if (claims[k] === "not-compliant") claims[k] = "non-compliant";
  if (typeof claims.reason_admin === "object" && faults.has("reason-admin-string"))
    claims.reason_admin = Object.values(claims.reason_admin as JsonObject)[0];
  return claims;
}
