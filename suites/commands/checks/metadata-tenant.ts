import { randomUUID } from "node:crypto";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import type { MockLogEntry } from "../../../src/http/mock-control.js";
import type { CommandsProfile } from "../profile.js";
import { CommandClient, said, stateOf } from "../client.js";

type Ctx = CheckContext<CommandsProfile>;

/** An asynchronous command and the synchronous ones that bring an account to its precondition. */
const PLANS: readonly { command: string; prepare: readonly string[] }[] = [
  { command: "suspend_async", prepare: ["activate"] },
  { command: "maintain_async", prepare: ["activate"] },
  { command: "activate_async", prepare: [] },
  { command: "archive_async", prepare: ["activate"] },
  { command: "delete_async", prepare: ["activate"] },
  { command: "reactivate_async", prepare: ["activate", "suspend"] },
  { command: "restore_async", prepare: ["activate", "archive"] },
];

/** Sends the metadata command for `tenant` naming the mock OP's notification endpoint `slot`. */
async function exchange(c: Ctx, k: CommandClient, tenant: string, slot: string): Promise<void> {
  const res = await k.metadata(
    tenant,
    slot,
    {},
    { label: `metadata of ${tenant} (notification_endpoint ${slot})` },
  );
  if (res.status !== 200)
    c.skip(`the metadata command answered ${said(res)}: see CMD-METADATA-SUPPORTED`, "dependency");
}

/** Audits until the state leaves its pending form, bounded by `ms`. */
async function settled(k: CommandClient, sub: string, tenant: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const state = stateOf(await k.account("audit", sub, { tenant, label: "audit (settled?)" }));
    if (typeof state !== "string" || !state.endsWith("_pending") || Date.now() + wait > until) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

const where = (entries: readonly MockLogEntry[]): string =>
  entries.map((e) => e.path).join(", ") || "nowhere";

/**
 * specs/002 area A Terms (a Tenant, identified by iss plus tenant, is a logically isolated
 * administrative entity) and Endpoints (metadata is a Tenant Command; it replaces the metadata
 * previously exchanged): another tenant's metadata command replaces nothing of this tenant's.
 */
export const metadataTenantChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.metadata-per-tenant",
    title:
      "a metadata command of another tenant of the same OP replaces nothing of a tenant's: its notifications still go to its own notification_endpoint",
    requirements: ["CMD-METADATA-REPLACES"],
    timeoutMs: 60_000,
    async run(c) {
      const k = new CommandClient(c);
      const tenant = k.tenantFor("isolated");
      const neighbour = k.tenantFor("neighbour");
      // commands_supported first: reading it may itself send a metadata command for the tenant.
      const list = await k.supported(tenant);
      const p = PLANS.find((x) => list.includes(x.command) && x.prepare.every((y) => list.includes(y)));
      if (p === undefined)
        return c.skip("not offered: commands_supported has no asynchronous (_async) command", "not-offered");
      const id = `tenant-${randomUUID()}`;
      await exchange(c, k, tenant, `${id}-own`);
      await exchange(c, k, neighbour, `${id}-neighbour`);
      const a = k.sub("isolated");
      try {
        for (const cmd of p.prepare) {
          const res = await k.account(cmd, a, { tenant });
          if (res.status !== 200 && res.status !== 204)
            c.skip(`${cmd} answered ${said(res)}: see the state table requirements`, "dependency");
        }
        const res = await k.account(p.command, a, { tenant });
        if (res.status !== 202)
          c.skip(`${p.command} answered ${said(res)}, not 202: see CMD-ASYNC-ACCEPTED`, "dependency");
        const got = await k.mock().wait(`/notifications/${id}-`, 1, c.profile.notificationTimeoutMs);
        if (got.length === 0)
          c.skip("no notification reached either endpoint: see CMD-ASYNC-NOTIFIED", "dependency");
        // A moment more, so a late delivery to the neighbour's endpoint is seen too.
        const all = await k.mock().wait(`/notifications/${id}-`, got.length + 1, 300);
        c.check(
          "CMD-METADATA-REPLACES",
          all.every((e) => e.path.endsWith(`${id}-own`)),
          {
            expected: `the notification of ${p.command} in ${tenant} only at ${tenant}'s notification_endpoint (${id}-own), not at the one ${neighbour} sent later (${id}-neighbour)`,
            actual: `received at ${where(all)}`,
          },
        );
      } finally {
        await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        await k.remove(a);
      }
    },
  }),
];
