import { defineCheck, type Details } from "../../../src/engine/check.js";
import { HarnessError } from "../../../src/engine/errors.js";
import { JSON_MAX_DEPTH, jsonBeyondBounds } from "../../../src/http/json-bounds.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed, STATEMENT_TYPE, typeIs, wellKnownUrl, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { refusalProblem } from "../refusal.js";
import {
  decodeStatement,
  keysOf,
  timeProblems,
  trustMarkProblems,
  verifyWith,
  type Json,
} from "../statements.js";

/** `url` with these query parameters appended (an endpoint URL may carry a query of its own). */
export function withQuery(url: string, params: readonly (readonly [string, string])[]): string {
  const u = new URL(url);
  for (const [k, v] of params) u.searchParams.append(k, v);
  return u.href;
}

/**
 * Bytes a base list answer (or a filtered one) may take. A list of N Entity Identifiers is
 * legitimately large (100,000 of them pass 4 MiB), so its cap grows with the entries a walk
 * accepts, `walk.maxEntries`, at LIST_ID_BYTES an identifier (quotes and comma included; real
 * Entity Identifiers run 40 to 100 bytes), never below the run's usual 4 MiB. A longer or endless
 * body is still cut there: a finding (FED-LIST-OK), never a worker out of memory.
 */
export const LIST_ID_BYTES = 128;
export const listMaxBytes = (c: Ctx): number =>
  Math.max(4 * 1024 * 1024, c.profile.walk.maxEntries * LIST_ID_BYTES);

/** Whether `e` is the client stopping a body at its size cap. */
export const tooLarge = (e: unknown): e is HarnessError =>
  e instanceof HarnessError && e.code === "IDC_HTTP_TOO_LARGE";

/**
 * A request to the base list endpoint (with filters, or an extra parameter) under `listMaxBytes`.
 * A body past that cap gives the reason (`over`), for the caller to judge.
 */
export async function getList(
  c: Ctx,
  url: string,
  o: { readonly label: string },
): Promise<HttpResponse | { readonly over: string }> {
  try {
    return await c.http.get(url, { label: o.label, tags: [TAG.list], maxBytes: listMaxBytes(c) });
  } catch (e) {
    if (!tooLarge(e)) throw e;
    return {
      over: `${e.message} (${c.profile.walk.maxEntries} entries of suites.federation.walk.maxEntries at ${LIST_ID_BYTES} bytes an identifier)`,
    };
  }
}

/**
 * The base list: its entity identifiers, or undefined (and FED-LIST-OK decided) when it is not a
 * list. Read once per call, under `listMaxBytes`; a check that needs it asks once.
 */
export async function baseList(c: Ctx, f: Fed, decide = false): Promise<string[] | undefined> {
  const url = await f.endpoint("federation_list_endpoint");
  const res = await getList(c, url, { label: "base list" });
  if ("over" in res) {
    if (decide)
      c.check("FED-LIST-OK", false, {
        expected: `200 with a JSON array of Entity Identifier strings, within ${listMaxBytes(c)} bytes`,
        actual: res.over,
        kind: "malformed",
      });
    return undefined;
  }
  const read = listJson(c, res);
  const ok =
    res.status === 200 &&
    Array.isArray(read.json) &&
    (read.json as unknown[]).every((x) => typeof x === "string");
  if (decide)
    c.check("FED-LIST-OK", ok, {
      expected: "200 with a JSON array of Entity Identifier strings",
      actual: `${res.status} ${read.error ?? quote(read.json ?? res.text.slice(0, 120), 200)}`,
      res,
      kind: res.status !== 200 ? "wrong-status" : read.error !== undefined ? "malformed" : "wrong-value",
    });
  return ok ? (read.json as string[]) : undefined;
}

/**
 * A base list answer's JSON. The client parses at most JSON_MAX_VALUES values a body (100,000);
 * a list holds one an entity, so it is read here within `walk.maxEntries` values instead (and the
 * usual depth): a longer list is a finding, as a walk past `walk.maxEntries` is.
 */
