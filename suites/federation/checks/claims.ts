import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { decodeStatement, statementClaims, verifyWith } from "../statements.js";
import { walkExtendedList, type Walk } from "../walk.js";
import { withQuery } from "./fetch-list.js";

/** `claims` as the profile says the target takes it: comma-separated, repeated, or both forms tried. */
function claimsForms(c: Ctx, claims: readonly string[]): (readonly [string, string])[][] {
  const comma = [["claims", claims.join(",")] as const];
  const repeated = claims.map((x) => ["claims", x] as const);
  return c.profile.claimsForm === "comma"
    ? [comma]
    : c.profile.claimsForm === "repeated"
      ? [repeated]
      : [comma, repeated];
}

/** specs/001 Endpoints: Extended subordinate listing (claims) and the entry object (subordinate_statement). */
export const claimsChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-claims-statement",
    title:
      "with claims naming subordinate_statement every entry carries one, signed by the target about the entry's id and the same as fetch returns; with claims without it, none does",
    requirements: [
      "FED-XL-CLAIMS-STATEMENT",
      "FED-XL-CLAIMS-NO-STATEMENT",
      "FED-XL-STATEMENT-VALID",
      "FED-XL-STATEMENT-FETCH",
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const walks: Walk[] = [];
      // Two claims, the statement first: a target that reads only the last of a repeated
      // parameter shows itself in the repeated form.
      for (const params of claimsForms(c, ["subordinate_statement", "metadata"]))
        walks.push(
          await walkExtendedList(c, url, {
            label: "extended list, claims subordinate_statement",
            params,
            keepEntries: true,
          }),
        );
      const entries = walks.flatMap((w) => w.pages.flatMap((p) => p.entries.map((e) => ({ e, res: p.res }))));
      const bad = walks.find((w) => w.stopped !== undefined);
      if (bad)
        c.skip(`the walk with claims did not end (${bad.stopped}): see FED-XL-WALK-ONCE`, "dependency");
      await c.each("FED-XL-CLAIMS-STATEMENT", entries, "entry", ({ e, res }) =>
        typeof e.subordinate_statement === "string" && decodeStatement(e.subordinate_statement).ok
          ? undefined
          : {
              expected: "subordinate_statement, a JWT string",
              actual: `entry ${quote(e.id ?? null)}: subordinate_statement ${quote(e.subordinate_statement ?? null, 80)}`,
              res,
              kind: e.subordinate_statement === undefined ? "missing" : "malformed",
            },
      );
      const statements = entries.flatMap(({ e, res }) => {
        if (typeof e.subordinate_statement !== "string") return [];
        const d = decodeStatement(e.subordinate_statement);
        return d.ok
          ? [{ id: String(e.id), token: e.subordinate_statement, header: d.header, payload: d.payload, res }]
          : [];
      });
      await c.each("FED-XL-STATEMENT-VALID", statements, "subordinate_statement", async (s) => {
        const problems: string[] = [];
        if (s.header.typ !== "entity-statement+jwt") problems.push(`typ ${quote(s.header.typ ?? null)}`);
        const why = await verifyWith(s.token, s.header, ec.keys);
        if (why !== undefined) problems.push(why);
        if (s.payload.iss !== f.entityId) problems.push(`iss ${quote(s.payload.iss ?? null)}`);
        if (s.payload.sub !== s.id) problems.push(`sub ${quote(s.payload.sub ?? null)} for entry ${s.id}`);
        return problems.length === 0
          ? undefined
          : {
              expected: "typ, a signature by the target's key, iss the target, sub the entry's id",
              actual: problems.join("; "),
              res: s.res,
            };
      });
      // The same statement as fetch gives, for a bounded number of entries.
      const fetchUrl = await f.endpoint("federation_fetch_endpoint");
      const sample = statements.slice(0, c.profile.walk.fetchMax);
      await c.each("FED-XL-STATEMENT-FETCH", sample, "subordinate_statement", async (s) => {
        const res = await c.http.get(withQuery(fetchUrl, [["sub", s.id]]), {
          label: `fetch ${s.id}`,
          tags: [TAG.fetch],
        });
        const d = decodeStatement(res.text);
        if (res.status !== 200 || !d.ok)
          return { expected: `fetch of ${s.id} for comparison`, actual: `${res.status}`, res };
        return statementClaims(d.payload) === statementClaims(s.payload)
          ? undefined
          : {
              expected: `the claims fetch returns for ${s.id} (iat, exp and jti aside)`,
              actual: `the listed statement differs: ${quote(s.payload, 200)}`,
              res: s.res,
              kind: "wrong-value",
            };
      });
      if (statements.length > sample.length)
        c.partly(
          "FED-XL-STATEMENT-FETCH",
          `compared for the first ${sample.length} of ${statements.length} entries (suites.federation.walk.fetchMax)`,
        );
      // claims present without subordinate_statement: no entry carries one.
      const without: Walk[] = [];
      for (const params of claimsForms(c, ["metadata"]))
        without.push(
          await walkExtendedList(c, url, {
            label: "extended list, claims metadata",
            params,
            keepEntries: true,
          }),
        );
      const plain = without.flatMap((w) => w.pages.flatMap((p) => p.entries.map((e) => ({ e, res: p.res }))));
      await c.each("FED-XL-CLAIMS-NO-STATEMENT", plain, "entry", ({ e, res }) =>
        e.subordinate_statement === undefined
          ? undefined
          : {
              expected: "no subordinate_statement (claims=metadata)",
              actual: `entry ${quote(e.id ?? null)} carries one`,
              res,
              kind: "wrong-value",
            },
      );
    },
  }),
];
