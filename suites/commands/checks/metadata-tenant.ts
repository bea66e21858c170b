import { randomUUID } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import type { CommandsProfile } from "../profile.js";
import { CommandClient } from "../client.js";
import { exchange, notifiedOnlyAt, plan, prepared, settled } from "./async.js";

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
      const p = await plan(c, k, tenant);
      const id = `tenant-${randomUUID()}`;
      await exchange(c, k, tenant, `${id}-own`);
      await exchange(c, k, neighbour, `${id}-neighbour`);
      const a = await prepared(c, k, p, tenant, "isolated");
      try {
        await notifiedOnlyAt(
          c,
          k,
          { plan: p, sub: a, tenant, id, only: "own" },
          `the notification of ${p.command} in ${tenant} only at ${tenant}'s notification_endpoint (${id}-own), not at the one ${neighbour} sent later (${id}-neighbour)`,
        );
      } finally {
        await settled(k, a, tenant, c.profile.notificationTimeoutMs);
        await k.remove(a);
      }
    },
  }),
];
