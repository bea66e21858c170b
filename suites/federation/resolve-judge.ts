import type { Details } from "../../src/engine/check.js";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { typeIs, type Ctx, type Fed } from "./client.js";
import { withQuery } from "./checks/fetch-list.js";
import { TAG } from "./observers.js";
import { canonical, PolicyError, sameSet, setOperators, type Metadata, type Policy } from "./policy.js";
import { markExp, MAX_MARKS, type ResolveMarkJudge } from "./resolve-marks.js";
import type { Subject } from "./resolve-subjects.js";
import { decodeStatement, isObject, LEEWAY, now, verifyWith, type Json } from "./statements.js";
import type { ReadChain, Resolution } from "./trust-chain.js";

/**
 * How the resolve check reads and judges one resolve answer (OpenID Federation 1.0 Resolve
 * Response): its form, its metadata against the harness's own resolution, its exp and its Trust
 * Marks. Each judgement is met (undefined), violated (Details) or not observable here (partly).
 */

export const RESOLVE_TYPE = "application/resolve-response+jwt";

/** One resolve answer, as read. */
export interface Answer {
  readonly res: HttpResponse;
  readonly header: Json;
  readonly payload: Json;
  /** Why the answer is no readable resolve response (undefined: it is one). */
  readonly unread: string | undefined;
}

/** A judgement of one item: met (undefined), violated (Details), or not observable here (a reason). */
export type Judged = Details | undefined | { readonly partly: string };
export async function readAnswer(
  c: Ctx,
  url: string,
  params: [string, string][],
  label: string,
): Promise<Answer> {
  const res = await c.http.get(withQuery(url, params), { label, tags: [TAG.resolve] });
  if (res.status !== 200) return { res, header: {}, payload: {}, unread: `${res.status}` };
  if (!typeIs(res, RESOLVE_TYPE))
    return {
      res,
      header: {},
      payload: {},
      unread: `Content-Type ${quote(res.header("content-type") ?? null)}`,
    };
  const d = decodeStatement(res.text);
  return d.ok
    ? { res, header: d.header, payload: d.payload, unread: undefined }
    : { res, header: {}, payload: {}, unread: d.why };
}

export { errorOf } from "./refusal.js";
import { errorOf } from "./refusal.js";

/** What is wrong with a resolve response's form (Resolve Response), undefined when nothing. */
export async function responseProblem(
  a: Answer,
  f: Fed,
  keys: Parameters<typeof verifyWith>[2],
  sub: string,
): Promise<Details | undefined> {
  if (a.unread !== undefined)
    return {
      expected: `200 ${RESOLVE_TYPE} with a signed JWT`,
      actual: `${a.res.status === 200 ? "200 " : ""}${a.unread}${a.res.status !== 200 ? ` ${quote(errorOf(a.res) ?? a.res.text.slice(0, 80), 100)}` : ""}`,
      res: a.res,
      kind: a.res.status !== 200 ? "wrong-status" : "malformed",
    };
  const { header: h, payload: p } = a;
  const problems: string[] = [];
  if (h.typ !== "resolve-response+jwt") problems.push(`typ ${quote(h.typ ?? null)}`);
  const why = await verifyWith(a.res.text, h, keys);
  if (why !== undefined) problems.push(`not signed with a key of the target's Entity Configuration: ${why}`);
  if (p.iss !== f.entityId) problems.push(`iss ${quote(p.iss ?? null, 100)}`);
  if (p.sub !== sub) problems.push(`sub ${quote(p.sub ?? null, 100)}`);
  if (typeof p.iat !== "number" || p.iat > now() + LEEWAY) problems.push(`iat ${quote(p.iat ?? null)}`);
  if (typeof p.exp !== "number") problems.push(`exp ${quote(p.exp ?? null)}`);
  return problems.length === 0
    ? undefined
    : {
        expected: `typ resolve-response+jwt, signed with a key of the target's Entity Configuration (kid, alg not none), iss ${f.entityId}, sub ${sub}, numeric iat (not in the future) and exp`,
        actual: `${problems.join("; ")} (sub ${sub})`,
        res: a.res,
        kind: "wrong-value",
      };
}

