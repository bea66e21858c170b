import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { TAG } from "../observers.js";
import { refusalProblem } from "../refusal.js";
import {
  collectionBasis,
  collectionTarget,
  DISPLAY_FALLBACK,
  few,
  hasClaim,
  infosOf,
  partlyPublished,
  refusedAs,
  runsWithin,
  Tally,
  UI_CLAIMS,
  type Basis,
  type SeenEntity,
} from "./collection-published.js";
import { entityProblem, select, singles, type PageJudge } from "./collection-select.js";
import { withQuery } from "./fetch-list.js";

/** The Entity Info claims entity_claims selects from (specs/001 Entity Info object). */
const ENTITY_CLAIMS = ["entity_id", "entity_types", "entity_infos", "trust_marks"];

/** Every subset of `xs` with at least two members (the single ones are asked first). */
const combinations = (xs: readonly string[]): string[][] =>
  xs
    .reduce<string[][]>((acc, x) => [...acc, ...acc.map((s) => [...s, x])], [[]])
    .filter((s) => s.length >= 2);

/** Whether the entity has `claim` to give: its default answer shows it, or its Entity Configuration does. */
function available(b: Basis, id: string, claim: string): boolean {
  const ref = b.byId.get(id)?.e;
  const pub = b.sweep.byId.get(id);
  if (claim === "entity_types") return ref?.entity_types !== undefined || (pub?.metadata.size ?? 0) > 0;
  if (claim === "entity_infos")
    return (
      (ref !== undefined && infosOf(ref).size > 0) ||
      [...(pub?.metadata ?? [])].some(
        ([t, md]) =>
          UI_CLAIMS.some((u) => hasClaim(md, u)) ||
          (DISPLAY_FALLBACK[t] !== undefined && hasClaim(md, DISPLAY_FALLBACK[t])),
      )
    );
  if (claim === "trust_marks")
    return (Array.isArray(ref?.trust_marks) && ref.trust_marks.length > 0) || pub?.markAvailable === true;
  return false;
}

/** Judges one entity_claims walk: each named claim present where available, nothing else optional. */
function judgeEntityClaims(t: Tally, b: Basis, names: readonly string[], xs: readonly SeenEntity[]): boolean {
  let ok = true;
  const asked = `entity_claims ${names.join(" ")}`;
  for (const x of xs) {
    const extra = Object.keys(x.e).filter((k) => k !== "entity_id" && !names.includes(k));
    ok =
      t.see(
        "FED-COLL-ENTITY-CLAIMS-EXCLUDE",
        extra.length === 0
          ? undefined
          : entityProblem(
              x,
              `only ${["entity_id", ...names.filter((n) => n !== "entity_id")].join(", ")} (${asked})`,
              `also ${few(extra)}`,
              "wrong-value",
            ),
        names.length,
      ) && ok;
    const want = names.filter((n) => n !== "entity_id" && available(b, x.id, n));
    if (want.length === 0) continue;
    const missing = want.filter((n) => x.e[n] === undefined);
    ok =
      t.see(
        "FED-COLL-ENTITY-CLAIMS-INCLUDE",
        missing.length === 0
          ? undefined
          : entityProblem(
              x,
              `${few(want)}, which the entity has (${asked})`,
              `without ${few(missing)}`,
              "missing",
            ),
        names.length,
      ) && ok;
  }
  return ok;
}

