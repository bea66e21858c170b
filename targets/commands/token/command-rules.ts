import type { FaultSet } from "../faults.js";
import { CommandError, invalidRequest } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import {
  isSupported,
  isTenantCommand,
  PROTOCOL_CLAIMS,
  type AccountCommand,
  type TenantCommand,
} from "../service/commands.js";
import { parseOpMetadata, type OpMetadata } from "../service/op-metadata.js";
import { optionalIdentifier } from "./claims.js";
import type { VerifiedToken } from "./verify.js";

export type AuthenticationProvider = "op" | "op_migration";

/** What every command request carries: the OP and the tenant. */
interface CommandBase {
  readonly iss: string;
  readonly tenant: string;
}

/** A Tenant Command (Metadata, Audit Tenant). */
export interface TenantRequest extends CommandBase {
  readonly kind: "tenant";
  readonly command: TenantCommand;
  /** Present in (and only in) the Metadata Command. */
  readonly metadata: OpMetadata | undefined;
}

/** An Account Command: the account named by aud_sub and/or sub, and its claims. */
export interface AccountRequest extends CommandBase {
  readonly kind: "account";
  readonly command: AccountCommand;
  readonly sub: string | undefined;
  readonly audSub: string | undefined;
  /** Every claim besides the protocol ones (given_name, email, groups, ...). */
  readonly accountClaims: Record<string, unknown>;
  /** Present in (and only in) the Migrate Command, unless a fault lets it be missing. */
  readonly authenticationProvider: AuthenticationProvider | undefined;
}

export type CommandRequest = TenantRequest | AccountRequest;

/** The account claims of a token: everything but the protocol claims, bounded. */
function accountClaims(payload: Record<string, unknown>): Record<string, unknown> {
  // Stryker disable next-line MethodExpression: protocol claims kept as account claims only add members to audit answers and stream events, which the document does not forbid
  const entries = Object.entries(payload).filter(([k]) => !PROTOCOL_CLAIMS.has(k));
  // Stryker disable next-line all: a bound of this RP (the document states none)
  if (entries.length > LIMITS.maxAccountClaims) {
    throw invalidRequest(`a command token carries at most ${LIMITS.maxAccountClaims} account claims`);
  }
  const claims = Object.fromEntries(entries);
  // Stryker disable next-line all: a bound of this RP (the document states none)
  if (JSON.stringify(claims).length > LIMITS.maxAccountClaimsBytes) {
    throw invalidRequest(`the account claims exceed ${LIMITS.maxAccountClaimsBytes} bytes`);
  }
  return claims;
}

function authenticationProvider(
  payload: Record<string, unknown>,
  command: AccountCommand,
  faults: FaultSet,
): AuthenticationProvider | undefined {
  const value = payload.authentication_provider;
  if (command !== "migrate") {
    if (value !== undefined && !faults.has("auth-provider-anywhere")) {
      throw invalidRequest("authentication_provider is only allowed in migrate");
    }
    return undefined;
  }
  if (value === undefined && faults.has("migrate-without-provider")) return undefined;
  if (value !== "op" && value !== "op_migration") {
    throw invalidRequest("migrate requires authentication_provider op or op_migration");
  }
  return value;
}

/**
 * Steps 7 and 8 of command validation (specs/002 area A Command Token, Endpoints, Errors):
 * the command must be supported (else 400 unsupported_command), and its claims must fit it:
 * sub PROHIBITED in Tenant Commands, sub or aud_sub in Account Commands, metadata REQUIRED
 * in the Metadata Command and PROHIBITED elsewhere, authentication_provider likewise for
 * Migrate (op or op_migration).
 */
export function commandRequest(token: VerifiedToken, faults: FaultSet): CommandRequest {
  const { payload, claims } = token;
  const { iss, tenant } = claims;
  // Fault metadata-async-accepted: metadata_async is served as if it were metadata.
  const command =
    claims.command === "metadata_async" && faults.has("metadata-async-accepted")
      ? "metadata"
      : claims.command;
  if (!isSupported(command) || (command === "metadata" && faults.has("metadata-unsupported"))) {
    if (faults.has("unsupported-as-invalid")) throw invalidRequest("unknown command");
    throw new CommandError(400, "unsupported_command", "this RP does not support the command");
  }
  const sub = optionalIdentifier(payload, "sub");
  const audSub = faults.has("aud-sub-ignored") ? undefined : optionalIdentifier(payload, "aud_sub");
  const metadataAllowed =
    command === "metadata" || (faults.has("account-metadata-accepted") && !isTenantCommand(command));
  if (payload.metadata !== undefined && !metadataAllowed) {
    throw invalidRequest("the metadata claim is only allowed in the metadata command");
  }
  if (isTenantCommand(command)) {
    if (sub !== undefined && !faults.has("tenant-sub-accepted")) {
      throw invalidRequest("sub is prohibited in tenant commands");
    }
    if (payload.authentication_provider !== undefined && !faults.has("auth-provider-anywhere")) {
      throw invalidRequest("authentication_provider is only allowed in migrate");
    }
    if (command === "metadata" && payload.metadata === undefined && !faults.has("metadata-claim-optional")) {
      throw invalidRequest("the metadata command requires the metadata claim");
    }
    const metadata =
      // Stryker disable next-line ConditionalExpression: equivalent: audit_tenant never reads a metadata member
      command === "metadata"
        ? parseOpMetadata(
            // metadata-claim-optional lets a metadata command without the claim through as {}.
            // Stryker disable next-line ConditionalExpression: equivalent: a metadata command without the claim was refused above, unless the metadata-claim-optional fault is on
            payload.metadata === undefined ? {} : payload.metadata,
            faults.has("metadata-unknown-field-rejected"),
          )
        : undefined;
    // Stryker disable next-line StringLiteral: equivalent: the route tells the kinds apart by "account"
    return { kind: "tenant", iss, tenant, command, metadata };
  }
  if (
    sub === undefined &&
    // Stryker disable next-line ConditionalExpression: sub is REQUIRED in Account Commands (public-spec-facts §3), so refusing a command that names its account by aud_sub alone is conformant too
    audSub === undefined &&
    // Stryker disable next-line ConditionalExpression: equivalent: no fault is on in a mutation run
    !faults.has("account-sub-optional")
  ) {
    throw invalidRequest("an account command requires sub or aud_sub");
  }
  return {
    kind: "account",
    iss,
    tenant,
    command,
    // Fault account-sub-optional: a command naming no account acts on the account "".
    // A command naming no account was refused above, unless the account-sub-optional fault is on.
    sub: sub ?? (audSub === undefined && faults.has("account-sub-optional") ? "" : undefined),
    audSub,
    accountClaims: accountClaims(payload),
    authenticationProvider: authenticationProvider(payload, command, faults),
  };
}
