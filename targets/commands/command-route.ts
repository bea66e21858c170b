import type { Context } from "hono";
import type { FaultSet } from "./faults.js";
import { readCommandForm } from "./http/body.js";
import { CommandError, MalformedRequest, type Replier } from "./http/reply.js";
import type { AccountCommands } from "./service/account-commands.js";
import type { AsyncCommands } from "./service/async-commands.js";
import { asyncBase, isLifecycleCommand } from "./service/commands.js";
import { metadataCommand, type MetadataCommandDeps } from "./service/metadata-command.js";
import { auditTenant, type AuditTenantDeps } from "./stream/audit-tenant.js";
import { commandRequest, type AccountRequest, type CommandRequest } from "./token/command-rules.js";
import { verifyCommandToken, type VerifyContext } from "./token/verify.js";

export interface CommandRouteDeps {
  readonly faults: FaultSet;
  readonly reply: Replier;
  readonly verify: () => VerifyContext;
  readonly accountCommands: AccountCommands;
  readonly asyncCommands: AsyncCommands;
  readonly metadata: MetadataCommandDeps;
  readonly stream: AuditTenantDeps;
}

/** An Account Command: 200 (202 for the asynchronous forms) with its JSON body. */
function accountCommand(req: AccountRequest, d: CommandRouteDeps): Response {
  const { command } = req;
  if (command === "audit") {
    const res = d.reply.ok(d.accountCommands.audit(req));
    if (d.faults.has("audit-cacheable")) res.headers.delete("cache-control");
    return res;
  }
  if (command === "migrate") return d.reply.ok(d.accountCommands.migrate(req));
  if (isLifecycleCommand(command)) return d.reply.ok(d.accountCommands.lifecycle(req, command));
  const base = asyncBase(command);
  // Stryker disable next-line ConditionalExpression: unreachable: commandRequest admits only supported commands, and every supported account command has a handler
  if (base === undefined) throw new Error(`no handler for ${command}`);
  return d.reply.ok(d.asyncCommands.begin(req, base), d.faults.has("async-answers-200") ? 200 : 202);
}

/** Reads the form and validates its Command Token (steps 1 to 8). */
async function parse(raw: Request, d: CommandRouteDeps): Promise<CommandRequest & { redirect?: string }> {
  const { token, form } = await readCommandForm(raw, d.faults.has("unknown-param-rejected"));
  const req = commandRequest(await verifyCommandToken(token, d.verify()), d.faults);
  // Stryker disable next-line all: fault machinery: runs only under the login-hint-redirect fault
  return d.faults.has("login-hint-redirect") ? { ...req, ...loginRedirect(form, token) } : req;
}

/**
 * The login-hint-redirect fault: an RP of an older draft whose Command Endpoint shares the
 * route of its login initiated by a third party (OpenID Connect Core §4) takes a valid
 * command with an iss or login_hint form parameter for the start of a login, and carries the
 * Command Token along in the redirect.
 */
// Stryker disable all: fault machinery: runs only under the login-hint-redirect fault
function loginRedirect(form: URLSearchParams, token: string): { redirect?: string } {
  if (!form.has("iss") && !form.has("login_hint")) return {};
  const to = new URLSearchParams({ login_hint: form.get("login_hint") ?? "", command_token: token });
  return { redirect: `/login?${to.toString()}` };
}
// Stryker restore all

/**
 * POST /commands, the RP's Command Endpoint (specs/002 area A Endpoints): reads the form,
 * validates the Command Token, and runs the command. Failures are thrown as CommandError
 * and shaped by the app's error handler.
 */
export function commandEndpoint(d: CommandRouteDeps): (c: Context) => Promise<Response> {
  return async (c) => {
    const req = await parse(c.req.raw, d).catch((err: unknown) => {
      if (err instanceof MalformedRequest && d.faults.has("malformed-500")) {
        throw new CommandError(500, "server_error", undefined);
      }
      throw err;
    });
    // Stryker disable next-line all: fault machinery: redirect is set only under the login-hint-redirect fault
    if (req.redirect !== undefined) return c.redirect(req.redirect, 302);
    if (req.kind === "account") return accountCommand(req, d);
    if (req.command === "audit_tenant") {
      return auditTenant(
        req,
        { lastEventId: c.req.header("last-event-id"), acceptEncoding: c.req.header("accept-encoding") },
        d.stream,
      );
    }
    // Stryker disable next-line ConditionalExpression: unreachable: commandRequest parses the metadata claim of every metadata command
    if (req.metadata === undefined) throw new Error("metadata command without metadata");
    return d.reply.ok(metadataCommand(req, req.metadata, d.metadata));
  };
}