/** specs/001 Endpoints: Entity collection (entity_claims; entity_claims and info_claims naming an unknown claim). */
export const collectionClaimsChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-entity-claims",
    title:
      "with entity_claims (every combination of entity_id, entity_types, entity_infos, trust_marks), each Entity Info carries exactly entity_id and the named claims its entity has",
    requirements: ["FED-COLL-ENTITY-CLAIMS-INCLUDE", "FED-COLL-ENTITY-CLAIMS-EXCLUDE"],
    timeoutMs: 120_000,
    async run(c) {
      const b = await collectionBasis(c);
      const unread: string[] = [];
      // Each answer judged page by page as it is walked, none held (collection-select walkJudged).
      const t = new Tally(c);
      const judge =
        (names: readonly string[]): PageJudge =>
        (xs) =>
          judgeEntityClaims(t, b, names, xs);
      const s = await singles(c, b, "entity_claims", ENTITY_CLAIMS, unread, judge);
      if (s === undefined) return c.skip("entity_claims is refused as unsupported_parameter", "not-offered");
      // A claim may be refused as unsupported_claim only when the responder does not support it:
      // entity_id is in every Entity Info (REQUIRED), and a claim its own default answer carries
      // is one it has to give, so naming either must be answered with it (MUST carry if available).
      for (const r of s.refused) {
        const shown = r.name === "entity_id" ? undefined : b.entities.find((x) => x.e[r.name] !== undefined);
        if (r.name !== "entity_id" && shown === undefined) continue;
        t.see(
          "FED-COLL-ENTITY-CLAIMS-INCLUDE",
          {
            expected: `the Entity Info objects with ${r.name} (${
              shown === undefined
                ? "REQUIRED in every Entity Info"
                : `the answer without entity_claims carries it, e.g. for ${quote(shown.id, 80)}`
            })`,
            actual: `entity_claims ${r.name} refused as unsupported_claim (${r.res.status})`,
            res: r.res,
            kind: "wrong-status",
          },
          1,
          shown?.res,
        );
      }
      // Every combination in a small collection; in a large one, as many as the page budget
      // allows, all the claims together first, then the pairs, then the triples.
      const combos = combinations(s.supported).sort((x, y) =>
        x.length === s.supported.length ? -1 : y.length === s.supported.length ? 1 : x.length - y.length,
      );
      const take = runsWithin(c, b, combos.length, ENTITY_CLAIMS.length, "combinations of entity_claims");
      for (const names of combos.slice(0, take)) {
        const r = await select(c, b, "entity_claims", names, judge(names));
        if (r.kind !== "walk")
          unread.push(r.kind === "unread" ? r.why : `entity_claims ${names.join(" ")}: ${r.kind}`);
      }
      t.decide(c, "FED-COLL-ENTITY-CLAIMS-INCLUDE", "Entity Info objects with a named claim available");
      t.decide(c, "FED-COLL-ENTITY-CLAIMS-EXCLUDE", "Entity Info objects");
      partlyPublished(c, b.sweep, ["FED-COLL-ENTITY-CLAIMS-INCLUDE"]);
      if (unread.length > 0)
        for (const id of ["FED-COLL-ENTITY-CLAIMS-INCLUDE", "FED-COLL-ENTITY-CLAIMS-EXCLUDE"])
          c.partly(
            id,
            `${unread.length} selections could not be walked (the first: ${unread[0]}): see FED-COLL-UNSUPPORTED-PARAM`,
          );
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.collection-unsupported-claim",
    title:
      "entity_claims or info_claims naming a claim no specification defines, alone or beside a known one, is answered with error unsupported_claim",
    requirements: ["FED-COLL-UNSUPPORTED-CLAIM"],
    async run(c) {
      const b = await collectionTarget(c);
      const unknown = `idconform_no_such_claim_${c.runId.slice(-6).replace(/[^A-Za-z0-9]/g, "")}`;
      let judged = 0;
      for (const [param, known] of [
        ["entity_claims", "entity_id"],
        ["info_claims", "display_name"],
      ] as const) {
        const ask = (names: readonly string[]) =>
          c.http.get(withQuery(b.url, [...b.ta, ...names.map((n) => [param, n] as const)]), {
            label: `collection, ${param} ${names.join(" ")}`,
            tags: [TAG.collection],
          });
        // The parameter counts as not offered only when a claim every responder knows is refused
        // with unsupported_parameter too: an unknown claim must not pass for an unknown parameter.
        if (refusedAs(await ask([known]), "unsupported_parameter")) {
          c.note(`${param} is refused as unsupported_parameter: its claims are not judged`);
          continue;
        }
        for (const names of [[unknown], [known, unknown]]) {
          const res = await ask(names);
          judged++;
          const problem = refusalProblem(res, ["unsupported_claim"], {
            expected: `an error unsupported_claim for ${param} ${names.join(" ")}`,
            clientError: true,
          });
          c.check("FED-COLL-UNSUPPORTED-CLAIM", problem === undefined, problem);
        }
      }
      if (judged === 0)
        c.skip("entity_claims and info_claims are both refused as unsupported_parameter", "not-offered");
    },
  }),
];
