import { randomUUID } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import type { Details } from "../../../src/engine/check.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { resources, ScimClient, scimError, URN } from "../scim-client.js";

/** True when an optional scimType (RFC 7644 §3.12) is absent or one of `types`. */
const absentOr = (scimType: unknown, types: readonly string[]): boolean =>
  scimType === undefined || scimType === null || (typeof scimType === "string" && types.includes(scimType));

/**
 * SCIM-ERROR-SCIMTYPE on one 400: RFC 7644 §3.12 makes scimType OPTIONAL, but Table 9 gives
 * the keyword a client acts on, so leaving it out is judged at SHOULD. A wrong keyword is the
 * MUST of the check that asked; here only its absence counts.
 */
function named(res: HttpResponse, types: readonly string[], what: string): Details | undefined {
  const scimType = scimError(res)?.scimType;
  if (scimType !== undefined && scimType !== null) return undefined;
  return {
    message: `${what} names no scimType`,
    expected: `scimType ${types.join(" or ")} (RFC 7644 §3.12 Table 9)`,
    actual: `no scimType: ${quote(res.text, 160)}`,
    res,
  };
}

/** specs/002 area C Errors, with the SCIM error format of the public base rules. */
export const errorChecks = [
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-filter",
    title:
      "every unparsable filter (of a family of malformed ones) answers 400, with scimType invalidFilter (a missing scimType is a warning)",
    requirements: ["SCIM-ERROR-FILTER", "SCIM-ERROR-SCIMTYPE"],
    async run(c) {
      const s = new ScimClient(c);
      const refused: { filter: string; res: HttpResponse }[] = [];
      // RFC 7644 §3.4.2.2 grammar broken one way each: an unterminated string, no value, an
      // unquoted value, no or an unknown operator, an unclosed bracket or parenthesis, text
      // after the expression, an attribute name that is not one.
      for (const filter of [
        'userName eq "unterminated',
        "userName eq",
        "userName eq unquoted",
        'userName "x"',
        'userName zz "x"',
        'emails[value eq "x"',
        '(userName eq "x"',
        'userName eq "x" trailing',
        '1userName eq "x"',
        '"userName" eq "x"',
        "userName",
      ]) {
        const res = await s.call("GET", `/Users?filter=${encodeURIComponent(filter)}`, {
          label: `bad filter ${filter}`,
        });
        const scimType = scimError(res)?.scimType;
        // RFC 7644 §3.12: scimType is OPTIONAL, so only a wrong one breaks this MUST; a missing
        // one is SCIM-ERROR-SCIMTYPE's (below).
        c.check("SCIM-ERROR-FILTER", res.status === 400 && absentOr(scimType, ["invalidFilter"]), {
          expected: `400 for ${filter}, with scimType invalidFilter when it gives one`,
          actual: `${res.status} scimType ${quote(scimType ?? null)}`,
          res,
        });
        if (res.status === 400) refused.push({ filter, res });
      }
      await c.each("SCIM-ERROR-SCIMTYPE", refused, "400 answers to unparsable filters", ({ filter, res }) =>
        named(res, ["invalidFilter"], `the 400 for the filter ${filter}`),
      );
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-syntax",
    title:
      "a request body that is not JSON, or not a JSON object, answers 400, with scimType invalidSyntax (a missing scimType is a warning)",
    requirements: ["SCIM-ERROR-SYNTAX", "SCIM-ERROR-SCIMTYPE"],
    async run(c) {
      const s = new ScimClient(c);
      const refused: { what: string; res: HttpResponse; types: readonly string[] }[] = [];
      const res = await s.call("POST", "/Users", {
        raw: '{"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": ',
        label: "body that is not JSON",
      });
      const id = (res.json as { id?: unknown } | undefined)?.id;
      if (res.status === 201 && typeof id === "string") await s.remove("Users", id);
      // RFC 7644 §3.12: scimType is OPTIONAL; when given, Table 9 names invalidSyntax for this.
      const scimType = scimError(res)?.scimType;
      c.check("SCIM-ERROR-SYNTAX", res.status === 400 && absentOr(scimType, ["invalidSyntax"]), {
        expected: "400, with scimType invalidSyntax when it gives one",
        actual: `${res.status} scimType ${quote(scimType ?? null)}`,
        res,
      });
      if (res.status === 400)
        refused.push({ what: "a body that is not JSON", res, types: ["invalidSyntax"] });
      // JSON that is not an object is no SCIM request body either (RFC 7644 §3.12 Table 9:
      // invalidSyntax, "the request body message structure was invalid"; invalidValue is as
      // near for a value of the wrong kind).
      const notObject = ["invalidSyntax", "invalidValue"];
      await c.each(
        "SCIM-ERROR-SYNTAX",
        ["null", "[]", "42", '"text"'],
        "bodies not a JSON object",
        async (raw) => {
          const r = await s.call("POST", "/Users", { raw, label: `body ${raw}, JSON but not an object` });
          const made = (r.json as { id?: unknown } | undefined)?.id;
          if (r.status === 201 && typeof made === "string") await s.remove("Users", made);
          const t = scimError(r)?.scimType;
          if (r.status === 400) refused.push({ what: `the body ${raw}`, res: r, types: notObject });
          if (r.status === 400 && absentOr(t, notObject)) return undefined;
          return {
            expected: `400 for the body ${raw}, with scimType invalidSyntax or invalidValue when it gives one`,
            actual: `${r.status} scimType ${quote(t ?? null)}`,
            res: r,
          };
        },
      );
      await c.each("SCIM-ERROR-SCIMTYPE", refused, "400 answers to bodies that are not a JSON object", (r) =>
        named(r.res, r.types, `the 400 for ${r.what}`),
      );
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-not-found",
    title: "an unknown user, group, resource type or schema id answers 404",
    requirements: ["SCIM-ERROR-NOT-FOUND"],
    async run(c) {
      const s = new ScimClient(c);
      // Resource types by name only where the provider serves them one by one: its resource
      // types give their own URIs under /ResourceTypes/ (RFC 7643 §6, §3.1 meta.location).
      const types = await s.call("GET", "/ResourceTypes", { label: "ResourceTypes (served by name?)" });
      // RFC 7644 §4 lets the list be a bare array too.
      const listed: unknown[] =
        types.status !== 200 ? [] : Array.isArray(types.json) ? types.json : (resources(types) ?? []);
      const byName = listed.some((r) =>
        String((r as { meta?: { location?: unknown } } | null)?.meta?.location ?? "").includes(
          "/ResourceTypes/",
        ),
      );
      // The discovery resources too: RFC 7644 §4 serves each schema at /Schemas/{uri}.
      for (const [kind, id] of [
        ["Users", randomUUID()],
        ["Groups", randomUUID()],
        ...(byName ? [["ResourceTypes", `IdcUnknown${randomUUID().slice(0, 8)}`]] : []),
        ["Schemas", `urn:idconform:params:scim:schemas:unknown:${randomUUID()}`],
      ]) {
        const res = await s.call("GET", `/${kind}/${id ?? ""}`, { label: `unknown ${kind} id` });
        c.check("SCIM-ERROR-NOT-FOUND", res.status === 404, {
          expected: "404",
          actual: `${res.status}${res.status >= 300 && res.status < 400 ? ` to ${quote(res.header("location") ?? null, 120)}` : ""}`,
          res,
        });
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-unknown-endpoint",
    title: "a path under the SCIM base URL that is no endpoint answers 404 in the SCIM error format",
    requirements: ["SCIM-ERROR-UNKNOWN-ENDPOINT"],
    async run(c) {
      const s = new ScimClient(c);
      // A name no SCIM document defines (RFC 7644 §3.2 lists the endpoints), with the token, so
      // the answer is the service provider's and not its authentication's.
      const res = await s.call("GET", `/IdcNoSuchEndpoint${randomUUID().slice(0, 8)}`, {
        label: "an endpoint that does not exist",
      });
      const e = scimError(res);
      const schemas = Array.isArray(e?.schemas) ? (e.schemas as unknown[]) : [];
      // RFC 7644 §3.12 lists 404 for an endpoint that does not exist; the error format is the
      // document's "SCIM errors generally", judged here at SHOULD: the body of a 404 for a path
      // the provider never serves is commonly its web framework's. Whether status is a string
      // is SCIM-ERROR-SCHEMA's rule (judged on every error of the endpoints), not this one's.
      c.check(
        "SCIM-ERROR-UNKNOWN-ENDPOINT",
        res.status === 404 && schemas.includes(URN.error) && String(e?.status) === "404",
        {
          expected: `404 with schemas [${URN.error}] and status "404"`,
          actual: `${res.status} ${res.header("content-type") ?? "(no content-type)"}: ${quote(res.text, 160)}`,
          res,
        },
      );
    },
  }),
];
