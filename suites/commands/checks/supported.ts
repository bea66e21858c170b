import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { CommandsProfile } from "../profile.js";
import { kindRank, type FindingKind } from "../../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { ASYNC, body, CommandClient, isError, LIFECYCLE, refusal, said, TENANT_COMMANDS } from "../client.js";

/**
 * The kind of a disagreement with commands_supported: a command listed but refused, or one left
 * out that the RP acts on (a 2xx, or 409 incompatible_state: it knows the command), is a wrong
 * list; one left out that the RP refuses with 400 and another error, the wrong code; any other
 * answer to it, the wrong status.
 */
function listingKind(listed: boolean, res: HttpResponse): FindingKind {
  if (listed || (res.status >= 200 && res.status < 300) || isError(res, 409, "incompatible_state"))
    return "wrong-value";
  return res.status === 400 && typeof body(res).error === "string" ? "wrong-code" : "wrong-status";
}

/** specs/002 area A Errors (unsupported_command) and Metadata Response (commands_supported). */
export const supportedChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.unsupported",
    title:
      "a command the RP does not support answers 400 unsupported_command, in agreement with commands_supported",
    requirements: ["CMD-UNSUPPORTED", "CMD-SUPPORTED-CONSISTENT"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("unsupported");
      const list = await k.supported(tenant);
      const made = k.sub("unsupported");
      const unknown = (await k.send("idc_not_a_command", { sub: made, label: "a command no one defines" }))
        .res;
      const r = refusal("a command no one defines", unknown, [400, "unsupported_command"]);
      c.check("CMD-UNSUPPORTED", r.ok, r.details);
      // Every command name of the document that is safe to send: listed ones must not be
      // refused as unsupported, others must be. Account commands go to an account that does not
      // exist (409 at most); tenant commands to a tenant of this run with no accounts.
      const wrong: string[] = [];
      let kind: FindingKind = "wrong-value";
      try {
        // Activate last (then activate_async meets an existing account): before it every account
        // command meets an account that does not exist.
        const order = [...LIFECYCLE, ...ASYNC, "audit", "migrate", ...TENANT_COMMANDS].filter(
          (x) => !x.startsWith("activate"),
        );
        for (const command of [...order, "activate", "activate_async"]) {
          const isTenant = TENANT_COMMANDS.includes(command);
          const extra =
            command === "metadata"
              ? { metadata: {} }
              : command === "migrate"
                ? { authentication_provider: "op" }
                : {};
          const { res } = await k.send(command, {
            tenant,
            ...(isTenant ? {} : { sub: made }),
            claims: extra,
            ...(command.endsWith("_tenant")
              ? { headers: { accept: "text/event-stream" }, decode: true }
              : {}),
            label: `${command} (${list.includes(command) ? "listed" : "not listed"})`,
          });
          const refused = body(res).error === "unsupported_command";
          if (list.includes(command) === refused) {
            wrong.push(
              `${command}: ${list.includes(command) ? "listed but refused" : "not listed but answered"} ${said(res)}`,
            );
            const k = listingKind(list.includes(command), res);
            if (kindRank(k) < kindRank(kind)) kind = k;
          }
        }
      } finally {
        await k.remove(made);
      }
      c.check("CMD-SUPPORTED-CONSISTENT", wrong.length === 0, {
        expected: "unsupported_command exactly for the commands commands_supported leaves out",
        actual: wrong.join("; "),
        kind,
      });
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.offered-pairs",
    title: "an RP that supports suspend supports reactivate, and one that supports archive supports restore",
    requirements: ["CMD-REACTIVATE-OFFERED", "CMD-RESTORE-OFFERED"],
    async run(c) {
      const list = await new CommandClient(c).supported();
      c.check("CMD-REACTIVATE-OFFERED", !list.includes("suspend") || list.includes("reactivate"), {
        expected: "reactivate listed beside suspend",
        actual: quote(list),
      });
      c.check("CMD-RESTORE-OFFERED", !list.includes("archive") || list.includes("restore"), {
        expected: "restore listed beside archive",
        actual: quote(list),
      });
    },
  }),
];
