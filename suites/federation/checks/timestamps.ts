import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { isObject, type Json } from "../statements.js";
import { citable, PROPERTY_PAGES, releaseWalk, Tally, walkExtendedList, type Walk } from "../walk.js";

/** A refusal the document allows for an unsupported time parameter: 400 application/json unsupported_parameter. */
function refusedAsUnsupported(res: HttpResponse): boolean {
  return (
    res.status === 400 &&
    /^application\/json\s*(;|$)/i.test(res.header("content-type") ?? "") &&
    isObject(res.json) &&
    res.json.error === "unsupported_parameter"
  );
}

/** specs/001 Endpoints: Extended subordinate listing (audit_timestamps, updated_after, updated_before). */
export const timestampChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-timestamps",
    title:
      "audit_timestamps=true gives registered and updated (numbers) on every entry; updated_after and updated_before list exactly the subordinates updated in the range, or each is refused as unsupported_parameter",
    requirements: [
      "FED-XL-TIMESTAMP-TYPES",
      "FED-XL-AUDIT-TIMESTAMPS",
      "FED-XL-UPDATED-AFTER",
      "FED-XL-UPDATED-BEFORE",
      "FED-XL-UPDATED-TIMESTAMPS",
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      // Judged page by page: a large list's entries are never all held, only each id's updated.
      const types = new Tally(c, "FED-XL-TIMESTAMP-TYPES", "entry");
      const present = new Tally(c, "FED-XL-AUDIT-TIMESTAMPS", "entry");
      const updated = new Map<string, number>();
      const audit = await walkExtendedList(c, url, {
        label: "extended list, audit_timestamps",
        params: [["audit_timestamps", "true"]],
        onPage: (page, index) => {
          const res = citable(page, index);
          for (const e of page.entries) {
            if (e.registered !== undefined || e.updated !== undefined)
              types.add(
                (e.registered === undefined || typeof e.registered === "number") &&
                  (e.updated === undefined || typeof e.updated === "number")
                  ? undefined
                  : {
                      expected: "registered and updated as numbers of seconds",
                      actual: `${String(e.id)}: registered ${quote(e.registered ?? null)}, updated ${quote(e.updated ?? null)}`,
                      res,
                      kind: "malformed",
                    },
              );
            present.add(
              e.registered !== undefined && e.updated !== undefined
                ? undefined
                : {
                    expected: "registered and updated on every entry",
                    actual: `${String(e.id)} without ${e.registered === undefined ? "registered" : "updated"}`,
                    res,
                    kind: "missing",
                  },
            );
            if (typeof e.updated === "number") updated.set(String(e.id), e.updated);
          }
        },
      });
      releaseWalk(c, audit);
      const first = audit.pages[0]!;
      if (first.shape !== undefined && refusedAsUnsupported(first.res)) {
        c.check("FED-XL-AUDIT-TIMESTAMPS", true);
        c.complete("FED-XL-AUDIT-TIMESTAMPS");
        return c.skip(
          "audit_timestamps is refused as unsupported_parameter: the range filters cannot be read against updated",
          "not-offered",
        );
      }
      if (audit.stopped !== undefined)
        c.skip(`the walk with audit_timestamps did not end (${audit.stopped})`, "dependency");
      types.decide();
      present.decide();
      // Both are decided by the walk with audit_timestamps, whatever the range filters show.
      c.complete("FED-XL-TIMESTAMP-TYPES");
      c.complete("FED-XL-AUDIT-TIMESTAMPS");
      if (updated.size === 0)
        return c.skip(
          "no entry carries a numeric updated to filter by: see FED-XL-AUDIT-TIMESTAMPS",
          "dependency",
        );
      const times = [...new Set(updated.values())].sort((a, b) => a - b);
      const lo = times[0]! - 5;
      const hi = times[times.length - 1]! + 5;
      const problems = new Map<string, string>();
      const refused = new Set<string>();
      const ids = (w: Walk): string[] => [...new Set(w.ids)].sort();
      const want = (pred: (t: number) => boolean): string[] =>
        [...updated]
          .filter(([, t]) => pred(t))
          .map(([id]) => id)
          .sort();
      const property = fc.asyncProperty(
        // Times at the entries' own updated values (the borders) as well as between them.
        fc.oneof(fc.constantFrom(...times), fc.integer({ min: lo, max: hi })),
        fc.oneof(fc.constantFrom(...times), fc.integer({ min: lo, max: hi })),
        async (a, b) => {
          const [t1, t2] = a <= b ? [a, b] : [b, a];
          let ok = true;
          for (const [id, params, pred] of [
            ["FED-XL-UPDATED-AFTER", [["updated_after", String(t1)]], (t: number) => t >= t1],
            ["FED-XL-UPDATED-BEFORE", [["updated_before", String(t2)]], (t: number) => t <= t2],
            [
              "COMBINED",
              [
                ["updated_after", String(t1)],
                ["updated_before", String(t2)],
              ],
              (t: number) => t >= t1 && t <= t2,
            ],
          ] as const) {
            if (
              refused.has(id) ||
              (id === "COMBINED" &&
                (refused.has("FED-XL-UPDATED-AFTER") || refused.has("FED-XL-UPDATED-BEFORE")))
            )
              continue;
            let bare: Json | undefined;
            const w = await walkExtendedList(c, url, {
              label: `extended list, ${params.map((p) => p.join("=")).join("&")}`,
              params: params as unknown as [string, string][],
              onPage: (page) => {
                bare ??= page.entries.find((e) => e.registered === undefined || e.updated === undefined);
              },
            });
            releaseWalk(c, w);
            if (w.pages[0]?.shape !== undefined && refusedAsUnsupported(w.pages[0].res)) {
              refused.add(id);
              continue;
            }
            const got = ids(w);
            const exp = want(pred);
            if (w.stopped !== undefined || got.join(" ") !== exp.join(" ")) {
              ok = false;
              const [inGot, inExp] = [new Set(got), new Set(exp)];
              const extra = got.filter((x) => !inExp.has(x));
              const lost = exp.filter((x) => !inGot.has(x));
              problems.set(
                id,
                problems.get(id) ??
                  `${params.map((p) => p.join("=")).join("&")}: ${w.stopped ?? `${extra.length} listed outside the range (${extra.slice(0, 2).join(", ")}), ${lost.length} in it missing (${lost.slice(0, 2).join(", ")})`}`,
              );
            }
            if (bare !== undefined && !problems.has("FED-XL-UPDATED-TIMESTAMPS"))
              problems.set(
                "FED-XL-UPDATED-TIMESTAMPS",
                `${params.map((p) => p.join("=")).join("&")}: ${String(bare.id)} without registered or updated`,
              );
          }
          return ok;
        },
      );
      // Each run walks three ranges, each up to the whole list: in a large list fewer runs keep the
      // check within its page budget (walk.ts PROPERTY_PAGES), never fewer than one.
      const full = Math.max(1, audit.pages.length);
      const runs = Math.max(1, Math.min(c.profile.walk.runs, Math.floor(PROPERTY_PAGES / (3 * full))));
      if (runs < c.profile.walk.runs)
        c.note(
          `the walk with audit_timestamps took ${full} pages: ${runs} generated ranges of ${c.profile.walk.runs} (suites.federation.walk.runs), within ${PROPERTY_PAGES} pages`,
        );
      const out = await fc.check(property, { seed: c.seed, numRuns: runs });
      rethrowControl(out);
      // The closed range is updated_before's rule (specs/001: "same, at or before"); a range that
      // goes wrong only because updated_after does is updated_after's finding, not a second one.
      const combined = problems.get("COMBINED");
      if (
        combined !== undefined &&
        !problems.has("FED-XL-UPDATED-BEFORE") &&
        !problems.has("FED-XL-UPDATED-AFTER")
      )
        problems.set("FED-XL-UPDATED-BEFORE", combined);
      for (const id of ["FED-XL-UPDATED-AFTER", "FED-XL-UPDATED-BEFORE", "FED-XL-UPDATED-TIMESTAMPS"]) {
        if (refused.has(id) && !problems.has(id)) {
          c.check(id, true);
          continue;
        }
        const p = problems.get(id);
        c.check(id, p === undefined, {
          expected: id.endsWith("TIMESTAMPS")
            ? "registered and updated on every entry of a range answer"
            : "exactly the subordinates updated in the range",
          actual: p ? `${p} (seed ${c.seed})` : "",
        });
      }
    },
  }),
];
