import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import type { Json } from "../statements.js";
import {
  collectionBasis,
  COPIED_CLAIMS,
  DISPLAY_FALLBACK,
  few,
  hasClaim,
  infosOf,
  partlyPublished,
  runsWithin,
  splitKey,
  Tally,
  UI_CLAIMS,
  type Basis,
  type SeenEntity,
} from "./collection-published.js";
import { entityProblem, select, singles, type PageJudge } from "./collection-select.js";

/** The Entity Type Infos to judge of one entity: those it carries, and those its default answer carried. */
function typeInfos(b: Basis, x: SeenEntity, changed: boolean): [string, Json][] {
  const own = infosOf(x.e);
  const ref = changed ? undefined : b.byId.get(x.id);
  const types = new Set([...own.keys(), ...(ref ? infosOf(ref.e).keys() : [])]);
  return [...types].map((t) => [t, own.get(t) ?? {}]);
}

/** Judges one info_claims walk: each named claim the metadata has, present; no other claim. */
function judgeInfoClaims(
  t: Tally,
  b: Basis,
  names: readonly string[],
  xs: readonly SeenEntity[],
  changed: boolean,
): boolean {
  let ok = true;
  const asked = `info_claims ${names.join(" ")}`;
  for (const x of xs) {
    const pub = b.sweep.byId.get(x.id);
    for (const [type, info] of typeInfos(b, x, changed)) {
      const extra = Object.keys(info).filter((k) => !names.includes(splitKey(k).name));
      ok =
        t.see(
          "FED-COLL-INFO-CLAIMS-EXCLUDE",
          extra.length === 0
            ? undefined
            : entityProblem(
                x,
                `only ${names.join(", ")} and their language variants (${asked})`,
                `${type} also has ${few(extra)}`,
                "wrong-value",
              ),
          names.length,
        ) && ok;
      const md = pub?.metadata.get(type);
      const want = md === undefined ? [] : names.filter((n) => hasClaim(md, n));
      if (want.length === 0) continue;
      const missing = want.filter((n) => !hasClaim(info, n));
      ok =
        t.see(
          "FED-COLL-INFO-CLAIMS-INCLUDE",
          missing.length === 0
            ? undefined
            : entityProblem(
                x,
                `${few(want)} in ${type}, which its ${type} metadata has (${asked})`,
                `${type} without ${few(missing)}`,
                "missing",
              ),
          names.length,
          pub?.res,
        ) && ok;
    }
  }
  return ok;
}

const same = (a: unknown, b: unknown): boolean => {
  try {
    return isDeepStrictEqual(a, b);
  } catch {
    return false; // nested past what the comparison can walk: not shown to be a copy
  }
};

/**
 * Judges the mapping on one walk (specs/001 Mapping): description, keywords, logo_uri,
 * policy_uri, information_uri (and their language variants) equal the same-named metadata claim;
 * display_name equals display_name or, when the type sets none, client_name or resource_name.
 * `presence`: the walk asked for display_name, so one with a source must be there.
 */
function judgeMapping(t: Tally, b: Basis, xs: readonly SeenEntity[], presence: boolean): void {
  for (const x of xs) {
    const pub = b.sweep.byId.get(x.id);
    if (pub === undefined) continue;
    for (const [type, info] of infosOf(x.e)) {
      const md = pub.metadata.get(type) ?? {};
      for (const [k, v] of Object.entries(info)) {
        if (!COPIED_CLAIMS.includes(splitKey(k).name)) continue;
        t.see(
          "FED-COLL-INFO-COPIED",
          k in md && same(v, md[k])
            ? undefined
            : entityProblem(
                x,
                `${type} ${k} as the entity's ${type} metadata has it: ${quote(md[k], 100)}`,
                quote(v, 100),
                "wrong-value",
              ),
          0,
          pub.res,
        );
      }
      const fallback = DISPLAY_FALLBACK[type];
      const source = hasClaim(md, "display_name")
        ? "display_name"
        : fallback !== undefined && hasClaim(md, fallback)
          ? fallback
          : undefined;
      if (source === undefined) continue;
      for (const [k, v] of Object.entries(info)) {
        const { name, tag } = splitKey(k);
        if (name !== "display_name") continue;
        const from = tag === undefined ? source : `${source}#${tag}`;
        t.see(
          "FED-COLL-DISPLAY-NAME",
          from in md && same(v, md[from])
            ? undefined
            : entityProblem(
                x,
                `${type} ${k} from its ${from}: ${quote(md[from], 100)}`,
                quote(v, 100),
                "wrong-value",
              ),
          0,
          pub.res,
        );
      }
      if (presence && md[source] !== undefined)
        t.see(
          "FED-COLL-DISPLAY-NAME",
          info.display_name !== undefined
            ? undefined
            : entityProblem(
                x,
                `${type} display_name from its ${source}: ${quote(md[source], 100)}`,
                `${type} without display_name`,
                "missing",
              ),
          0,
          pub.res,
        );
    }
  }
}

