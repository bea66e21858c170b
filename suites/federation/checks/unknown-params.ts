import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { TAG } from "../observers.js";
import { decodeStatement, isObject, statementClaims } from "../statements.js";
import { baseList, listMaxBytes, withQuery } from "./fetch-list.js";

/** An answer as comparable text: a signed body by its payload without iat, exp and jti; JSON without next. */
function comparable(res: HttpResponse): string {
  const d = decodeStatement(res.text);
  if (d.ok) {
    return `${res.status} jwt ${statementClaims(d.payload)}`;
  }
  // `next` is opaque: two answers to the same request may carry different cursors to the same page.
  const body = isObject(res.json)
    ? Object.fromEntries(Object.entries(res.json).filter(([k]) => k !== "next"))
    : res.json;
  return `${res.status} ${res.jsonError === undefined ? JSON.stringify(body) : res.text}`;
}

/** public-spec-facts §2 Endpoints: unknown parameters ignored. */
export const unknownParamChecks = [
  defineCheck<FederationProfile>({
    id: "federation.unknown-params",
    title:
      "a parameter no specification defines, added to a fetch, list, extended list or events request, leaves the answer as it is without it",
    requirements: ["FED-PARAM-UNKNOWN"],
    async run(c) {
      const f = new Fed(c);
      const fe = await f.federationEntity();
      const listed = (await baseList(c, f)) ?? [];
      const sub = listed[0];
      const requests: { what: string; url: string; tag: string }[] = [];
      const add = (what: string, name: string, tag: string, params: [string, string][]): void => {
        if (typeof fe[name] === "string") requests.push({ what, url: withQuery(fe[name], params), tag });
      };
      add("list", "federation_list_endpoint", TAG.list, []);
      add("extended list", "federation_extended_list_endpoint", TAG.extendedList, [["limit", "2"]]);
      if (sub !== undefined) {
        add("fetch", "federation_fetch_endpoint", TAG.fetch, [["sub", sub]]);
        add("events", "federation_subordinate_events_endpoint", TAG.events, [["sub", sub]]);
      }
      if (requests.length === 0) return c.skip("no endpoint to ask", "dependency");
      const extra: [string, string] = ["idc_unknown_parameter", c.runId.slice(-6)];
      await c.each("FED-PARAM-UNKNOWN", requests, "endpoint", async (r) => {
        // The base list of a large federation is large: its own cap (fetch-list.ts listMaxBytes).
        const cap = r.tag === TAG.list ? { maxBytes: listMaxBytes(c) } : {};
        const plain = await c.http.get(r.url, { label: `${r.what}`, tags: [r.tag], ...cap });
        const more = await c.http.get(withQuery(r.url, [extra]), {
          label: `${r.what} with an unknown parameter`,
          tags: [r.tag],
          ...cap,
        });
        const [a, b] = [comparable(plain), comparable(more)];
        return a === b
          ? undefined
          : {
              expected: `the ${r.what} answer without the parameter (${quote(a, 120)})`,
              actual: quote(b, 160),
              res: more,
              kind: more.status !== plain.status ? "wrong-status" : "wrong-value",
            };
      });
    },
  }),
];
