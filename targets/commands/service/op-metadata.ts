import { CommandError, invalidRequest } from "../http/reply.js";
import { LIMITS } from "../limits.js";

/** The OP metadata the RP keeps for one (iss, tenant): what it acts on. */
export interface OpMetadata {
  readonly notificationEndpoint: string | undefined;
  readonly domains: readonly string[] | undefined;
  readonly claimsSupported: readonly string[] | undefined;
  readonly groups: readonly { id: string; display: string; description?: string }[] | undefined;
}

const KNOWN = new Set(["notification_endpoint", "domains", "claims_supported", "groups"]);
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Whether a notification_endpoint is acceptable: an https URL (specs/002 area A OP
 * Metadata object), or plain http on loopback, which this reference RP accepts for local
 * runs. Never credentials in the URL.
 */
function notificationUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(typeof value === "string" ? value : "");
  } catch {
    throw invalidRequest("metadata.notification_endpoint must be an https URL");
  }
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if ((url.protocol !== "https:" && !local) || url.username !== "" || url.password !== "") {
    throw invalidRequest("metadata.notification_endpoint must be an https URL");
  }
  return url.href;
}

function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw invalidRequest(`metadata.${name} must be an array of strings`);
  }
  return value as string[];
}

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

/**
 * Reads the `metadata` claim of a Metadata Command (specs/002 area A OP Metadata object).
 * Known members must have their types; unknown members are ignored ("MUST be ignored"),
 * unless `rejectUnknown` (the `metadata-unknown-field-rejected` fault).
 */
export function parseOpMetadata(value: unknown, rejectUnknown: boolean): OpMetadata {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidRequest("the metadata claim must be a JSON object");
  }
  if (JSON.stringify(value).length > LIMITS.maxMetadataBytes) {
    throw invalidRequest(`the metadata claim exceeds ${LIMITS.maxMetadataBytes} bytes`);
  }
  const m = value as Record<string, unknown>;
  const unknown = Object.keys(m).find((k) => !KNOWN.has(k));
  if (rejectUnknown && unknown !== undefined) {
    throw invalidRequest(`unknown metadata member ${JSON.stringify(unknown.slice(0, 64))}`);
  }
  return {
    notificationEndpoint:
      m.notification_endpoint === undefined ? undefined : notificationUrl(m.notification_endpoint),
    domains: m.domains === undefined ? undefined : stringArray(m.domains, "domains"),
    claimsSupported:
      m.claims_supported === undefined ? undefined : stringArray(m.claims_supported, "claims_supported"),
    groups: m.groups === undefined ? undefined : groupList(m.groups),
  };
}

/**
 * The OP metadata per (iss, tenant). A later Metadata Command replaces the earlier one
 * (specs/002 area A Endpoints: "replaces metadata previously exchanged"); under
 * `keepFirstEndpoint` (the `metadata-not-replaced` fault) the first notification_endpoint
 * ever received for the pair stays. Bounded at `maxTenants` pairs: one more answers 507.
 */
export class MetadataStore {
  private readonly byTenant = new Map<string, OpMetadata>();

  constructor(private readonly keepFirstEndpoint: boolean) {}

  private static key(iss: string, tenant: string): string {
    return `${iss}\u0000${tenant}`;
  }

  put(iss: string, tenant: string, metadata: OpMetadata): void {
    const key = MetadataStore.key(iss, tenant);
    const old = this.byTenant.get(key);
    if (old === undefined && this.byTenant.size >= LIMITS.maxTenants) {
      throw new CommandError(
        507,
        "server_error",
        `this RP keeps metadata for at most ${LIMITS.maxTenants} tenants`,
      );
    }
    const keep = this.keepFirstEndpoint && old?.notificationEndpoint !== undefined;
    this.byTenant.set(key, keep ? { ...metadata, notificationEndpoint: old.notificationEndpoint } : metadata);
  }

  get(iss: string, tenant: string): OpMetadata | undefined {
    return this.byTenant.get(MetadataStore.key(iss, tenant));
  }
}