/** specs/001 Endpoints: Entity collection (info_claims); Mapping of published metadata to Entity Type Info. */
export const collectionInfoClaimsChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-info-claims",
    title:
      "with info_claims (each UI claim, all, and generated subsets), each Entity Type Info carries exactly the named claims its metadata has; display_name and the copied claims equal the entity's own metadata",
    requirements: [
      "FED-COLL-INFO-CLAIMS-INCLUDE",
      "FED-COLL-INFO-CLAIMS-EXCLUDE",
      "FED-COLL-DISPLAY-NAME",
      "FED-COLL-INFO-COPIED",
    ],
    timeoutMs: 180_000,
    async run(c) {
      const b = await collectionBasis(c);
      const t = new Tally(c);
      const unread: string[] = [];
      // Each answer is judged page by page as it is walked: the named claims, and on the answers
      // to each claim alone and to all of them, the mapping too (display_name when asked).
      let display = 0;
      const judge =
        (mapping: boolean) =>
        (names: readonly string[]): PageJudge => {
          return (xs, changed) => {
            // An answered walk that asked for display_name (a refused one is never judged).
            if (mapping && names.includes("display_name")) display++;
            const ok = judgeInfoClaims(t, b, names, xs, changed);
            if (mapping) judgeMapping(t, b, xs, names.includes("display_name"));
            return ok;
          };
        };
      const s = await singles(c, b, "info_claims", UI_CLAIMS, unread, judge(true));
      // A claim the responder's own default answer gives in an Entity Type Info is one it
      // supports: refusing it as unsupported_claim does not carry it where available.
      for (const r of s?.refused ?? []) {
        const shown = b.entities.find((x) => [...infosOf(x.e).values()].some((i) => hasClaim(i, r.name)));
        if (shown === undefined) continue;
        t.see(
          "FED-COLL-INFO-CLAIMS-INCLUDE",
          {
            expected: `the Entity Type Infos with ${r.name} (the answer without info_claims carries it, e.g. for ${quote(shown.id, 80)})`,
            actual: `info_claims ${r.name} refused as unsupported_claim (${r.res.status})`,
            res: r.res,
            kind: "wrong-status",
          },
          1,
          shown.res,
        );
      }
      if (s === undefined)
        for (const id of ["FED-COLL-INFO-CLAIMS-INCLUDE", "FED-COLL-INFO-CLAIMS-EXCLUDE"])
          c.skipOnly(id, "info_claims is refused as unsupported_parameter", "not-offered");
      else if (s.supported.length >= 2) {
        const all = await select(c, b, "info_claims", s.supported, judge(true)(s.supported));
        if (all.kind !== "walk")
          unread.push(all.kind === "unread" ? all.why : `info_claims ${s.supported.join(" ")}: ${all.kind}`);
        const out = await fc.check(
          fc.asyncProperty(fc.subarray(s.supported, { minLength: 1 }), async (names) => {
            const r = await select(c, b, "info_claims", names, judge(false)(names));
            if (r.kind !== "walk") {
              unread.push(r.kind === "unread" ? r.why : `info_claims ${names.join(" ")}: ${r.kind}`);
              return true;
            }
            return r.ok;
          }),
          {
            seed: c.seed,
            numRuns: runsWithin(
              c,
              b,
              c.profile.walk.runs,
              UI_CLAIMS.length + 1,
              "generated info_claims subsets",
            ),
          },
        );
        rethrowControl(out);
      }
      // The mapping on the default answer (its entities kept: those compared with their metadata).
      judgeMapping(
        t,
        b,
        b.entities,
        display === 0 &&
          b.entities.some((x) => [...infosOf(x.e).values()].some((i) => hasClaim(i, "display_name"))),
      );
      t.decide(
        c,
        "FED-COLL-INFO-CLAIMS-INCLUDE",
        "Entity Type Infos with a named claim in their metadata",
        c.seed,
      );
      t.decide(c, "FED-COLL-INFO-CLAIMS-EXCLUDE", "Entity Type Infos", c.seed);
      t.decide(c, "FED-COLL-DISPLAY-NAME", "display_name values with a source in the metadata");
      t.decide(c, "FED-COLL-INFO-COPIED", "copied claims");
      partlyPublished(c, b.sweep, [
        ...(s === undefined ? [] : ["FED-COLL-INFO-CLAIMS-INCLUDE"]),
        "FED-COLL-DISPLAY-NAME",
        "FED-COLL-INFO-COPIED",
      ]);
      if (unread.length > 0)
        for (const id of ["FED-COLL-INFO-CLAIMS-INCLUDE", "FED-COLL-INFO-CLAIMS-EXCLUDE"])
          c.partly(
            id,
            `${unread.length} selections could not be walked (the first: ${unread[0]}): see FED-COLL-UNSUPPORTED-PARAM`,
          );
    },
  }),
];
