import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { SetupError } from "../../../src/engine/errors.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { isObject } from "../statements.js";
import { smallestLimit, walkExtendedList } from "../walk.js";
import { withQuery } from "./fetch-list.js";

type Op =
  | { readonly kind: "add" }
  | { readonly kind: "remove"; readonly ahead: boolean }
  | { readonly kind: "remove-next" }
  | { readonly kind: "update" };

/** The ids listed exactly once, in their order. */
function once(ids: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return ids.filter((id) => counts.get(id) === 1);
}

/** A plan as text: "add before page 2, remove (ahead) before page 3". */
function describe(plan: readonly (readonly [number, Op])[]): string {
  return plan
    .map(
      ([page, op]) =>
        `${op.kind}${op.kind === "remove" ? (op.ahead ? " (ahead)" : " (behind)") : ""} before page ${page + 1}`,
    )
    .join(", ");
}

/** The profile's change hook: adds, updates or removes an Immediate Subordinate; answers its id. */
async function change(c: Ctx, op: "add" | "update" | "remove", id?: string): Promise<string> {
  const hook = c.profile.hooks.change!;
  return c.setup("federation.hooks.change", async () => {
    const res = await c.http.post(hook.url, {
      json: { op, ...(id !== undefined ? { id } : {}) },
      headers: hook.headers,
      label: `change hook: ${op}${id !== undefined ? ` ${id}` : ""}`,
    });
    const got = isObject(res.json) ? res.json.id : undefined;
    if (res.status < 200 || res.status > 299 || typeof got !== "string")
      throw new SetupError(
        "suites.federation.hooks.change",
        `the change hook answered ${res.status} ${quote(res.json ?? res.text.slice(0, 80), 120)} to ${op}; expected 2xx with the entity's id`,
      );
    return got;
  });
}

/**
 * specs/001 What the service does, rule 4: changes to pages already fetched do not change the
 * result, changes to pages not yet fetched are reflected. Model-based: generated walks with
 * adds, removals (of entities this check added, behind or ahead of the walk) and updates between
 * pages; what is ahead or behind is read from a walk made after, when nothing changes.
 */
