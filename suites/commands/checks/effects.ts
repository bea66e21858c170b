import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { SetupError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import type { CommandsProfile } from "../profile.js";
import { CommandClient, said } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/** The profile's probe for `sub`: 2xx while the account can act, 401/403/404 when it cannot. */
async function probe(c: Ctx, sub: string, label: string): Promise<HttpResponse> {
  const p = c.profile.probes.accountAccess as
    { url?: unknown; method?: unknown; headers?: unknown } | undefined;
  if (typeof p?.url !== "string")
    return c.skip("needs probe: suites.commands.probes.accountAccess.url (a URL with {sub})", "needs-probe");
  const headers =
    p.headers !== null && typeof p.headers === "object" ? (p.headers as Record<string, string>) : {};
  return c.http.send({
    method: typeof p.method === "string" ? p.method : "GET",
    url: p.url.replaceAll("{sub}", encodeURIComponent(sub)),
    headers,
    label,
  });
}

/** specs/002 area A Endpoints: the Invalidate Functionality, seen through the profile's probe. */
export const effectChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.invalidation-effects",
    title:
      "invalidate, suspend, archive and delete revoke the account's sessions and tokens, as the profile's probe shows",
    requirements: ["CMD-INVALIDATE-EFFECT"],
    probe: "accountAccess",
    async run(c) {
      const k = new CommandClient(c);
      await k.need("activate");
      const list = await k.supported();
      const commands = ["invalidate", "suspend", "archive", "delete"].filter((x) => list.includes(x));
      if (commands.length === 0)
        c.skip(
          "not offered: none of invalidate, suspend, archive, delete is in commands_supported",
          "not-offered",
        );
      for (const command of commands) {
        const a = k.sub(`effect-${command}`);
        try {
          const act = await k.account("activate", a);
          if (act.status !== 200 && act.status !== 204)
            c.skip(`activate answered ${said(act)}: see CMD-ACTIVATE`, "dependency");
          // A probe that refuses an account just activated cannot show any change: the
          // profile's probe is wrong, not the RP. Found once, it stops the other probes too.
          await c.setup("commands.probes.accountAccess", async () => {
            const b = await probe(c, a, `probe before ${command}`);
            if (b.status < 200 || b.status > 299)
              throw new SetupError(
                "suites.commands.probes.accountAccess",
                `the probe answered ${b.status} for an account just activated (${quote(b.text, 120)}); it must answer 2xx while the account can act, and 401, 403 or 404 once it cannot`,
              );
          });
          const res = await k.account(command, a);
          if (res.status !== 200 && res.status !== 204)
            c.skip(`${command} answered ${said(res)}: see the state table requirements`, "dependency");
          const after = await probe(c, a, `probe after ${command}`);
          c.check("CMD-INVALIDATE-EFFECT", [401, 403, 404].includes(after.status), {
            expected: `after ${command}: the probe shows no session or token (401, 403 or 404)`,
            actual: `${after.status} ${after.text.slice(0, 120)}`,
            res: after,
          });
        } finally {
          await k.remove(a);
        }
      }
    },
  }),
];
