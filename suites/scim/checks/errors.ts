import { randomUUID } from "node:crypto";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient, scimError, URN } from "../scim-client.js";

/** What an error body must never show (specs/002 area C Errors: MUST NOT leak internal details). */
const LEAKS: readonly [string, RegExp][] = [
  [
    "a stack trace",
    /\n\s+at \S+ \(?[^)\n]*:\d+:\d+\)?|Traceback \(most recent call last\)|\bat [a-z]+\.[A-Za-z.$]+\([A-Za-z]+\.java:\d+\)/,
  ],
  ["a file path", /(^|[\s"'(=])(\/(home|srv|usr|var|opt|app|tmp|root|etc)\/[^\s"']+|[A-Za-z]:\\[^\s"']+)/],
  [
    "SQL",
    /\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b|SQLSTATE|syntax error at or near|ORA-\d{5}|SQLITE_/i,
  ],
  [
    "a framework banner",
    /\b(Express|Werkzeug|Django|Spring(Framework)?|Hibernate|Microsoft\.AspNetCore|Laravel|Rails|Tomcat|Jetty|Kestrel|Node\.js v\d)\b/,
  ],
];

/** Checks one error response against the SCIM Error schema and the no-leak rule. */
function judgeError(c: CheckContext<ScimProfile>, res: HttpResponse, what: string): void {
  const e = scimError(res);
  const schemas = Array.isArray(e?.schemas) ? e.schemas : [];
  c.check("SCIM-ERROR-SCHEMA", schemas.includes(URN.error) && e?.status === String(res.status), {
    expected: `${what}: schemas [${URN.error}] and status "${res.status}" (a string)`,
    actual: `schemas ${quote(e?.schemas ?? null)}, status ${quote(e?.status ?? null)}`,
    res,
  });
  const leak = LEAKS.find(([, re]) => re.test(res.text));
  c.check("SCIM-ERROR-NO-LEAK", leak === undefined, {
    expected: `${what}: no stack trace, SQL, file path or framework banner`,
    actual: leak ? `${leak[0]}: ${res.text.match(leak[1])?.[0]?.trim().slice(0, 160) ?? ""}` : "",
    res,
  });
}

/** specs/002 area C Errors, with the SCIM error format of the public base rules. */
export const errorChecks = [
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-filter",
    title: "an unparsable filter answers 400 invalidFilter in the SCIM error format, leaking nothing",
    requirements: ["SCIM-ERROR-FILTER", "SCIM-ERROR-SCHEMA", "SCIM-ERROR-NO-LEAK"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("GET", `/Users?filter=${encodeURIComponent('userName eq "unterminated')}`, {
        label: "bad filter",
      });
      c.check("SCIM-ERROR-FILTER", res.status === 400 && scimError(res)?.scimType === "invalidFilter", {
        expected: "400 with scimType invalidFilter",
        actual: `${res.status} scimType ${quote(scimError(res)?.scimType ?? null)}`,
        res,
      });
      judgeError(c, res, "invalid filter");
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-invalid-syntax",
    title:
      "a request body that is not JSON answers 400 invalidSyntax in the SCIM error format, leaking nothing",
    requirements: ["SCIM-ERROR-SYNTAX", "SCIM-ERROR-SCHEMA", "SCIM-ERROR-NO-LEAK"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("POST", "/Users", {
        raw: '{"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": ',
        label: "body that is not JSON",
      });
      const id = (res.json as { id?: unknown } | undefined)?.id;
      if (res.status === 201 && typeof id === "string") await s.remove("Users", id);
      c.check("SCIM-ERROR-SYNTAX", res.status === 400 && scimError(res)?.scimType === "invalidSyntax", {
        expected: "400 with scimType invalidSyntax",
        actual: `${res.status} scimType ${quote(scimError(res)?.scimType ?? null)}`,
        res,
      });
      judgeError(c, res, "invalid syntax");
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.error-not-found",
    title: "an unknown user or group id answers 404 in the SCIM error format, leaking nothing",
    requirements: ["SCIM-ERROR-NOT-FOUND", "SCIM-ERROR-SCHEMA", "SCIM-ERROR-NO-LEAK"],
    async run(c) {
      const s = new ScimClient(c);
      const notErrors: string[] = [];
      for (const kind of ["Users", "Groups"]) {
        const res = await s.call("GET", `/${kind}/${randomUUID()}`, { label: `unknown ${kind} id` });
        c.check("SCIM-ERROR-NOT-FOUND", res.status === 404, {
          expected: "404",
          actual: `${res.status}${res.status >= 300 && res.status < 400 ? ` to ${quote(res.header("location") ?? null, 120)}` : ""}`,
          res,
        });
        if (res.status >= 400) judgeError(c, res, `unknown ${kind} id`);
        else notErrors.push(`${kind} ${res.status}`);
      }
      // A 302 or 200 for an unknown id is SCIM-ERROR-NOT-FOUND's failure; with no error body
      // at all there is nothing for the error format and leak rules to judge here.
      if (notErrors.length === 2)
        for (const id of ["SCIM-ERROR-SCHEMA", "SCIM-ERROR-NO-LEAK"])
          c.skipOnly(
            id,
            `no error response to judge: the unknown ids answered ${notErrors.join(", ")} (see SCIM-ERROR-NOT-FOUND)`,
            "dependency",
          );
    },
  }),
];
