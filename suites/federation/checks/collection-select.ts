import type { Details } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { Ctx } from "../client.js";
import { releaseWalk, withoutBody } from "../walk.js";
import { walkCollection, type CollWalk } from "./collection.js";
import { changedAt, refusedAs, type Basis, type SeenEntity } from "./collection-published.js";

/**
 * Judges the Entity Info objects of one page of a walk (each entity the first time the walk lists
 * it); `changed`: the data changed since the default answer (last_updated moved), so comparisons
 * with it are void. False when something is wrong.
 */
export type PageJudge = (xs: readonly SeenEntity[], changed: boolean) => boolean;

/**
 * Walks the collection with `params`, judging its entities page by page with `judge` and keeping
 * none (a collection of 100,000 is never held): the walk returned has ids, no entities. The pages
 * are freed once judged, but those a finding cites (Tally keeps them) and the first and last.
 */
export async function walkJudged(
  c: Ctx,
  b: Basis,
  label: string,
  params: readonly (readonly [string, string])[],
  judge: PageJudge,
): Promise<{ w: CollWalk; ok: boolean }> {
  const listed = new Set<string>();
  let ok = true;
  const w = await walkCollection(c, b.url, undefined, label, [...b.ta, ...params], {
    keep: 0,
    onPage: (p, i) => {
      const res = i === 0 ? p.res : withoutBody(p.res);
      const xs: SeenEntity[] = [];
      p.entities.forEach((e, k) => {
        const id = p.ids[k]!;
        if (listed.has(id)) return;
        listed.add(id);
        xs.push({ id, e, res });
      });
      ok = judge(xs, changedAt(b, p)) && ok;
    },
  });
  releaseWalk(c, w);
  return { w, ok };
}

/** A collection walk with a claim selection (judged page by page), or how the target refused it. */
export type Selected =
  | { readonly kind: "walk"; readonly w: CollWalk; readonly ok: boolean }
  | { readonly kind: "unsupported_parameter" | "unsupported_claim"; readonly res: HttpResponse }
  | { readonly kind: "unread"; readonly why: string };

/** Walks the collection with `param` repeated for each of `names` (specs/001: entity_claims and info_claims are repeatable). */
export async function select(
  c: Ctx,
  b: Basis,
  param: string,
  names: readonly string[],
  judge: PageJudge,
): Promise<Selected> {
  const { w, ok } = await walkJudged(
    c,
    b,
    `collection, ${param} ${names.join(" ")}`,
    names.map((n) => [param, n] as const),
    judge,
  );
  const first = w.pages[0]!;
  for (const code of ["unsupported_parameter", "unsupported_claim"] as const)
    if (first.shape !== undefined && refusedAs(first.res, code)) return { kind: code, res: first.res };
  if (w.stopped !== undefined) return { kind: "unread", why: `${param} ${names.join(" ")}: ${w.stopped}` };
  return { kind: "walk", w, ok };
}

/** A claim asked alone and refused as unsupported_claim, with the refusal. */
export interface RefusedClaim {
  readonly name: string;
  readonly res: HttpResponse;
}

/**
 * Asks each claim alone: those refused as unsupported_claim are left out of the combinations (the
 * document allows refusing a claim the responder does not support) and returned in `refused`, for
 * the caller to judge against what the responder shows it supports. Undefined when the parameter
 * itself is refused as unsupported_parameter on the first request.
 */
export async function singles(
  c: Ctx,
  b: Basis,
  param: string,
  names: readonly string[],
  unread: string[],
  judge: (names: readonly string[]) => PageJudge,
): Promise<{ supported: string[]; refused: RefusedClaim[] } | undefined> {
  const supported: string[] = [];
  const refused: RefusedClaim[] = [];
  for (const [i, n] of names.entries()) {
    const s = await select(c, b, param, [n], judge([n]));
    if (s.kind === "unsupported_parameter" && i === 0) return undefined;
    if (s.kind === "walk") supported.push(n);
    else if (s.kind === "unsupported_claim") {
      c.note(`${param}=${n} is refused as unsupported_claim`);
      refused.push({ name: n, res: s.res });
    } else
      unread.push(
        s.kind === "unread" ? s.why : `${param}=${n}: unsupported_parameter after the first request`,
      );
  }
  return { supported, refused };
}

/** A finding about one Entity Info, with the page that carried it. */
export const entityProblem = (
  x: SeenEntity,
  expected: string,
  actual: string,
  kind: Details["kind"],
): Details => ({
  expected,
  actual: `${x.id}: ${actual}`,
  res: x.res,
  ...(kind ? { kind } : {}),
});