/** Where `got` differs from the Resolved Metadata `want` (array order free where set operators made it). */
function metadataDiff(got: unknown, want: Metadata, policy: Policy): string | undefined {
  if (!isObject(got)) return `metadata ${quote(got ?? null, 100)} is not an object`;
  try {
    const types = Object.keys(got).sort();
    const wanted = Object.keys(want).sort();
    if (canonical(types) !== canonical(wanted))
      return `Entity Types ${quote(types, 120)}, expected ${quote(wanted, 120)}`;
    for (const t of wanted) {
      const g = got[t];
      if (!isObject(g)) return `metadata.${t} ${quote(g, 80)} is not an object`;
      const w = want[t]!;
      for (const p of new Set([...Object.keys(w), ...Object.keys(g)])) {
        const a = g[p];
        const b = w[p];
        // A parameter set to null is not an absent one (value null removes it).
        const inG = Object.hasOwn(g, p);
        const inW = Object.hasOwn(w, p);
        const equal =
          inG !== inW
            ? false
            : setOperators(policy, t, p) && Array.isArray(a) && Array.isArray(b)
              ? sameSet(a, b)
              : canonical(a) === canonical(b);
        if (!equal)
          return `metadata.${t}.${p} is ${inG ? quote(a, 100) : "absent"}, expected ${inW ? quote(b, 100) : "it absent"}`;
      }
    }
    return undefined;
  } catch (e) {
    if (e instanceof PolicyError) return `metadata: ${e.message}`;
    throw e;
  }
}

/** FED-RESOLVE-METADATA for one subject; null when there is nothing of it to judge (no resolve response). */
export function metadataJudged(a: Answer, s: Subject, expected: Resolution | string): Judged | null {
  if (a.unread !== undefined) {
    // A resolver that refuses metadata a valid chain resolves cleanly judged the policy wrongly.
    if (
      typeof expected === "object" &&
      expected.ok &&
      a.res.status >= 400 &&
      errorOf(a.res) === "invalid_metadata"
    )
      return {
        expected: `200 with the Resolved Metadata ${quote(expected.metadata, 160)}`,
        actual: `${a.res.status} invalid_metadata (sub ${s.id})`,
        res: a.res,
        kind: "wrong-value",
      };
    return null;
  }
  if (typeof expected === "string") return { partly: expected };
  if (!expected.ok)
    return {
      expected: `an error: the chain's metadata policy does not resolve (${expected.why})`,
      actual: `200 with metadata ${quote(a.payload.metadata ?? null, 120)} (sub ${s.id})`,
      res: a.res,
      kind: "accepted",
    };
  const diff = metadataDiff(a.payload.metadata, expected.metadata, expected.policy);
  return diff === undefined
    ? undefined
    : {
        expected: `the Resolved Metadata ${quote(expected.metadata, 200)}`,
        actual: `${diff} (sub ${s.id})`,
        res: a.res,
        kind: a.payload.metadata === undefined ? "missing" : "wrong-value",
      };
}

/** exp: the earliest exp of the Trust Chain the response was derived from and of its Trust Marks. */
export function expJudged(a: Answer, s: Subject, chain: ReadChain | string | undefined): Judged {
  if (chain === undefined || typeof chain === "string")
    return { partly: `its trust_chain cannot be read (${chain ?? "absent"})` };
  const exps = chain.payloads.map((p) => p.exp);
  if (!exps.every((x): x is number => typeof x === "number"))
    return { partly: "a statement of its trust_chain has no numeric exp" };
  const marks = Array.isArray(a.payload.trust_marks) ? a.payload.trust_marks.slice(0, MAX_MARKS) : [];
  const all = [...exps, ...marks.map(markExp).filter((x): x is number => x !== undefined)];
  const want = Math.min(...all);
  return a.payload.exp === want
    ? undefined
    : {
        expected: `exp ${want}, the earliest exp of its trust_chain and Trust Marks`,
        actual: `exp ${quote(a.payload.exp ?? null)} (sub ${s.id})`,
        res: a.res,
        kind: "wrong-value",
      };
}

export async function marksJudged(a: Answer, s: Subject, judge: ResolveMarkJudge): Promise<Judged[]> {
  const marks = a.payload.trust_marks;
  if (marks === undefined) return [];
  if (!Array.isArray(marks))
    return [
      {
        expected: "trust_marks: an array of {trust_mark_type, trust_mark}",
        actual: `${quote(marks, 100)} (sub ${s.id})`,
        res: a.res,
        kind: "malformed",
      },
    ];
  const out: Judged[] = [];
  if (marks.length > MAX_MARKS)
    out.push({ partly: `only the first ${MAX_MARKS} of ${marks.length} Trust Marks judged` });
  for (const m of marks.slice(0, MAX_MARKS)) {
    const v = await judge.judge(m, s.id);
    out.push(
      v.state === "valid"
        ? undefined
        : v.state === "uncertain"
          ? { partly: v.why }
          : {
              expected:
                "only verified, unexpired Trust Marks about the subject from issuers the Trust Anchor trusts",
              actual: `${v.why} (sub ${s.id})`,
              res: a.res,
              kind: "accepted",
            },
    );
  }
  return out;
}
