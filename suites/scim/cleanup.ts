import type { ClientOptions } from "../../src/http/client.js";
import { notDeleted, teardownContext } from "../../src/engine/teardown-context.js";
import type { ScimProfile } from "./profile.js";
import { resources, ScimClient } from "./scim-client.js";

const MAX_PAGES = 50;
const PAGE = 100;

/**
 * Deletes every user and group of this run that is still there (after a failed check or an
 * interrupt), found by the run's name tag; returns what could not be deleted, for the report.
 */
export async function sweep(
  profile: ScimProfile,
  runId: string,
  client: ClientOptions,
  signal?: AbortSignal,
): Promise<string[]> {
  const { ctx, notes } = teardownContext({ profile, runId, client, ...(signal ? { signal } : {}) });
  const s = new ScimClient(ctx);
  const leftovers: string[] = [];
  // What was found and not yet deleted, so a sweep cut short says exactly what remains.
  let pending: { kind: string; id: string; name: string }[] = [];
  let found = 0;
  try {
    for (const [kind, attr] of [
      ["Users", "userName"],
      ["Groups", "displayName"],
    ] as const) {
      const mine: { id: string; name: string }[] = [];
      const at = kind === "Groups" ? await s.groups() : "/Users";
      for (let page = 0, start = 1; page < MAX_PAGES; page++) {
        const res = await s.call("GET", `${at}?startIndex=${start}&count=${PAGE}&attributes=${attr}`, {
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
      pending = mine.map((m) => ({ kind, ...m }));
      found += mine.length;
      while (pending.length > 0) {
        const m = pending[0]!;
        const res = await s.call("DELETE", `${at}/${encodeURIComponent(m.id)}`, { label: "sweep delete" });
        if (res.status !== 204 && res.status !== 200 && res.status !== 404)
          leftovers.push(`${kind}/${m.id} (${m.name}): DELETE answered ${res.status}`);
        pending.shift();
      }
    }
  } catch (err) {
    const why = signal?.aborted
      ? "the clean-up's share of options.timeouts.runMs ran out"
      : `the clean-up sweep stopped: ${(err as Error).message}`;
    leftovers.push(
      pending.length > 0
        ? notDeleted(
            "resources",
            pending.map((p) => `${p.kind}/${p.id} (${p.name})`),
            found,
            why,
          )
        : `${why}; resources named ${s.tag}* may remain`,
    );
  }
  return [...leftovers, ...notes];
}
