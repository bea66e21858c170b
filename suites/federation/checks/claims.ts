import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { decodeStatement, isObject, statementClaims, verifyWith, type Json } from "../statements.js";
import { subordinateConfigurations } from "../subordinates.js";
import { citable, releaseWalk, Tally, walkExtendedList, type Page } from "../walk.js";
import { withQuery } from "./fetch-list.js";
import type { Details } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";

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
const statementChecks = [
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
    // Four walks of the whole list, two carrying a signed statement an entry: against the
    // reference target with 100,000 members they took 50 to 60 s over loopback.
    timeoutMs: 240_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      // Every entry is judged as its page is read (a federation of 100,000 members lists 100,000
      // statements a form): the form of each statement, its typ, iss and sub on every one; its
      // signature, and the comparison with fetch, on the first walk.fetchMax (then "partly").
      const max = c.profile.walk.fetchMax;
      const carries = new Tally(c, "FED-XL-CLAIMS-STATEMENT", "entry");
      const valid = new Tally(c, "FED-XL-STATEMENT-VALID", "subordinate_statement");
      let statements = 0;
      let verified = 0;
      const sample: { id: string; payload: Json; res: HttpResponse }[] = [];
      const judgeStatements = async (page: Page, index: number): Promise<void> => {
        const res = citable(page, index);
        for (const e of page.entries) {
          const token = e.subordinate_statement;
          const d = typeof token === "string" ? decodeStatement(token) : undefined;
          carries.add(
            d?.ok === true
              ? undefined
              : {
                  expected: "subordinate_statement, a JWT string",
                  actual: `entry ${quote(e.id ?? null)}: subordinate_statement ${quote(token ?? null, 80)}`,
                  res,
                  kind: token === undefined ? "missing" : "malformed",
                },
          );
          if (d?.ok !== true || typeof token !== "string") continue;
          statements++;
          const id = String(e.id);
          const problems: string[] = [];
          if (d.header.typ !== "entity-statement+jwt") problems.push(`typ ${quote(d.header.typ ?? null)}`);
          if (verified < max) {
            verified++;
            const why = await verifyWith(token, d.header, ec.keys);
            if (why !== undefined) problems.push(why);
          }
          if (d.payload.iss !== f.entityId) problems.push(`iss ${quote(d.payload.iss ?? null)}`);
          if (d.payload.sub !== id) problems.push(`sub ${quote(d.payload.sub ?? null)} for entry ${id}`);
          valid.add(
            problems.length === 0
              ? undefined
              : {
                  expected: "typ, a signature by the target's key, iss the target, sub the entry's id",
                  actual: problems.join("; "),
                  res,
                },
          );
          if (sample.length < max) sample.push({ id, payload: d.payload, res });
        }
      };
      // Two claims, the statement first: a target that reads only the last of a repeated
      // parameter shows itself in the repeated form.
      for (const params of claimsForms(c, ["subordinate_statement", "metadata"])) {
        const w = await walkExtendedList(c, url, {
          label: "extended list, claims subordinate_statement",
          params,
          onPage: judgeStatements,
        });
        releaseWalk(c, w);
        if (w.stopped !== undefined)
          c.skip(`the walk with claims did not end (${w.stopped}): see FED-XL-WALK-ONCE`, "dependency");
      }
      carries.decide();
      valid.decide();
      if (statements > verified)
        c.partly(
          "FED-XL-STATEMENT-VALID",
          `signatures verified on the first ${verified} of ${statements} statements (suites.federation.walk.fetchMax); typ, iss and sub on every one`,
        );
      // The same statement as fetch gives, for a bounded number of entries.
      const fetchUrl = await f.endpoint("federation_fetch_endpoint");
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
      if (statements > sample.length)
        c.partly(
          "FED-XL-STATEMENT-FETCH",
          `compared for the first ${sample.length} of ${statements} entries (suites.federation.walk.fetchMax)`,
        );
      // claims present without subordinate_statement: no entry carries one.
      const none = new Tally(c, "FED-XL-CLAIMS-NO-STATEMENT", "entry");
      for (const params of claimsForms(c, ["metadata"])) {
        const w = await walkExtendedList(c, url, {
          label: "extended list, claims metadata",
          params,
          onPage: (page, index) => {
            for (const e of page.entries)
              none.add(
                e.subordinate_statement === undefined
                  ? undefined
                  : {
                      expected: "no subordinate_statement (claims=metadata)",
                      actual: `entry ${quote(e.id ?? null)} carries one`,
                      res: citable(page, index),
                      kind: "wrong-value",
                    },
              );
          },
        });
        releaseWalk(c, w);
      }
      none.decide();
    },
  }),
];

