import type { ClientOptions } from "../../src/http/client.js";
import { notDeleted, teardownContext } from "../../src/engine/teardown-context.js";
import { eventJson, parseSse, streamEnded } from "../../mocks/op/sse.js";
import type { CommandsProfile } from "./profile.js";
import { body, CommandClient, runTenant, TENANTS, type CommandsProvided } from "./client.js";

/**
 * Whether the run could have left accounts at an RP whose accounts the sweep cannot list:
 * not when the RP's commands_supported names no command that creates one (activate, migrate
 * or their _async forms), since then it acknowledged creating none; else, or when it gives no
 * list, it may have.
 */
async function mayHoldAccounts(k: CommandClient, tenant: string): Promise<boolean> {
  const res = await k.metadata(tenant, undefined, {}, { label: "sweep (commands_supported)" });
  const list = body(res).commands_supported;
  if (res.status !== 200 || !Array.isArray(list)) return true;
  return list.some((c) => typeof c === "string" && /^(activate|migrate)(_async)?$/.test(c));
}

/**
 * Deletes every account of this run the RP still holds (after a failed check or an
 * interrupt): audit_tenant lists each tenant of the run, and accounts whose sub carries the
 * run's tag are deleted. Returns what could not be deleted, for the report.
 */
export async function sweep(
  profile: CommandsProfile,
  runId: string,
  client: ClientOptions,
  provided: CommandsProvided,
  signal?: AbortSignal,
): Promise<string[]> {
  const { ctx, notes } = teardownContext({
    profile,
    runId,
    client,
    provided: { ...provided },
    ...(signal ? { signal } : {}),
  });
  // What was found and not yet deleted, so a sweep cut short says exactly what remains.
  let pending: string[] = [];
  let found = 0;
  const k = new CommandClient(ctx);
  const leftovers: string[] = [];
  const base = runTenant(profile, runId);
  try {
    for (const tenant of [base, ...TENANTS.map((t) => `${base}-${t}`)]) {
      const { res } = await k.send("audit_tenant", {
        stopWhen: streamEnded,
        tenant,
        decode: true,
        headers: { accept: "text/event-stream" },
        label: "sweep",
      });
      if (res.status !== 200) {
        if (tenant === base && (await mayHoldAccounts(k, base)))
          leftovers.push(
            `the end-of-run sweep could not list accounts (audit_tenant answered ${res.status}); only the checks' own deletions ran, and accounts named ${k.tag}* they could not delete may remain`,
          );
        continue;
      }
      const subs = parseSse(res.text)
        .filter((e) => e.event === "account-state")
        .map((e) => String(eventJson(e)?.sub ?? ""))
        .filter((s) => s.startsWith(k.tag));
      pending = [...new Set(subs)];
      found += pending.length;
      while (pending.length > 0) {
        const sub = pending[0]!;
        const del = await k.account("delete", sub, { tenant, label: "sweep delete" });
        if (del.status !== 200 && del.status !== 204 && del.status !== 409)
          leftovers.push(`account ${sub}: delete answered ${del.status}`);
        pending.shift();
      }
    }
  } catch (err) {
    const why = signal?.aborted
      ? "the clean-up's share of options.timeouts.runMs ran out"
      : `the clean-up sweep stopped: ${(err as Error).message}`;
    leftovers.push(
      pending.length > 0
        ? notDeleted("accounts", pending, found, why)
        : `${why}; accounts named ${k.tag}* may remain`,
    );
  }
  return [...leftovers, ...notes];
}
