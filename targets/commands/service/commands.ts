/**
 * The commands this RP supports (specs/002 area A Endpoints, command table; Tenant
 * Commands with streaming). Anything else answers 400 unsupported_command, so
 * `commands_supported` and the unsupported_command answers always agree.
 */

/** Account commands of the lifecycle table (States and transitions: Account lifecycle). */
export const LIFECYCLE_COMMANDS = [
  "activate",
  "maintain",
  "suspend",
  "reactivate",
  "archive",
  "restore",
  "delete",
  "invalidate",
] as const;
export type LifecycleCommand = (typeof LIFECYCLE_COMMANDS)[number];

/** Lifecycle commands with an asynchronous form (`<command>_async`); all but invalidate. */
export const ASYNC_BASES = [
  "activate",
  "maintain",
  "suspend",
  "reactivate",
  "archive",
  "restore",
  "delete",
] as const satisfies readonly LifecycleCommand[];
export type AsyncBase = (typeof ASYNC_BASES)[number];
export type AsyncCommand = `${AsyncBase}_async`;

export const TENANT_COMMANDS = ["metadata", "audit_tenant"] as const;
export type TenantCommand = (typeof TENANT_COMMANDS)[number];

export type AccountCommand = LifecycleCommand | "audit" | "migrate" | AsyncCommand;
export type SupportedCommand = AccountCommand | TenantCommand;

/** Every supported command name, as the Metadata Response lists them. */
export const SUPPORTED_COMMANDS: readonly SupportedCommand[] = [
  "metadata",
  ...LIFECYCLE_COMMANDS,
  "audit",
  "migrate",
  "audit_tenant",
  ...ASYNC_BASES.map((b): AsyncCommand => `${b}_async`),
];

const SUPPORTED = new Set<string>(SUPPORTED_COMMANDS);

export const isSupported = (command: string): command is SupportedCommand => SUPPORTED.has(command);

export const isTenantCommand = (command: SupportedCommand): command is TenantCommand =>
  (TENANT_COMMANDS as readonly string[]).includes(command);

/** The synchronous base of an asynchronous command name, or undefined for a synchronous one. */
export function asyncBase(command: SupportedCommand): AsyncBase | undefined {
  // Stryker disable next-line StringLiteral: equivalent: only _async names reach asyncBase (command-route serves the other account commands first)
  if (!command.endsWith("_async")) return undefined;
  return command.slice(0, -"_async".length) as AsyncBase;
}

/** Claims of the Command Token protocol itself; every other claim is an account claim. */
// Stryker disable all: which token claims the RP keeps beside the account claims is its choice (audit MUST include the claims it retained that the OP provided, and may carry more); the protocol claims are refused or resolved before they could matter
export const PROTOCOL_CLAIMS = new Set([
  "iss",
  "aud",
  "client_id",
  "iat",
  "exp",
  "nbf",
  "jti",
  "command",
  "sub",
  "aud_sub",
  "tenant",
  "metadata",
  "authentication_provider",
  "nonce",
]);
// Stryker restore all

export const isLifecycleCommand = (command: string): command is LifecycleCommand =>
  (LIFECYCLE_COMMANDS as readonly string[]).includes(command);
