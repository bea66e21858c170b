import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { canonical, type Metadata } from "../policy.js";
import {
  errorOf,
  expJudged,
  marksJudged,
  metadataJudged,
  readAnswer,
  responseProblem,
  type Judged,
} from "../resolve-judge.js";
import { ResolveMarkJudge } from "../resolve-marks.js";
import { refusalProblem } from "../refusal.js";
import {
  chooseSubjects,
  Configurations,
  findAnchor,
  isBelow,
  ownChain,
  type Anchor,
  type Subject,
} from "../resolve-subjects.js";
import { isObject } from "../statements.js";
import {
  chainProblem,
  pathLengthProblem,
  readChain,
  resolveFrom,
  subordinateStatements,
  type ReadChain,
  type Resolution,
} from "../trust-chain.js";
import { withQuery } from "./fetch-list.js";

/** The requirements the resolve check decides. */
export const RESOLVE_REQUIREMENTS = [
  "FED-RESOLVE-RESPONSE",
  "FED-RESOLVE-TRUST-CHAIN",
  "FED-RESOLVE-METADATA",
  "FED-RESOLVE-ENTITY-TYPE",
  "FED-RESOLVE-TRUST-MARKS",
  "FED-RESOLVE-EXP",
  "FED-RESOLVE-ERRORS",
] as const;

interface Item {
  readonly subject: string;
  readonly judged: Judged;
}

/** Decides a requirement on every item: the judged ones with c.each, the others as partly observed. */
async function decide(c: Ctx, req: string, items: readonly Item[], what: string): Promise<void> {
  const judged = items.filter((i) => !(i.judged && "partly" in i.judged));
  for (const i of items)
    if (i.judged && "partly" in i.judged) c.partly(req, `${i.subject}: ${i.judged.partly}`, "dependency");
  await c.each(req, judged, what, (i) => i.judged as Details | undefined);
}