export const changeChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-change",
    title:
      "with subordinates added, updated and removed between page fetches, the walk loses and repeats nothing present throughout, shows what was added ahead of it and not what was removed ahead of it",
    requirements: ["FED-XL-CHANGE-FETCHED", "FED-XL-CHANGE-AHEAD", "FED-XL-FROM-UNKNOWN"],
    timeoutMs: 300_000,
    async run(c) {
      if (c.profile.hooks.change === undefined)
        return c.skip(
          "needs hook: suites.federation.hooks.change adds, updates and removes subordinates",
          "needs-hook",
        );
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const made = new Set<string>();
      let judged = 0;
      /** The list's size as the last run's walk before the changes saw it. */
      let size: number | undefined;
      const problems = new Map<string, { text: string; size: number }>();
      const note = (id: string, text: string, size: number): void => {
        const had = problems.get(id);
        if (had === undefined || size < had.size) problems.set(id, { text, size });
      };
      const runs = Math.min(c.profile.walk.runs, 10);
      try {
        const property = fc.asyncProperty(
          fc.integer({ min: 1, max: 4 }),
          fc.array(
            fc.tuple(
              fc.nat({ max: 6 }),
              fc.constantFrom<Op>(
                { kind: "add" },
                { kind: "remove", ahead: true },
                { kind: "remove", ahead: false },
                { kind: "update" },
                { kind: "remove-next" },
              ),
            ),
            { minLength: 1, maxLength: 4 },
          ),
          async (step, plan) => {
            // Entities this walk may remove: added before it starts, so they are present at its start.
            // Named to sort first and last by identifier (a target may order so), and added in that
            // order (a target may order by registration): some are behind the walk soon, some ahead.
            const own: string[] = [];
            for (const name of ["0idc", "zzidc", "0idd"]) {
              const id = await change(
                c,
                "add",
                `${f.entityId.replace(/\/+$/, "")}/${name}-${c.runId.slice(-6)}-${made.size}`,
              );
              made.add(id);
              own.push(id);
            }
            // In a large list (seen by an earlier run) the walk before the changes asks the run's
            // smallest limit too: without limit a target's default page may be small (100 entries:
            // 1,000 pages for 100,000 members), which would put the run past its page budget.
            const bigger = size === undefined ? 1 : smallestLimit(c, size, runs * 4);
            const before = await walkExtendedList(c, url, {
              label: "extended list before the changes",
              ...(bigger > 1 ? { limit: bigger } : {}),
            });
            if (before.stopped !== undefined)
              c.skip(`the walk did not end (${before.stopped}): see FED-XL-WALK-ONCE`, "dependency");
            size = before.ids.length;
            // Limits 1 to 4 in a small list; in a large one from the smallest that keeps the four
            // walks of every run within the check's page budget (walk.ts smallestLimit).
            const limit = smallestLimit(c, before.ids.length, runs * 4) + step - 1;
            // The same walk without changes: what it loses or repeats is the walk's own fault
            // (FED-XL-WALK-ONCE), not the change's; a walk with limit that does not work cannot
            // show a change at all (FED-XL-PAGING-UNDERSTOOD).
            const still = await walkExtendedList(c, url, {
              label: "extended list with this limit, no change",
              limit,
            });
            if (still.stopped !== undefined) return true;
            const plainOnce = new Set(once(still.ids));
            judged++;
            const at = new Map<number, Op[]>();
            for (const [page, op] of plan) at.set(page, [...(at.get(page) ?? []), op]);
            const fetched: string[] = [];
            const added: { id: string; at: number }[] = [];
            const removed: { id: string; ahead: boolean }[] = [];
            let from: string | undefined;
            const cursors = new Set<string>();
            let pointed = false;
            for (let page = 0; page < c.profile.walk.maxPages; page++) {
              for (const op of at.get(page) ?? []) {
                if (op.kind === "add") {
                  // Alternately one that sorts first by identifier and one the hook names.
                  const id = await change(
                    c,
                    "add",
                    added.length % 2 === 0
                      ? `${f.entityId.replace(/\/+$/, "")}/0idc-${c.runId.slice(-6)}-a${made.size}`
                      : undefined,
                  );
                  made.add(id);
                  added.push({ id, at: fetched.length });
                } else if (op.kind === "update") await change(c, "update");
                else if (op.kind === "remove-next") {
                  // The entry a keyed next points to (the one after the last fetched, in the order
                  // before the changes), when it is one this check added.
                  const last = fetched[fetched.length - 1];
                  const next = last === undefined ? before.ids[0] : before.ids[before.ids.indexOf(last) + 1];
                  if (next !== undefined && own.includes(next) && !removed.some((r) => r.id === next)) {
                    await change(c, "remove", next);
                    made.delete(next);
                    removed.push({ id: next, ahead: true });
                    pointed = true;
                  }
                } else {
                  const seen = new Set(fetched);
                  const pick = own.find(
                    (id) => seen.has(id) !== op.ahead && !removed.some((r) => r.id === id),
                  );
                  if (pick !== undefined) {
                    await change(c, "remove", pick);
                    made.delete(pick);
                    removed.push({ id: pick, ahead: op.ahead });
                  }
                }
              }
              const params: [string, string][] = [
                ["limit", String(limit)],
                ...(from !== undefined ? [["from", from] as [string, string]] : []),
              ];
              const res = await c.http.get(withQuery(url, params), {
                label: `extended list under change, page ${page + 1}`,
                tags: [TAG.extendedList],
              });
              const body = isObject(res.json) ? res.json : {};
              const list = Array.isArray(body.immediate_subordinate_entities)
                ? body.immediate_subordinate_entities
                : [];
              if (res.status !== 200) {
                // A from whose entry was removed may answer 404 page_not_found (and then nothing was lost).
                const error = isObject(res.json) ? res.json.error : undefined;
                if (pointed && res.status === 404 && error === "page_not_found") return true;
                note(
                  pointed ? "FED-XL-FROM-UNKNOWN" : "FED-XL-CHANGE-FETCHED",
                  `limit ${limit}: page ${page + 1} answered ${res.status} after the changes ${describe(plan)}`,
                  plan.length,
                );
                return false;
              }
              if (
                pointed &&
                list.length === 0 &&
                (typeof body.next !== "string" || body.next === "") &&
                fetched.length < before.ids.length - removed.length
              )
                note(
                  "FED-XL-FROM-UNKNOWN",
                  `limit ${limit}: the from of a removed entry answered an empty last page, ending the walk (changes ${describe(plan)})`,
                  plan.length,
                );
              fetched.push(...list.filter(isObject).map((e) => String(e.id)));
              if (typeof body.next !== "string" || body.next === "") break;
              if (cursors.has(body.next)) {
                // A cursor that comes back never ends: the walk itself is broken (FED-XL-WALK-ONCE).
                note(
                  "FED-XL-CHANGE-FETCHED",
                  `limit ${limit}: next ${quote(body.next, 60)} came back on page ${page + 1}`,
                  plan.length,
                );
                return false;
              }
              cursors.add(body.next);
              from = body.next;
            }
            const after = await walkExtendedList(c, url, { label: "extended list after the changes", limit });
            const order = new Map(after.ids.map((id, i) => [id, i]));
            const gone = new Set(removed.map((r) => r.id));
            const throughout = before.ids.filter((id) => !gone.has(id) && plainOnce.has(id));
            const counts = new Map<string, number>();
            for (const id of fetched) counts.set(id, (counts.get(id) ?? 0) + 1);
            const count = (id: string): number => counts.get(id) ?? 0;
            const lost = throughout.filter((id) => count(id) === 0);
            const twice = throughout.filter((id) => count(id) > 1);
            let ok = true;
            if (lost.length > 0 || twice.length > 0) {
              ok = false;
              note(
                "FED-XL-CHANGE-FETCHED",
                `limit ${limit}, changes ${describe(plan)}: ${lost.length} present throughout lost (${lost.slice(0, 2).join(", ")}), ${twice.length} repeated (${twice.slice(0, 2).join(", ")})`,
                plan.length,
              );
            }
            // Added ahead of the walk: after the first entry the walk fetched once it was added (an
            // entry added between two pages, before the next page's first, may go either way).
            const aheadMissing = added.filter((a) => {
              const pos = order.get(a.id);
              const next = fetched[a.at];
              const mark = next === undefined ? undefined : order.get(next);
              return pos !== undefined && mark !== undefined && pos > mark && count(a.id) === 0;
            });
            const removedShown = removed.filter((r) => r.ahead && count(r.id) > 0);
            if (aheadMissing.length > 0 || removedShown.length > 0) {
              ok = false;
              note(
                "FED-XL-CHANGE-AHEAD",
                `limit ${limit}, changes ${describe(plan)}: ${aheadMissing.length} added ahead not listed (${aheadMissing
                  .map((a) => a.id)
                  .slice(0, 2)
                  .join(", ")}), ${removedShown.length} removed ahead still listed (${removedShown
                  .map((r) => r.id)
                  .slice(0, 2)
                  .join(", ")})`,
                plan.length,
              );
            }
            return ok;
          },
        );
        const out = await fc.check(property, { seed: c.seed, numRuns: runs });
        rethrowControl(out);
        if (judged === 0)
          return c.skip(
            "no walk with limit could be made without changes: see FED-XL-PAGING-UNDERSTOOD",
            "dependency",
          );
        // The from of a removed entry, made to happen: with limit 1, remove the entry after the
        // first page's (one this check added, sorting first), then follow next.
        const base = f.entityId.replace(/\/+$/, "");
        const pair = [`${base}/00idc-${c.runId.slice(-6)}-p`, `${base}/00idc-${c.runId.slice(-6)}-q`];
        for (const id of pair) made.add(await change(c, "add", id));
        const ordered = await walkExtendedList(c, url, {
          label: "extended list before removing the next entry",
        });
        const i = ordered.ids.indexOf(pair[0]!);
        if (i >= 0 && ordered.ids[i + 1] === pair[1]) {
          // Only its first page is needed: a walk of a large list with a small limit would be long.
          const upto = await walkExtendedList(c, url, {
            label: "extended list to the pair",
            limit: i + 1,
            maxPages: 1,
          });
          const next = upto.pages[0]?.next;
          // Only where next leads to the pair's second entry (a target whose borders repeat shows
          // that under FED-XL-FROM-INCLUSIVE, not here).
          const probe =
            next === undefined
              ? undefined
              : await c.http.get(
                  withQuery(url, [
                    ["limit", "1"],
                    ["from", next],
                  ]),
                  {
                    label: "extended list from next, before the removal",
                    tags: [TAG.extendedList],
                  },
                );
          const leads =
            isObject(probe?.json) && Array.isArray(probe.json.immediate_subordinate_entities)
              ? (probe.json.immediate_subordinate_entities[0] as { id?: unknown } | undefined)?.id === pair[1]
              : false;
          if (next !== undefined && leads && upto.pages[0]?.ids[i] === pair[0]) {
            await change(c, "remove", pair[1]);
            made.delete(pair[1]!);
            const res = await c.http.get(
              withQuery(url, [
                ["limit", "1"],
                ["from", next],
              ]),
              {
                label: "extended list from the removed entry",
                tags: [TAG.extendedList],
              },
            );
            const body = isObject(res.json) ? res.json : {};
            const list = Array.isArray(body.immediate_subordinate_entities)
              ? body.immediate_subordinate_entities
              : [];
            const rest = ordered.ids.length - i - 2;
            const error = body.error;
            const ok =
              (res.status === 404 && error === "page_not_found") ||
              (res.status === 200 &&
                (rest === 0 || (isObject(list[0]) && list[0].id === ordered.ids[i + 2])));
            if (!ok)
              note(
                "FED-XL-FROM-UNKNOWN",
                `the from of ${pair[1]}, removed after it was handed out, answered ${res.status} ${quote(res.json ?? null, 120)}; ${rest} entries follow it`,
                0,
              );
            if (res.status === 200 && rest > 0 && list.length === 0)
              note(
                "FED-XL-CHANGE-FETCHED",
                `the from of a removed entry answered an empty page: the ${rest} entries after it are lost`,
                0,
              );
          }
        }
        const EXPECTED: Record<string, string> = {
          "FED-XL-CHANGE-FETCHED": "nothing present throughout lost or repeated",
          "FED-XL-CHANGE-AHEAD": "what is added ahead listed, what is removed ahead not",
          "FED-XL-FROM-UNKNOWN":
            "the from of a removed entry: the page from the next remaining entry, or 404 page_not_found",
        };
        for (const [id, expected] of Object.entries(EXPECTED)) {
          const p = problems.get(id);
          // The removed-entry case of FED-XL-FROM-UNKNOWN: decided by federation.xl-from-unknown
          // too; here only a violation is news (a pass would claim what this check did not see).
          if (id === "FED-XL-FROM-UNKNOWN" && p === undefined) {
            c.skipOnly(id, "the walks under change met no from of a removed entry that went wrong", "other");
            continue;
          }
          c.check(id, p === undefined, { expected, actual: p ? `${p.text} (seed ${c.seed})` : "" });
        }
      } finally {
        // Remove what this check added and did not remove during a walk.
        for (const id of made) await change(c, "remove", id).catch(() => undefined);
      }
    },
  }),
];
