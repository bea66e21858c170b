import type { Details } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { Ctx } from "../client.js";
import { walkCollection, type CollWalk } from "./collection.js";
import { refusedAs, type Basis, type SeenEntity } from "./collection-published.js";

/** A collection walk with a claim selection, or how the target refused it. */
export type Selected =
  | { readonly kind: "walk"; readonly w: CollWalk }
  | { readonly kind: "unsupported_parameter" | "unsupported_claim"; readonly res: HttpResponse }
  | { readonly kind: "unread"; readonly why: string };

/** Walks the collection with `param` repeated for each of `names` (specs/001: entity_claims and info_claims are repeatable). */
export async function select(c: Ctx, b: Basis, param: string, names: readonly string[]): Promise<Selected> {
  const w = await walkCollection(c, b.url, undefined, `collection, ${param} ${names.join(" ")}`, [
    ...b.ta,
    ...names.map((n) => [param, n] as const),
  ]);
  const first = w.pages[0]!;
  for (const code of ["unsupported_parameter", "unsupported_claim"] as const)
    if (first.shape !== undefined && refusedAs(first.res, code)) return { kind: code, res: first.res };
  if (w.stopped !== undefined) return { kind: "unread", why: `${param} ${names.join(" ")}: ${w.stopped}` };
  return { kind: "walk", w };
}

/**
 * Asks each claim alone: those refused as unsupported_claim are left out of the combinations (the
 * document allows refusing a claim the responder does not support). Undefined when the parameter
 * itself is refused as unsupported_parameter on the first request.
 */
export async function singles(
  c: Ctx,
  b: Basis,
  param: string,
  names: readonly string[],
  unread: string[],
): Promise<{ supported: string[]; walks: { names: string[]; w: CollWalk }[] } | undefined> {
  const supported: string[] = [];
  const walks: { names: string[]; w: CollWalk }[] = [];
  for (const [i, n] of names.entries()) {
    const s = await select(c, b, param, [n]);
    if (s.kind === "unsupported_parameter" && i === 0) return undefined;
    if (s.kind === "walk") {
      supported.push(n);
      walks.push({ names: [n], w: s.w });
    } else if (s.kind === "unsupported_claim") c.note(`${param}=${n} is refused as unsupported_claim`);
    else
      unread.push(
        s.kind === "unread" ? s.why : `${param}=${n}: unsupported_parameter after the first request`,
      );
  }
  return { supported, walks };
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
