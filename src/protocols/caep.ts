/**
 * The CAEP event rules (specs/002 area B, public-spec-facts §4), in one place for both
 * directions: the receiver suite and its mock Transmitter build events from them, the
 * transmitter suite and its mock Receiver judge events by them. The reference targets are
 * written independently and never import this module.
 */

/** Event type URIs are this base followed by the event name (public-spec-facts §4). */
export const CAEP_EVENT_BASE = "https://schemas.openid.net/secevent/caep/event-type/";
/** The SSF verification event (public-spec-facts §4, stream management). */
export const SSF_VERIFICATION_EVENT = "https://schemas.openid.net/secevent/ssf/event-type/verification";
/** JOSE `typ` of a SET (SSF). */
export const SET_TYP = "secevent+jwt";
/** Media type of a pushed SET (RFC 8935 §2). */
export const SET_MEDIA_TYPE = "application/secevent+jwt";
/** Delivery method URNs (SSF: push is RFC 8935, poll is RFC 8936). */
export const DELIVERY_PUSH = "urn:ietf:rfc:8935";
export const DELIVERY_POLL = "urn:ietf:rfc:8936";
/** The discovery document's well-known segment, inserted between host and path. */
export const SSF_WELL_KNOWN = "/.well-known/ssf-configuration";
/**
 * Error codes of a push failure (RFC 8935 §2.4 and the SSF registration), also the `err` of poll
 * `setErrs` (RFC 8936).
 */
export const DELIVERY_ERROR_CODES = [
  "invalid_request",
  "invalid_key",
  "invalid_issuer",
  "invalid_audience",
  "authentication_failed",
  "access_denied",
  // SSF registers it for a verification event whose state the Receiver did not ask for.
  "invalid_state",
] as const;
export type DeliveryErrorCode = (typeof DELIVERY_ERROR_CODES)[number];

/** The discovery URL of a Transmitter issuer: the well-known segment after the host. */
export function ssfConfigurationUrl(issuer: string): string {
  const u = new URL(issuer);
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "");
  return `${u.origin}${SSF_WELL_KNOWN}${path}`;
}

/** The eight CAEP event types of specs/002 area B (Events 3). */
export const CAEP_EVENT_NAMES = [
  "session-revoked",
  "token-claims-change",
  "credential-change",
  "assurance-level-change",
  "device-compliance-change",
  "session-established",
  "session-presented",
  "risk-level-change",
] as const;
export type CaepEventName = (typeof CAEP_EVENT_NAMES)[number];

export const eventUri = (name: CaepEventName): string => `${CAEP_EVENT_BASE}${name}`;

/** The CAEP event name of a URI, or undefined for any other URI. */
export function eventNameOf(uri: string): CaepEventName | undefined {
  if (!uri.startsWith(CAEP_EVENT_BASE)) return undefined;
  const name = uri.slice(CAEP_EVENT_BASE.length);
  return (CAEP_EVENT_NAMES as readonly string[]).includes(name) ? (name as CaepEventName) : undefined;
}

/** How one event claim is judged. */
export interface ClaimRule {
  readonly type: "string" | "number" | "object" | "string-array" | "language-map";
  /** REQUIRED by the document or the facts. */
  readonly required?: boolean;
  /** RECOMMENDED (a SHOULD). */
  readonly recommended?: boolean;
  /** Values the document or facts name. */
  readonly values?: readonly string[];
  /** Whether values outside `values` are allowed ("or a custom agreed alias"). */
  readonly open?: boolean;
}

/** Claims every event may carry (specs/002 area B, "Claims available in every event"). */
export const COMMON_CLAIMS: Readonly<Record<string, ClaimRule>> = {
  event_timestamp: { type: "number" },
  // The document shows policy and user; the facts give the whole set.
  initiating_entity: { type: "string", values: ["admin", "user", "policy", "system"] },
  reason_admin: { type: "language-map" },
  reason_user: { type: "language-map" },
};

const RISK_LEVELS = ["LOW", "MEDIUM", "HIGH"];
const COMPLIANCE = ["compliant", "not-compliant"];

