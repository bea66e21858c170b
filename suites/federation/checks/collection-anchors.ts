import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { isObject, type Json } from "../statements.js";
import { findCollectingAnchor, NO_ANCHOR, walkCollection, type CollWalk } from "./collection.js";
import { Federation } from "./collection-entities.js";
import { releaseWalk } from "../walk.js";

const stamps = (...ws: CollWalk[]): number =>
  new Set(ws.flatMap((w) => w.pages.map((p) => JSON.stringify(p.lastUpdated ?? null)))).size;

/** specs/001 What the service does, Rules 2; Endpoints: Entity collection (trust_anchor). */
export const collectionAnchorChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-trust-anchors",
    title:
      "without trust_anchor a Trust Anchor collects under itself and any other responder answers an empty result; trust_anchor naming another anchor lists only entities below it or is refused with invalid_trust_anchor; a collection publisher also publishes a resolve endpoint",
    requirements: [
      "FED-COLL-TA-OMITTED",
      "FED-COLL-TA-NOT-ANCHOR",
      "FED-COLL-TA-OTHER",
      "FED-COLL-RESOLVE-PUBLISHED",
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_collection_endpoint");
      const fed = new Federation(c);
      fed.adopt(f.entityId, ec);
      // The anchor is needed for trust_anchor naming another one only: an Intermediate whose
      // authority_hints lead nowhere is still judged on the rest.
      const coll = await findCollectingAnchor(c, f);
      const own = coll?.own ?? (await f.role()) === "anchor";
      // Only ids are compared here: no walk keeps its entities (a collection of 100,000 is not held).
      const bare = await walkCollection(c, url, undefined, "collection without trust_anchor", [], {
        keep: 0,
      });
      const first = bare.pages[0]!;
      if (own) {
        c.skipOnly(
          "FED-COLL-TA-NOT-ANCHOR",
          "not applicable: the target is a Trust Anchor (the rule is about other responders)",
          "not-offered",
        );
        const named = await walkCollection(
          c,
          url,
          undefined,
          "collection, trust_anchor the target",
          [["trust_anchor", f.entityId]],
          { keep: 0 },
        );
        if (bare.stopped !== undefined || named.stopped !== undefined)
          c.skipOnly(
            "FED-COLL-TA-OMITTED",
            `a walk did not end (${bare.stopped ?? named.stopped!}): see FED-COLL-OK and the walk requirements`,
            "dependency",
          );
        else if (stamps(bare, named) > 1)
          c.skipOnly("FED-COLL-TA-OMITTED", "last_updated changed between the two walks", "other");
        else {
          const a = new Set(bare.ids);
          const b = new Set(named.ids);
          const onlyBare = [...a].filter((x) => !b.has(x));
          const onlyNamed = [...b].filter((x) => !a.has(x));
          c.check("FED-COLL-TA-OMITTED", onlyBare.length === 0 && onlyNamed.length === 0, {
            expected: `the ${b.size} entities listed with trust_anchor=${f.entityId}`,
            actual: [
              onlyNamed.length > 0
                ? `${onlyNamed.length} missing without trust_anchor (the first ${onlyNamed[0]})`
                : "",
              onlyBare.length > 0 ? `${onlyBare.length} more without it (the first ${onlyBare[0]})` : "",
            ]
              .filter(Boolean)
              .join("; "),
            res: first.res,
            kind: "wrong-value",
          });
        }
      } else {
        c.skipOnly(
          "FED-COLL-TA-OMITTED",
          "not applicable: the target is not a Trust Anchor (the rule is about anchors)",
          "not-offered",
        );
        c.check("FED-COLL-TA-NOT-ANCHOR", first.shape === undefined && first.ids.length === 0, {
          expected: "200 application/json with entities [] (the target is not a Trust Anchor)",
          actual:
            first.shape ??
            `${bare.ids.length} entities${bare.ids[0] !== undefined ? `, the first ${bare.ids[0]}` : ""}`,
          res: first.res,
          kind:
            first.res.status !== 200
              ? "wrong-status"
              : first.shape !== undefined
                ? "malformed"
                : "wrong-value",
        });
      }
      // Judged: only the first pages are cited (never freed), the rest of the walk goes.
      releaseWalk(c, bare);
      if (coll === undefined) c.skipOnly("FED-COLL-TA-OTHER", NO_ANCHOR, "dependency");
      else await otherAnchor(c, fed, url, coll.anchor);
      // Every Entity Configuration seen that publishes a collection endpoint: the target's, and
      // those the anchors' lists led to.
      const publishers = [
        { id: f.entityId, metadata: ec.payload.metadata, res: ec.res },
        ...(await fed.usable()).map((x) => ({ id: x.id, metadata: x.metadata, res: x.ec.res })),
      ].filter((x, i, all) => all.findIndex((y) => y.id === x.id) === i);
      const fe = (m: unknown): Json =>
        isObject(m) && isObject(m.federation_entity) ? m.federation_entity : {};
      await c.each(
        "FED-COLL-RESOLVE-PUBLISHED",
        publishers.filter((x) => fe(x.metadata).federation_collection_endpoint !== undefined),
        "Entity Configuration publishing federation_collection_endpoint",
        (x) =>
          typeof fe(x.metadata).federation_resolve_endpoint === "string"
            ? undefined
            : {
                expected: "federation_resolve_endpoint beside federation_collection_endpoint",
                actual: `${x.id}: federation_resolve_endpoint ${quote(fe(x.metadata).federation_resolve_endpoint ?? null)}`,
                res: x.res,
                kind: "missing",
              },
      );
    },
  }),
];

