import { randomUUID } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, scimError } from "../scim-client.js";

/** specs/002 area C Errors, with the SCIM error format of the public base rules. */
export const errorChecks = [
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-filter",
    title: "every unparsable filter (of a family of malformed ones) answers 400 invalidFilter",
    requirements: ["SCIM-ERROR-FILTER"],
    async run(c) {
      const s = new ScimClient(c);
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
        c.check("SCIM-ERROR-FILTER", res.status === 400 && scimError(res)?.scimType === "invalidFilter", {
          expected: `400 with scimType invalidFilter for ${filter}`,
          actual: `${res.status} scimType ${quote(scimError(res)?.scimType ?? null)}`,
          res,
        });
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-syntax",
    title: "a request body that is not JSON, or not a JSON object, answers 400 invalidSyntax",
    requirements: ["SCIM-ERROR-SYNTAX"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("POST", "/Users", {
        raw: '{"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": ',
        label: "body that is not JSON",
      });
      const id = (res.json as { id?: unknown } | undefined)?.id;
      if (res.status === 201 && typeof id === "string") await s.remove("Users", id);
      // RFC 7644 §3.12: scimType is OPTIONAL; when given, Table 9 names invalidSyntax for this.
      const scimType = scimError(res)?.scimType;
      if (res.status === 400 && (scimType === undefined || scimType === null))
        c.note(
          "the 400 for a body that is not JSON names no scimType (RFC 7644 §3.12 suggests invalidSyntax)",
        );
      c.check(
        "SCIM-ERROR-SYNTAX",
        res.status === 400 && (scimType === undefined || scimType === null || scimType === "invalidSyntax"),
        {
          expected: "400, with scimType invalidSyntax when it gives one",
          actual: `${res.status} scimType ${quote(scimError(res)?.scimType ?? null)}`,
          res,
        },
      );
      // JSON that is not an object is no SCIM request body either (RFC 7644 §3.12 Table 9:
      // invalidSyntax, "the request body message structure was invalid"; invalidValue is as
      // near for a value of the wrong kind).
      await c.each(
        "SCIM-ERROR-SYNTAX",
        ["null", "[]", "42", '"text"'],
        "bodies not a JSON object",
        async (raw) => {
          const r = await s.call("POST", "/Users", { raw, label: `body ${raw}, JSON but not an object` });
          const made = (r.json as { id?: unknown } | undefined)?.id;
          if (r.status === 201 && typeof made === "string") await s.remove("Users", made);
          const t = scimError(r)?.scimType;
          if (
            r.status === 400 &&
            (t === undefined || t === null || t === "invalidSyntax" || t === "invalidValue")
          )
            return undefined;
          return {
            expected: `400 for the body ${raw}, with scimType invalidSyntax or invalidValue when it gives one`,
            actual: `${r.status} scimType ${quote(t ?? null)}`,
            res: r,
          };
        },
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
];