/** Event-specific claims per type (specs/002 area B event table, public-spec-facts §4). */
export const EVENT_CLAIMS: Readonly<Record<CaepEventName, Readonly<Record<string, ClaimRule>>>> = {
  "session-revoked": {},
  "token-claims-change": { claims: { type: "object", required: true } },
  "credential-change": {
    credential_type: {
      type: "string",
      required: true,
      open: true,
      values: [
        "password",
        "pin",
        "x509",
        "fido2-platform",
        "fido2-roaming",
        "fido-u2f",
        "verifiable-credential",
        "phone-voice",
        "phone-sms",
        "app",
      ],
    },
    change_type: { type: "string", required: true, values: ["create", "revoke", "update", "delete"] },
    friendly_name: { type: "string" },
    x509_issuer: { type: "string" },
    x509_serial: { type: "string" },
    fido2_aaguid: { type: "string" },
  },
  "assurance-level-change": {
    namespace: {
      type: "string",
      required: true,
      open: true,
      values: ["RFC8176", "RFC6711", "ISO-IEC-29115", "NIST-IAL", "NIST-AAL", "NIST-FAL"],
    },
    current_level: { type: "string", required: true },
    previous_level: { type: "string" },
    change_direction: { type: "string", values: ["increase", "decrease"] },
  },
  "device-compliance-change": {
    previous_status: { type: "string", required: true, values: COMPLIANCE },
    current_status: { type: "string", required: true, values: COMPLIANCE },
  },
  "session-established": {
    fp_ua: { type: "string" },
    acr: { type: "string" },
    amr: { type: "string-array" },
    ext_id: { type: "string" },
  },
  "session-presented": { fp_ua: { type: "string" }, ext_id: { type: "string" } },
  "risk-level-change": {
    risk_reason: { type: "string", recommended: true },
    principal: {
      type: "string",
      required: true,
      open: true,
      values: ["USER", "DEVICE", "SESSION", "TENANT", "ORG_UNIT", "GROUP"],
    },
    current_level: { type: "string", required: true, values: RISK_LEVELS },
    previous_level: { type: "string", values: RISK_LEVELS },
  },
};