/** FED-COLL-TA-OTHER: trust_anchor naming the profile's other anchor. */
async function otherAnchor(c: Ctx, fed: Federation, url: string, collecting: string): Promise<void> {
  const other = c.profile.trustAnchors.other;
  if (other === undefined || other === collecting) {
    c.skipOnly(
      "FED-COLL-TA-OTHER",
      other === undefined
        ? "needs another Trust Anchor (suites.federation.trustAnchors.other)"
        : "suites.federation.trustAnchors.other is the anchor the target collects under",
      "not-declared",
    );
    return;
  }
  const w = await walkCollection(
    c,
    url,
    undefined,
    `collection, trust_anchor ${other}`,
    [["trust_anchor", other]],
    { keep: 0 },
  );
  const top = w.pages[0]!;
  const error = isObject(top.res.json) ? top.res.json.error : undefined;
  if (top.res.status >= 400 && top.res.status < 500 && error === "invalid_trust_anchor") {
    c.note(`the collection refuses trust_anchor ${other} with invalid_trust_anchor (allowed)`);
    c.check("FED-COLL-TA-OTHER", true);
    return;
  }
  if (top.shape !== undefined) {
    c.check("FED-COLL-TA-OTHER", false, {
      expected: "200 with the entities below that anchor, or an error invalid_trust_anchor",
      actual: `${top.shape}${typeof error === "string" ? ` (error ${quote(error)})` : ""}`,
      res: top.res,
      kind: top.res.status >= 500 || top.res.status < 400 ? "wrong-status" : "wrong-code",
    });
    return;
  }
  const ids = [...new Set(w.ids)];
  if (ids.length === 0) {
    c.note(`the collection lists no entity below ${other}`);
    c.check("FED-COLL-TA-OTHER", true);
    return;
  }
  const max = c.profile.walk.fetchMax;
  const judged = ids.slice(0, max);
  // The page that listed each judged entity, found in one pass (not a search of every page per entity).
  const wanted = new Set(judged);
  const pageOf = new Map<string, CollWalk["pages"][number]["res"]>();
  for (const p of w.pages)
    for (const id of p.ids) if (wanted.has(id) && !pageOf.has(id)) pageOf.set(id, p.res);
  let unknown = 0;
  await c.each("FED-COLL-TA-OTHER", judged, "entity listed", async (id) =>
    (await fed.isBelow(id, other)) || (fed.exhausted && ++unknown > 0)
      ? undefined
      : {
          expected: `only entities directly or indirectly below ${other}`,
          actual: `${id} is not below it`,
          res: pageOf.get(id) ?? top.res,
          kind: "wrong-value",
        },
  );
  if (judged.length - unknown < ids.length)
    c.partly(
      "FED-COLL-TA-OTHER",
      `judged for ${judged.length - unknown} of ${ids.length} entities (${unknown > 0 ? fed.unknownWhy : "suites.federation.walk.fetchMax"})`,
    );
  if (w.stopped !== undefined) c.partly("FED-COLL-TA-OTHER", `the walk did not end: ${w.stopped}`);
}
