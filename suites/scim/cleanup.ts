import type { ClientOptions } from "../../src/http/client.js";
import { teardownContext } from "../../src/engine/teardown-context.js";
import type { ScimProfile } from "./profile.js";
import { resources, ScimClient } from "./scim-client.js";

const MAX_PAGES = 50;
const PAGE = 100;

/**
 * Deletes every user and group of this run that is still there (after a failed check or an
 * interrupt), found by the run's name tag; returns what could not be deleted, for the report.
 */
export async function sweep(profile: ScimProfile, runId: string, client: ClientOptions): Promise<string[]> {
  const { ctx, notes } = teardownContext({ profile, runId, client });
  const s = new ScimClient(ctx);
  const leftovers: string[] = [];
  try {
    for (const [kind, attr] of [
      ["Users", "userName"],
      ["Groups", "displayName"],
    ] as const) {
      const mine: { id: string; name: string }[] = [];
      for (let page = 0, start = 1; page < MAX_PAGES; page++) {
        const res = await s.call("GET", `/${kind}?startIndex=${start}&count=${PAGE}&attributes=${attr}`, {
          label: "sweep",
        });
        const list = resources(res);
        if (res.status !== 200 || !list || list.length === 0) break;
        for (const r of list) {
          const name = String(r[attr] ?? "");
          if (name.toLowerCase().startsWith(s.tag.toLowerCase())) mine.push({ id: String(r.id), name });
        }
        start += list.length;
      }
      for (const m of mine) {
        const res = await s.call("DELETE", `/${kind}/${encodeURIComponent(m.id)}`, { label: "sweep delete" });
        if (res.status !== 204 && res.status !== 200 && res.status !== 404)
          leftovers.push(`${kind}/${m.id} (${m.name}): DELETE answered ${res.status}`);
      }
    }
  } catch (err) {
    leftovers.push(
      `the clean-up sweep stopped: ${(err as Error).message}; resources named ${s.tag}* may remain`,
    );
  }
  return [...leftovers, ...notes];
}