/** Claims a statement minted per request may change: only their presence is compared. */
const PER_REQUEST = new Set(["iat", "exp", "jti"]);
/** Claim names asked for at once (a hostile statement may hold any number of members). */
const MAX_NAMES = 30;
/** The claims FED-XL-CLAIMS-INCLUDED judges, and one the entry object has a rule of its own for. */
const SELECTED = new Set(["metadata", "trust_marks", "subordinate_statement"]);

/** A JSON value as text with object members sorted, so that equal values compare equal. */
function canon(v: unknown, depth = 0): string {
  if (depth > 200) return "\u0000too deep";
  if (Array.isArray(v)) return `[${v.map((x) => canon(x, depth + 1)).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(v[k], depth + 1)}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** What one entry should carry: the claim, its entity's value, and the value listed. */
interface Expectation {
  readonly id: string;
  readonly claim: string;
  readonly want: unknown;
  readonly got: unknown;
  readonly res: HttpResponse;
  readonly form: string;
}

/** Whether the listed value is the entity's, for one claim: trust_marks as marks of its Entity Configuration. */
function listedProblem(x: Expectation): Details | undefined {
  const where = `entry ${x.id}, claims ${x.form}`;
  if (x.got === undefined)
    return {
      expected: `${x.claim}, which its entity has`,
      actual: `${where}: no ${x.claim}`,
      res: x.res,
      kind: "missing",
    };
  if (x.claim === "trust_marks") {
    // The entity's marks: each listed one is a mark its Entity Configuration publishes.
    const own = new Set((x.want as unknown[]).map((m) => (isObject(m) ? m.trust_mark : undefined)));
    const bad = Array.isArray(x.got)
      ? x.got.find((m) => !isObject(m) || typeof m.trust_mark !== "string" || !own.has(m.trust_mark))
      : x.got;
    return bad === undefined && Array.isArray(x.got) && x.got.length > 0
      ? undefined
      : {
          expected: "trust_marks: the Trust Marks of the entity's Entity Configuration",
          actual: `${where}: ${Array.isArray(x.got) && x.got.length === 0 ? "an empty array" : `${quote(bad, 120)} is none of them`}`,
          res: x.res,
          kind: "wrong-value",
        };
  }
  if (PER_REQUEST.has(x.claim)) return undefined;
  return canon(x.got) === canon(x.want)
    ? undefined
    : {
        expected: `${x.claim} as the entity's Subordinate Statement has it: ${quote(x.want, 120)}`,
        actual: `${where}: ${quote(x.got, 160)}`,
        res: x.res,
        kind: "wrong-value",
      };
}

/**
 * specs/001 Endpoints: Extended subordinate listing (claims: each entry MUST include the
 * requested claims if available; supported options SHOULD be all top-level entity-statement
 * claims); Extended listing response, entry object (other selected claims, trust_marks, metadata).
 */
const claimsSelectedChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-claims-selected",
    title:
      "with claims naming metadata or trust_marks every entry carries each its entity has (metadata of its Subordinate Statement, trust_marks of its Entity Configuration); with claims naming any other top-level claim of a Subordinate Statement every entry whose statement holds it carries it",
    requirements: ["FED-XL-CLAIMS-INCLUDED", "FED-XL-CLAIMS-ALL"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const fetchUrl = await f.endpoint("federation_fetch_endpoint");
      const plain = await walkExtendedList(c, url, { label: "extended list" });
      if (plain.stopped !== undefined)
        c.skip(
          `the extended list did not walk to its end (${plain.stopped}): see FED-XL-WALK-ONCE`,
          "dependency",
        );
      const ids = [...new Set(plain.ids)];
      const max = c.profile.walk.fetchMax;
      // What each entity has: its Subordinate Statement as fetch serves it (signed by the target,
      // about it), and its own Entity Configuration.
      const statements = new Map<string, Json>();
      const unusable: string[] = [];
      for (const id of ids.slice(0, max)) {
        const res = await c.http.get(withQuery(fetchUrl, [["sub", id]]), {
          label: `fetch ${id}`,
          tags: [TAG.fetch],
        });
        const d = decodeStatement(res.text);
        // What the target itself says the entity has, signed well or not (FED-FETCH-* judge that).
        if (res.status === 200 && d.ok && d.payload.sub === id) statements.set(id, d.payload);
        else unusable.push(id);
      }
      const ecs = await subordinateConfigurations(c, ids);
      // Only the entries of the subordinates read above are judged, so only they are kept.
      const judgedIds = new Set(ids.slice(0, max));
      const walkAll = async (
        names: readonly string[],
        label: string,
      ): Promise<{ e: Json; res: HttpResponse; form: string }[]> => {
        const out: { e: Json; res: HttpResponse; form: string }[] = [];
        for (const params of claimsForms(c, names)) {
          const form = params.length === 1 ? "comma-separated" : "repeated";
          const w = await walkExtendedList(c, url, {
            label: `extended list, ${label} (${form})`,
            params,
            keepEntries: true,
            keepIf: (e) => typeof e.id === "string" && judgedIds.has(e.id),
          });
          if (w.stopped !== undefined)
            c.skip(`the walk with claims did not end (${w.stopped}): see FED-XL-WALK-ONCE`, "dependency");
          out.push(...w.pages.flatMap((p) => p.entries.map((e) => ({ e, res: p.res, form }))));
        }
        return out;
      };

      // FED-XL-CLAIMS-INCLUDED: metadata and trust_marks, asked together.
      const included: Expectation[] = [];
      for (const { e, res, form } of await walkAll(
        ["metadata", "trust_marks"],
        "claims metadata, trust_marks",
      )) {
        const id = String(e.id);
        const st = statements.get(id);
        if (st?.metadata !== undefined)
          included.push({ id, claim: "metadata", want: st.metadata, got: e.metadata, res, form });
        const marks = ecs.read.get(id)?.trust_marks;
        if (Array.isArray(marks) && marks.length > 0)
          included.push({ id, claim: "trust_marks", want: marks, got: e.trust_marks, res, form });
      }
      if (included.length === 0)
        c.skipOnly(
          "FED-XL-CLAIMS-INCLUDED",
          "no listed subordinate has metadata in its Subordinate Statement or trust_marks in its Entity Configuration",
          "other",
        );
      else await c.each("FED-XL-CLAIMS-INCLUDED", included, "entry claim", listedProblem);

      // FED-XL-CLAIMS-ALL: every other top-level claim the fetched statements hold, asked together.
      const names = [...new Set([...statements.values()].flatMap((p) => Object.keys(p)))]
        .filter((n) => !SELECTED.has(n) && /^[A-Za-z0-9_.:#-]{1,64}$/.test(n))
        // The claims a statement keeps from request to request first: their values are compared.
        .sort((a, b) => Number(PER_REQUEST.has(a)) - Number(PER_REQUEST.has(b)) || a.localeCompare(b))
        .slice(0, MAX_NAMES);
      if (names.length === 0)
        c.skipOnly("FED-XL-CLAIMS-ALL", "the Subordinate Statements hold no other top-level claim", "other");
      else {
        const all: Expectation[] = [];
        for (const { e, res, form } of await walkAll(names, `claims ${names.join(",")}`)) {
          const id = String(e.id);
          const st = statements.get(id);
          if (st === undefined) continue;
          for (const n of names)
            if (st[n] !== undefined) all.push({ id, claim: n, want: st[n], got: e[n], res, form });
        }
        await c.each("FED-XL-CLAIMS-ALL", all, "entry claim", listedProblem);
      }

      const reason = [
        ids.length > max
          ? `${ids.length - max} subordinates past suites.federation.walk.fetchMax not read`
          : "",
        unusable.length > 0
          ? `${unusable.length} subordinate(s) whose fetched statement is unusable (the first ${unusable[0]}; see FED-FETCH-*)`
          : "",
      ]
        .filter(Boolean)
        .join("; ");
      if (reason !== "") {
        c.partly("FED-XL-CLAIMS-INCLUDED", reason);
        c.partly("FED-XL-CLAIMS-ALL", reason);
      }
      if (ecs.unread.length > 0)
        c.partly(
          "FED-XL-CLAIMS-INCLUDED",
          `${ecs.unread.length} subordinate(s) whose Entity Configuration is unusable, their trust_marks not judged (the first ${ecs.unread[0]!.id}: ${ecs.unread[0]!.why})`,
        );
    },
  }),
];

/** specs/001 Endpoints: Extended subordinate listing (claims). */
export const claimsChecks = [...statementChecks, ...claimsSelectedChecks];