/** Members of each simple subject identifier format (RFC 9493 and SSF, public-spec-facts §4). */
export const SUBJECT_FORMATS: Readonly<Record<string, readonly string[]>> = {
  account: ["uri"],
  email: ["email"],
  iss_sub: ["iss", "sub"],
  opaque: ["id"],
  phone_number: ["phone_number"],
  did: ["url"],
  uri: ["uri"],
  aliases: ["identifiers"],
  jwt_id: ["iss", "jti"],
  saml_assertion_id: ["issuer", "assertion_id"],
  "ip-addresses": ["ip-addresses"],
};
/** Members a `complex` subject may name, each a subject identifier (SSF). */
export const COMPLEX_MEMBERS = [
  "user",
  "device",
  "session",
  "application",
  "tenant",
  "org_unit",
  "group",
] as const;
/** Every format name, `complex` included. */
export const SUBJECT_FORMAT_NAMES: readonly string[] = [...Object.keys(SUBJECT_FORMATS), "complex"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/**
 * What is wrong with a subject identifier: an empty list when it is a valid identifier of a
 * known format. `complex` members and `aliases` identifiers are judged in turn (no `complex`
 * inside another subject, no `aliases` inside `aliases`); unknown extra members are allowed.
 */
export function subjectProblems(subject: unknown, path = "sub_id", depth = 0): string[] {
  if (!isObject(subject)) return [`${path} is not a JSON object`];
  const format = subject.format;
  if (typeof format !== "string") return [`${path}.format is missing or not a string`];
  if (format === "complex") {
    if (depth > 0) return [`${path} is a complex subject inside another subject`];
    // SSF lets a complex subject carry member names beyond the known ones; it must name something.
    if (Object.keys(subject).length < 2) return [`${path} is complex but names no member`];
    const named = COMPLEX_MEMBERS.filter((m) => subject[m] !== undefined);
    return named.flatMap((m) => subjectProblems(subject[m], `${path}.${m}`, depth + 1));
  }
  // Own members only: a format named "constructor" or "__proto__" is unknown, not Object's.
  const members = Object.hasOwn(SUBJECT_FORMATS, format) ? SUBJECT_FORMATS[format] : undefined;
  if (members === undefined) return [`${path}.format ${show(format)} is not a known subject format`];
  if (format === "aliases") {
    const ids = subject.identifiers;
    if (!Array.isArray(ids) || ids.length === 0) return [`${path}.identifiers is not a non-empty array`];
    // RFC 9493 forbids aliases inside aliases; SSF lets a complex member be aliases.
    return ids.flatMap((s, i) => {
      const inner = `${path}.identifiers[${i}]`;
      if (isObject(s) && s.format === "aliases") return [`${inner} is an aliases subject inside aliases`];
      return subjectProblems(s, inner, depth + 1);
    });
  }
  if (format === "ip-addresses") {
    const ips = subject["ip-addresses"];
    const ok = Array.isArray(ips) && ips.length > 0 && ips.every((a) => typeof a === "string" && a !== "");
    return ok ? [] : [`${path}.ip-addresses is not a non-empty array of strings`];
  }
  return members
    .filter((m) => typeof subject[m] !== "string" || subject[m] === "")
    .map((m) => `${path}.${m} is missing or not a non-empty string`);
}

function claimProblems(name: string, value: unknown, rule: ClaimRule, path: string): string[] {
  const at = `${path}.${name}`;
  switch (rule.type) {
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? [] : [`${at} is not a number`];
    case "object":
      if (!isObject(value)) return [`${at} is not a JSON object`];
      // A REQUIRED object says something only with a member (token-claims-change: the claims
      // that changed, "one or more").
      return rule.required && Object.keys(value).length === 0 ? [`${at} is an empty object (REQUIRED)`] : [];
    case "string-array":
      return Array.isArray(value) && value.every((v) => typeof v === "string")
        ? []
        : [`${at} is not an array of strings`];
    case "language-map": {
      if (!isObject(value) || Object.keys(value).length === 0)
        return [`${at} is not a map from language tag to message with at least one pair`];
      const bad = Object.entries(value).find(
        ([k, v]) => typeof v !== "string" || !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(k),
      );
      return bad ? [`${at} member ${show(bad[0])} is not a language tag with a string message`] : [];
    }
    case "string":
      if (typeof value !== "string") return [`${at} is not a string`];
      // A REQUIRED string that is empty names nothing, in an open set of values too.
      if (rule.required && value === "") return [`${at} is an empty string (REQUIRED)`];
      if (rule.values && !rule.open && !rule.values.includes(value))
        return [`${at} ${show(value)} is not one of ${rule.values.join(", ")}`];
      return [];
  }
}

/**
 * What is wrong with one event's claim object under its event type URI: required claims
 * missing, claims of the wrong type, values outside a closed value set. Only the eight CAEP
 * types and the verification event are judged; any other URI gives no problem (an unknown
 * event type is not this module's to judge).
 */
export function eventProblems(uri: string, claims: unknown, path = `events[${uri}]`): string[] {
  const name = eventNameOf(uri);
  if (name === undefined && uri !== SSF_VERIFICATION_EVENT) return [];
  if (!isObject(claims)) return [`${path} is not a JSON object`];
  if (uri === SSF_VERIFICATION_EVENT)
    return claims.state === undefined || typeof claims.state === "string"
      ? []
      : [`${path}.state is not a string`];
  const rules: Record<string, ClaimRule> = { ...COMMON_CLAIMS, ...EVENT_CLAIMS[name!] };
  const out: string[] = [];
  for (const [claim, rule] of Object.entries(rules)) {
    const v = claims[claim];
    if (v === undefined) {
      if (rule.required) out.push(`${path}.${claim} is missing (REQUIRED)`);
      continue;
    }
    out.push(...claimProblems(claim, v, rule, path));
  }
  return out;
}

/** Claims a SET of a CAEP event must carry (SSF, public-spec-facts §4). */
export const SET_REQUIRED_CLAIMS = ["iss", "iat", "jti", "events", "sub_id"] as const;
/** Claims a SET must not carry (SSF: the JWT `sub` MUST NOT be present, `exp` MUST NOT be used). */
export const SET_FORBIDDEN_CLAIMS = ["sub", "exp"] as const;
