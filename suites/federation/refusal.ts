import type { Details } from "../../src/engine/check.js";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { isObject } from "./statements.js";

/** The `error` member of a JSON error answer, or undefined. */
export const errorOf = (res: HttpResponse): unknown => (isObject(res.json) ? res.json.error : undefined);

/**
 * What is wrong with an answer that must be an error whose code is one of `codes` (public-spec-facts
 * §2 Errors), or undefined when it is one. `clientError`: a 5xx is wrong too (where the rule asks
 * a 4xx; elsewhere a status its code does not take is FED-ERROR-STATUS's). `expected` and `actual`
 * word the finding (`actual` defaults to the status and code received).
 */
export function refusalProblem(
  res: HttpResponse,
  codes: readonly string[],
  o: { readonly expected: string; readonly actual?: string; readonly clientError?: boolean },
): Details | undefined {
  const error = errorOf(res);
  const statusOk = res.status >= 400 && !(o.clientError === true && res.status >= 500);
  if (statusOk && typeof error === "string" && codes.includes(error)) return undefined;
  return {
    expected: o.expected,
    actual: o.actual ?? `${res.status} error ${quote(error ?? null)}`,
    res,
    kind:
      res.status < 300
        ? "accepted"
        : !statusOk
          ? "wrong-status"
          : error === undefined
            ? "missing"
            : "wrong-code",
  };
}