/** public: OpenID Federation 1.0 Resolve Entity (Resolve Request, Resolve Response), Validating a Trust Chain, Metadata Policy. */
export const resolveChecks = [
  defineCheck<FederationProfile>({
    id: "federation.resolve",
    title:
      "the resolve endpoint answers each subject with a signed resolve-response+jwt: a valid Trust Chain to the Trust Anchor asked, the metadata that chain resolves to (its Subordinate Statement metadata and merged metadata_policy applied), only the Entity Types asked, only valid Trust Marks, exp the chain's earliest; errors for a missing sub, an unknown subject or anchor",
    requirements: [...RESOLVE_REQUIREMENTS],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_resolve_endpoint");
      const ecs = new Configurations(c);
      ecs.adopt(f.entityId, ec.res.text.trim(), ec.payload, ec.keys);
      const found = await findAnchor(c, f, ecs);
      if (typeof found === "string")
        return c.skip(
          `no Trust Anchor to resolve under: the target is no Trust Anchor and ${found}`,
          "dependency",
        );
      const anchor: Anchor = found;
      const picked = await chooseSubjects(c, f, anchor, ecs);
      await errorProbes(c, f, url, anchor, typeof picked === "string" ? [] : picked.subjects, ecs);
      if (typeof picked === "string") {
        for (const r of RESOLVE_REQUIREMENTS.filter((x) => x !== "FED-RESOLVE-ERRORS"))
          c.skipOnly(r, `the subordinates to resolve are unknown: ${picked} (see FED-LIST-OK)`, "dependency");
        return;
      }
      for (const n of picked.notes) c.note(n);
      const judge = new ResolveMarkJudge(anchor, ecs);
      const items: Record<string, Item[]> = Object.fromEntries(RESOLVE_REQUIREMENTS.map((r) => [r, []]));
      const add = (req: string, subject: string, judged: Judged): void =>
        void items[req]!.push({ subject, judged });
      const resolved: { s: Subject; metadata: Metadata }[] = [];
      for (const s of picked.subjects) {
        const a = await readAnswer(
          c,
          url,
          [
            ["sub", s.id],
            ["trust_anchor", anchor.id],
          ],
          `resolve ${s.id.slice(0, 160)}`,
        );
        add("FED-RESOLVE-RESPONSE", s.id, await responseProblem(a, f, ec.keys, s.id));
        const chain = a.unread === undefined ? readChain(a.payload.trust_chain) : undefined;
        if (a.unread === undefined) {
          const problem =
            typeof chain === "string"
              ? chain
              : ((await chainProblem(chain!, {
                  subject: s.id,
                  anchor: anchor.id,
                  anchorKeys: anchor.keys,
                })) ?? pathLengthProblem(chain!.payloads));
          add(
            "FED-RESOLVE-TRUST-CHAIN",
            s.id,
            problem === undefined
              ? undefined
              : {
                  expected: `a valid Trust Chain from ${s.id}'s Entity Configuration to the Trust Anchor ${anchor.id}`,
                  actual: `${problem} (sub ${s.id})`,
                  res: a.res,
                  kind:
                    typeof chain === "string"
                      ? a.payload.trust_chain === undefined
                        ? "missing"
                        : "malformed"
                      : "wrong-value",
                },
          );
        }
        const expected = await expectedMetadata(
          c,
          s,
          anchor,
          ecs,
          typeof chain === "object" ? chain : undefined,
        );
        // entity_type is asked of a subject the resolver answers without it.
        if (typeof expected === "object" && expected.ok && a.unread === undefined)
          resolved.push({ s, metadata: expected.metadata });
        const md = metadataJudged(a, s, expected);
        if (md !== null) add("FED-RESOLVE-METADATA", s.id, md);
        // Without a resolve response (FED-RESOLVE-RESPONSE) there is no chain, exp or mark to judge.
        if (a.unread !== undefined) continue;
        add("FED-RESOLVE-EXP", s.id, expJudged(a, s, chain));
        for (const m of await marksJudged(a, s, judge)) add("FED-RESOLVE-TRUST-MARKS", s.id, m);
      }
      await entityTypes(c, url, anchor, resolved, add);
      for (const r of RESOLVE_REQUIREMENTS.filter((x) => x !== "FED-RESOLVE-ERRORS"))
        await decide(
          c,
          r,
          items[r]!,
          r === "FED-RESOLVE-TRUST-MARKS"
            ? "Trust Mark in a resolve response"
            : r === "FED-RESOLVE-ENTITY-TYPE"
              ? "resolve with entity_type"
              : "subject resolved",
        );
    },
  }),
];

/** The Resolved Metadata the subject's chain gives: from the response's chain when it is in order, else from the harness's own. */
async function expectedMetadata(
  c: Ctx,
  s: Subject,
  anchor: Anchor,
  ecs: Configurations,
  theirs: ReadChain | undefined,
): Promise<Resolution | string> {
  const fromTheirs = theirs && subordinateStatements(theirs, s.id);
  if (theirs && fromTheirs) return resolveFrom(theirs.payloads[0]!, fromTheirs);
  const own = await ownChain(c, s, anchor, ecs);
  if (typeof own === "string") return `the harness could not build the Trust Chain itself: ${own}`;
  const statements = subordinateStatements(own, s.id);
  return statements
    ? resolveFrom(own.payloads[0]!, statements)
    : "the Trust Chain the harness built is not in order";
}