export function listJson(c: Ctx, res: HttpResponse): { json: unknown; error?: string } {
  if (res.jsonError === undefined) return { json: res.json };
  if (res.text.length === 0) return { json: undefined, error: "empty body" };
  const max = c.profile.walk.maxEntries;
  const beyond = jsonBeyondBounds(res.text, JSON_MAX_DEPTH, max + 1);
  if (beyond !== undefined)
    return { json: undefined, error: `not read: ${beyond} (suites.federation.walk.maxEntries ${max})` };
  try {
    return { json: JSON.parse(res.text) as unknown };
  } catch (e) {
    return { json: undefined, error: `not JSON: ${(e as Error).message}` };
  }
}

/** One fetched Subordinate Statement, as the checks judge it. */
interface Fetched {
  readonly sub: string;
  readonly res: HttpResponse;
  readonly header: Json;
  readonly payload: Json;
  readonly unreadable?: string;
}

/** public-spec-facts §2 (Fetch, List): the base endpoints the extensions stand on. */
export const fetchListChecks = [
  defineCheck<FederationProfile>({
    id: "federation.fetch-list",
    title:
      "the base list names the Immediate Subordinates; fetch answers each with a Subordinate Statement signed by a key of the Entity Configuration, iss the target and sub as asked, without authority_hints; an unknown sub is not_found",
    requirements: [
      "FED-LIST-OK",
      "FED-FETCH-OK",
      "FED-FETCH-TYP",
      "FED-FETCH-SIGNATURE",
      "FED-FETCH-ISS-SUB",
      "FED-FETCH-CLAIMS",
      "FED-FETCH-NO-AUTHORITY-HINTS",
      "FED-FETCH-NOT-FOUND",
      "FED-FETCH-NO-SUB",
      "FED-EC-TRUST-MARKS",
    ],
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const fetchUrl = await f.endpoint("federation_fetch_endpoint");
      // Subjects that are no Immediate Subordinate first: they need no list. An unknown one, and
      // the target itself (an entity it knows, but never its own subordinate). For itself an
      // invalid_request is as right as not_found (the request names no subordinate: the error
      // table's "non-compliant request"); a statement about itself is wrong either way.
      const notSubordinates = [
        [
          `${f.entityId.replace(/\/+$/, "")}/idconform-unknown-${c.runId.slice(-6)}`,
          "an unknown sub",
          ["not_found"],
        ],
        [f.entityId, "the target's own Entity Identifier as sub", ["not_found", "invalid_request"]],
      ] as const;
      await c.each("FED-FETCH-NOT-FOUND", notSubordinates, "sub", async ([sub, what, codes]) => {
        const nf = await c.http.get(withQuery(fetchUrl, [["sub", sub]]), {
          label: `fetch of ${what}`,
          tags: [TAG.fetch],
        });
        return refusalProblem(nf, codes, {
          expected: `an error answer with error ${codes.join(" or ")} for ${what}`,
        });
      });
      // No sub at all: the request is incomplete.
      const ns = await c.http.get(fetchUrl, { label: "fetch without sub", tags: [TAG.fetch] });
      const noSub = refusalProblem(ns, ["invalid_request"], {
        expected: "an error answer with error invalid_request",
      });
      c.check("FED-FETCH-NO-SUB", noSub === undefined, noSub);
      const listed = await baseList(c, f, true);
      // The unknown sub was judged without the list; what needs its subordinates cannot be.
      if (listed === undefined) {
        for (const id of [
          "FED-FETCH-OK",
          "FED-FETCH-TYP",
          "FED-FETCH-SIGNATURE",
          "FED-FETCH-ISS-SUB",
          "FED-FETCH-CLAIMS",
          "FED-FETCH-NO-AUTHORITY-HINTS",
          "FED-EC-TRUST-MARKS",
        ])
          c.skipOnly(id, "the base list is not a list: see FED-LIST-OK", "dependency");
        return;
      }
      const max = c.profile.walk.fetchMax;
      const subs = listed.slice(0, max);
      const fetched: Fetched[] = [];
      for (const sub of subs) {
        const res = await c.http.get(withQuery(fetchUrl, [["sub", sub]]), {
          label: `fetch ${sub}`,
          tags: [TAG.fetch],
        });
        const d = decodeStatement(res.text);
        fetched.push(
          d.ok
            ? { sub, res, header: d.header, payload: d.payload }
            : { sub, res, header: {}, payload: {}, unreadable: d.why },
        );
      }
      const read = fetched.filter((x) => x.res.status === 200 && x.unreadable === undefined);
      await c.each("FED-FETCH-OK", fetched, "subordinate", (x): Details | undefined =>
        x.res.status === 200 && typeIs(x.res, STATEMENT_TYPE) && x.unreadable === undefined
          ? undefined
          : {
              expected: `200 ${STATEMENT_TYPE} with a JWT for sub ${x.sub}`,
              actual: `${x.res.status} ${x.res.header("content-type") ?? "(no Content-Type)"}${x.unreadable ? `: ${x.unreadable}` : ""}`,
              res: x.res,
              kind: x.res.status !== 200 ? "wrong-status" : x.unreadable ? "malformed" : "wrong-value",
            },
      );
      await c.each("FED-FETCH-TYP", read, "statement", (x) =>
        x.header.typ === "entity-statement+jwt"
          ? undefined
          : {
              expected: "typ entity-statement+jwt",
              actual: `typ ${quote(x.header.typ ?? null)} (sub ${x.sub})`,
              res: x.res,
            },
      );
      await c.each("FED-FETCH-SIGNATURE", read, "statement", async (x) => {
        const why = await verifyWith(x.res.text, x.header, ec.keys);
        return why === undefined
          ? undefined
          : {
              expected: "signed with a key of the Entity Configuration",
              actual: `${why} (sub ${x.sub})`,
              res: x.res,
            };
      });
      await c.each("FED-FETCH-ISS-SUB", read, "statement", (x) =>
        x.payload.iss === f.entityId && x.payload.sub === x.sub
          ? undefined
          : {
              expected: `iss ${f.entityId}, sub ${x.sub}`,
              actual: `iss ${quote(x.payload.iss ?? null)}, sub ${quote(x.payload.sub ?? null)}`,
              res: x.res,
            },
      );
      await c.each("FED-FETCH-CLAIMS", read, "statement", (x) => {
        const problems = [...timeProblems(x.payload), ...keysOf(x.payload.jwks).problems];
        return problems.length === 0
          ? undefined
          : {
              expected: "numeric iat and exp in time, a jwks with unique kids",
              actual: `${problems.join("; ")} (sub ${x.sub})`,
              res: x.res,
            };
      });
      await c.each("FED-FETCH-NO-AUTHORITY-HINTS", read, "statement", (x) =>
        x.payload.authority_hints === undefined
          ? undefined
          : {
              expected: "no authority_hints",
              actual: `authority_hints ${quote(x.payload.authority_hints, 120)} (sub ${x.sub})`,
              res: x.res,
              kind: "wrong-value",
            },
      );
      // FED-EC-TRUST-MARKS over the subordinates' own Entity Configurations (the target's own is
      // judged by federation.entity-configuration).
      const marks: { sub: string; res: HttpResponse; marks: unknown }[] = [];
      for (const sub of subs) {
        const res = await c.http.get(wellKnownUrl(sub), { label: `Entity Configuration of ${sub}` });
        const d = decodeStatement(res.text);
        if (res.status === 200 && d.ok && d.payload.trust_marks !== undefined)
          marks.push({ sub, res, marks: d.payload.trust_marks });
      }
      if (marks.length === 0)
        c.skipOnly(
          "FED-EC-TRUST-MARKS",
          "no listed subordinate's Entity Configuration carries trust_marks",
          "other",
        );
      else
        await c.each("FED-EC-TRUST-MARKS", marks, "subordinate's trust_marks", (m) => {
          const bad = trustMarkProblems(m.marks);
          return bad === undefined
            ? undefined
            : {
                expected: "trust_marks: an array of {trust_mark_type, trust_mark (a JWT)}",
                actual: `${bad} (${m.sub})`,
                res: m.res,
                kind: "malformed",
              };
        });
      if (listed.length > max)
        for (const id of [
          "FED-FETCH-OK",
          "FED-FETCH-TYP",
          "FED-FETCH-SIGNATURE",
          "FED-FETCH-ISS-SUB",
          "FED-FETCH-CLAIMS",
          "FED-FETCH-NO-AUTHORITY-HINTS",
        ])
          c.partly(
            id,
            `judged on the first ${max} of ${listed.length} subordinates (suites.federation.walk.fetchMax)`,
            "not-exercised",
          );
    },
  }),
];
