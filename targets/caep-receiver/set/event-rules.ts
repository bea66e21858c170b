import { CAEP_BASE } from "../ssf.js";

/** How one event claim is read: its JSON type, whether it is REQUIRED, and a closed value set. */
export interface ClaimSpec {
  readonly kind: "string" | "number" | "object" | "strings" | "messages";
  readonly required?: true;
  /** The only values allowed ("MUST be one of"); a set the text leaves open is not listed. */
  readonly oneOf?: readonly string[];
}

type Table = Readonly<Record<string, ClaimSpec>>;

const STATUS = ["compliant", "not-compliant"];
const RISK = ["LOW", "MEDIUM", "HIGH"];

/** CAEP 1.0 §2 (Optional Event Claims): claims any event may carry. */
export const COMMON: Table = {
  event_timestamp: { kind: "number" },
  initiating_entity: { kind: "string", oneOf: ["admin", "user", "policy", "system"] },
  reason_admin: { kind: "messages" },
  reason_user: { kind: "messages" },
};

/**
 * CAEP 1.0 §3: each event type's own claims. credential_type, namespace and principal admit
 * values agreed between the parties, so only their type is checked.
 */
export const EVENTS: Readonly<Record<string, Table>> = {
  "session-revoked": {},
  "token-claims-change": { claims: { kind: "object", required: true } },
  "credential-change": {
    credential_type: { kind: "string", required: true },
    change_type: { kind: "string", required: true, oneOf: ["create", "revoke", "update", "delete"] },
    friendly_name: { kind: "string" },
    x509_issuer: { kind: "string" },
    x509_serial: { kind: "string" },
    fido2_aaguid: { kind: "string" },
  },
  "assurance-level-change": {
    namespace: { kind: "string", required: true },
    current_level: { kind: "string", required: true },
    previous_level: { kind: "string" },
    change_direction: { kind: "string", oneOf: ["increase", "decrease"] },
  },
  "device-compliance-change": {
    previous_status: { kind: "string", required: true, oneOf: STATUS },
    current_status: { kind: "string", required: true, oneOf: STATUS },
  },
  "session-established": {
    fp_ua: { kind: "string" },
    acr: { kind: "string" },
    amr: { kind: "strings" },
    ext_id: { kind: "string" },
  },
  "session-presented": { fp_ua: { kind: "string" }, ext_id: { kind: "string" } },
  "risk-level-change": {
    risk_reason: { kind: "string" },
    principal: { kind: "string", required: true },
    current_level: { kind: "string", required: true, oneOf: RISK },
    previous_level: { kind: "string", oneOf: RISK },
  },
};

/** The CAEP event name of a URI this Receiver handles, or undefined. */
export function caepEventName(uri: string): string | undefined {
  if (!uri.startsWith(CAEP_BASE)) return undefined;
  const name = uri.slice(CAEP_BASE.length);
  return Object.hasOwn(EVENTS, name) ? name : undefined;
}

/** The event type URIs this Receiver handles (what it asks a Transmitter for). */
export const HANDLED_EVENTS: readonly string[] = Object.keys(EVENTS).map((n) => `${CAEP_BASE}${n}`);
