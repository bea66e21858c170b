import { CommandError, invalidRequest } from "../http/reply.js";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";

/** The OP metadata the RP keeps for one (iss, tenant): what it acts on. */
export interface OpMetadata {
  readonly notificationEndpoint: string | undefined;
  readonly domains: readonly string[] | undefined;
  readonly claimsSupported: readonly string[] | undefined;
  readonly groups: readonly { id: string; display: string; description?: string }[] | undefined;
}

// Stryker disable next-line ArrayDeclaration,StringLiteral: read only under the metadata-unknown-field-rejected fault (a clean RP ignores unknown members)
const KNOWN = new Set(["notification_endpoint", "domains", "claims_supported", "groups"]);
// Stryker disable next-line StringLiteral: this reference RP's allowance of plain http on loopback for local runs (the document asks for an https URL); the mock OP listens on 127.0.0.1
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Whether a notification_endpoint is acceptable: an https URL (specs/002 area A OP
 * Metadata object), or plain http on loopback, which this reference RP accepts for local
 * runs. Never credentials in the URL.
 */
function notificationUrl(value: unknown): string {
  let url: URL;
  // Stryker disable all: a notification_endpoint that is not an https URL: what the RP does (refuse the metadata, or never notify) the document leaves open; the checks send only valid ones (an empty try block fails every notification_endpoint, which the notification checks see)
  try {
    url = new URL(typeof value === "string" ? value : "");
  } catch {
    throw invalidRequest("metadata.notification_endpoint must be an https URL");
  }
  // Stryker restore all
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a notification_endpoint that is not an https URL: what the RP does (refuse the metadata, or never notify) the document leaves open; the checks send only valid ones
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  // Stryker disable next-line all: a notification_endpoint that is not an https URL: what the RP does (refuse the metadata, or never notify) the document leaves open; the checks send only valid ones
  if ((url.protocol !== "https:" && !local) || url.username !== "" || url.password !== "") {
    throw invalidRequest("metadata.notification_endpoint must be an https URL");
  }
  return url.href;
}

// Stryker disable next-line BlockStatement: domains, claims_supported and groups of the wrong type: the document leaves the RP's answer to a malformed known member open (only unknown members MUST be ignored), and this RP never acts on them
function stringArray(value: unknown, name: string): string[] {
  // Stryker disable next-line all: domains, claims_supported and groups of the wrong type: the document leaves the RP's answer to a malformed known member open (only unknown members MUST be ignored), and this RP never acts on them
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw invalidRequest(`metadata.${name} must be an array of strings`);
  }
  return value as string[];
}

// Stryker disable all: groups of the wrong type: the document leaves the RP's answer to a malformed
// known member open (only unknown members MUST be ignored), and this RP never acts on groups
function groupList(value: unknown): { id: string; display: string; description?: string }[] {
  if (!Array.isArray(value)) throw invalidRequest("metadata.groups must be an array of objects");
  return value.map((g: unknown) => {
    const o = (g ?? {}) as Record<string, unknown>;
    const ok =
      typeof g === "object" &&
      !Array.isArray(g) &&
      typeof o.id === "string" &&
      typeof o.display === "string" &&
      (o.description === undefined || typeof o.description === "string");
    if (!ok) throw invalidRequest("each metadata.groups entry needs string id and display");
    return {
      id: o.id as string,
      display: o.display as string,
      ...(typeof o.description === "string" ? { description: o.description } : {}),
    };
  });
}
// Stryker restore all

/**
 * Reads the `metadata` claim of a Metadata Command (specs/002 area A OP Metadata object).
 * Known members must have their types; unknown members are ignored ("MUST be ignored"),
 * unless `rejectUnknown` (the `metadata-unknown-field-rejected` fault).
 */
export function parseOpMetadata(value: unknown, rejectUnknown: boolean): OpMetadata {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidRequest("the metadata claim must be a JSON object");
  }
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: a memory bound of this RP; the document states no size
  if (JSON.stringify(value).length > LIMITS.maxMetadataBytes) {
    throw invalidRequest(`the metadata claim exceeds ${LIMITS.maxMetadataBytes} bytes`);
  }
  const m = value as Record<string, unknown>;
  // Stryker disable next-line ArrowFunction,BooleanLiteral: only the metadata-unknown-field-rejected fault reads it
  const unknown = Object.keys(m).find((k) => !KNOWN.has(k));
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: only the metadata-unknown-field-rejected fault reads it
  if (rejectUnknown && unknown !== undefined) {
    throw invalidRequest(`unknown metadata member ${JSON.stringify(unknown.slice(0, 64))}`);
  }
  const notificationEndpoint =
    m.notification_endpoint === undefined ? undefined : notificationUrl(m.notification_endpoint);
  // Stryker disable all: domains, claims_supported and groups are kept but never acted on by this RP (the document gives them no effect at the RP it could observe), and malformed ones are left open (see stringArray)
  const others = {
    domains: m.domains === undefined ? undefined : stringArray(m.domains, "domains"),
    claimsSupported:
      m.claims_supported === undefined ? undefined : stringArray(m.claims_supported, "claims_supported"),
    groups: m.groups === undefined ? undefined : groupList(m.groups),
  };
  // Stryker restore all
  return { notificationEndpoint, ...others };
}

/**
 * The OP metadata per (iss, tenant). A later Metadata Command replaces the earlier one
 * (specs/002 area A Endpoints: "replaces metadata previously exchanged"); under
 * `keepFirstEndpoint` (the `metadata-not-replaced` fault) the first notification_endpoint
 * ever received for the pair stays. Bounded at `maxTenants` pairs: one more answers 507.
 */
export class MetadataStore {
  private readonly byTenant = new Map<string, OpMetadata>();

  constructor(
    private readonly keepFirstEndpoint: boolean,
    /** The target's faults (`metadata-per-issuer`: one metadata per OP, whichever tenant sent it). */
    private readonly faults: FaultSet,
  ) {}

  private key(iss: string, tenant: string): string {
    return this.faults.has("metadata-per-issuer") ? iss : `${iss}\u0000${tenant}`;
  }

  put(iss: string, tenant: string, metadata: OpMetadata): void {
    const key = this.key(iss, tenant);
    const old = this.byTenant.get(key);
    // Stryker disable BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral: a memory bound of this RP; the document states no number of tenants
    if (old === undefined && this.byTenant.size >= LIMITS.maxTenants) {
      throw new CommandError(
        507,
        "server_error",
        `this RP keeps metadata for at most ${LIMITS.maxTenants} tenants`,
      );
    }
    // Stryker restore BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral
    // Stryker disable next-line ConditionalExpression,EqualityOperator,OptionalChaining: only the metadata-not-replaced fault keeps the first endpoint
    const keep = this.keepFirstEndpoint && old?.notificationEndpoint !== undefined;
    // Stryker disable next-line ObjectLiteral: only the metadata-not-replaced fault keeps the first endpoint
    this.byTenant.set(key, keep ? { ...metadata, notificationEndpoint: old.notificationEndpoint } : metadata);
  }

  get(iss: string, tenant: string): OpMetadata | undefined {
    return this.byTenant.get(this.key(iss, tenant));
  }
}