/** entity_type: one type asked gives only it; two asked (repeated) give both. */
async function entityTypes(
  c: Ctx,
  url: string,
  anchor: Anchor,
  resolved: readonly { s: Subject; metadata: Metadata }[],
  add: (req: string, subject: string, judged: Judged) => void,
): Promise<void> {
  const pick =
    resolved.find((r) => Object.keys(r.metadata).length >= 2) ??
    resolved.find((r) => Object.keys(r.metadata).length >= 1);
  if (!pick) return;
  const types = Object.keys(pick.metadata).sort();
  const asks = types.length >= 2 ? [[types[1]!], [types[1]!, types[0]!]] : [[types[0]!]];
  if (types.length < 2) c.note(`entity_type asked of ${pick.s.id}, which resolves to one Entity Type only`);
  for (const ask of asks) {
    const a = await readAnswer(
      c,
      url,
      [
        ["sub", pick.s.id],
        ["trust_anchor", anchor.id],
        ...ask.map((t): [string, string] => ["entity_type", t]),
      ],
      `resolve ${pick.s.id.slice(0, 120)}, entity_type ${ask.join(", ")}`,
    );
    const got =
      a.unread === undefined && isObject(a.payload.metadata)
        ? Object.keys(a.payload.metadata).sort()
        : undefined;
    add(
      "FED-RESOLVE-ENTITY-TYPE",
      pick.s.id,
      got !== undefined && canonical(got) === canonical([...ask].sort())
        ? undefined
        : {
            expected: `200 with metadata for exactly the Entity Types asked: ${ask.join(", ")}`,
            actual:
              got === undefined
                ? `${a.unread ?? "no metadata object"} (sub ${pick.s.id})`
                : `Entity Types ${quote(got, 160)} (sub ${pick.s.id})`,
            res: a.res,
            kind: got === undefined ? (a.res.status !== 200 ? "wrong-status" : "malformed") : "wrong-value",
          },
    );
  }
}

/**
 * FED-RESOLVE-ERRORS: a missing sub or trust_anchor, an unknown subject, an unknown Trust Anchor,
 * and (with trustAnchors.other) a Trust Anchor the subject is not below.
 */
async function errorProbes(
  c: Ctx,
  f: Fed,
  url: string,
  anchor: Anchor,
  subjects: readonly Subject[],
  ecs: Configurations,
): Promise<void> {
  const subject = subjects[0]?.id;
  const base = f.entityId.replace(/\/+$/, "");
  const tail = c.runId.slice(-6);
  const probes: { label: string; params: [string, string][]; codes: string[] }[] = [
    { label: "resolve without sub", params: [["trust_anchor", anchor.id]], codes: ["invalid_request"] },
    {
      label: "resolve without trust_anchor",
      params: [["sub", subject ?? f.entityId]],
      codes: ["invalid_request"],
    },
    {
      label: "resolve of an unknown subject",
      params: [
        ["sub", `${base}/idconform-unknown-${tail}`],
        ["trust_anchor", anchor.id],
      ],
      codes: ["invalid_subject", "not_found"],
    },
    {
      label: "resolve under an unknown Trust Anchor",
      params: [
        ["sub", subject ?? f.entityId],
        ["trust_anchor", `${base}/idconform-no-anchor-${tail}`],
      ],
      codes: ["invalid_trust_anchor"],
    },
  ];
  const other = c.profile.trustAnchors.other;
  if (other !== undefined && other !== anchor.id) {
    let outside: string | undefined;
    for (const s of subjects) {
      if ((await isBelow(s.id, other, ecs)) !== false) continue;
      outside = s.id;
      break;
    }
    if (outside !== undefined)
      probes.push({
        label: "resolve under a Trust Anchor the subject is not below",
        params: [
          ["sub", outside],
          ["trust_anchor", other],
        ],
        codes: ["invalid_trust_anchor", "invalid_trust_chain"],
      });
    else c.note(`no subject found outside ${other} (suites.federation.trustAnchors.other): not asked`);
  }
  await c.each("FED-RESOLVE-ERRORS", probes, "error probe", async (p) => {
    const res = await c.http.get(withQuery(url, p.params), { label: p.label, tags: [TAG.resolve] });
    return refusalProblem(res, p.codes, {
      expected: `an error answer (4xx) with error ${p.codes.join(" or ")}`,
      actual: `${res.status} error ${quote(errorOf(res) ?? null)} (${p.label})`,
      clientError: true,
    });
  });
}
