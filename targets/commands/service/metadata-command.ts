import type { FaultSet } from "../faults.js";
import type { TenantRequest } from "../token/command-rules.js";
import { SUPPORTED_COMMANDS } from "./commands.js";
import type { MetadataStore, OpMetadata } from "./op-metadata.js";

/** The RP's roles (specs/002 area A Response properties: roles, each id, display, description). */
export const ROLES = [
  { id: "viewer", display: "Viewer", description: "reads documents" },
  { id: "editor", display: "Editor", description: "reads and changes documents" },
  { id: "admin", display: "Administrator" },
] as const;

export const CLIENT_NAME = "idconform demo RP";

export interface MetadataCommandDeps {
  readonly metadata: MetadataStore;
  readonly faults: FaultSet;
  readonly clientId: string;
  readonly commandEndpoint: () => string;
  readonly jwksUri: () => string;
}

/** commands_supported as the faults shape it (missing metadata, or overclaiming invalidate_async). */
function commandsSupported(faults: FaultSet): string[] {
  // Stryker disable next-line MethodExpression: equivalent: the filter drops an entry only under the commands-supported-no-metadata fault
  const list: string[] = SUPPORTED_COMMANDS.filter(
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: with the commands-supported-no-metadata fault off, every entry is kept whatever c is
    (c) => c !== "metadata" || !faults.has("commands-supported-no-metadata"),
  );
  return faults.has("commands-supported-overclaims") ? [...list, "invalidate_async"] : list;
}

/**
 * The Metadata Command (specs/002 area A Endpoints; Metadata Response): stores the OP's
 * metadata for (iss, tenant), replacing any earlier one, and answers the RP's metadata.
 */
export function metadataCommand(
  req: TenantRequest,
  opMetadata: OpMetadata,
  d: MetadataCommandDeps,
): Record<string, unknown> {
  d.metadata.put(req.iss, req.tenant, opMetadata);
  const { faults } = d;
  const endpoint = d.commandEndpoint();
  return {
    context: faults.has("metadata-context-no-tenant")
      ? { iss: req.iss }
      : { iss: req.iss, tenant: req.tenant },
    commands_supported: commandsSupported(faults),
    command_endpoint: faults.has("metadata-endpoint-wrong") ? new URL(endpoint).origin : endpoint,
    ...(faults.has("metadata-no-client-id") ? {} : { client_id: d.clientId }),
    aud_sub_required: true,
    roles: ROLES.map((r) => (faults.has("roles-without-display") ? { id: r.id } : { ...r })),
    jwks_uri: d.jwksUri(),
    client_name: CLIENT_NAME,
  };
}
