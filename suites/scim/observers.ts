import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import type { ScimProfile } from "./profile.js";
import { SCIM_JSON, URN } from "./scim-client.js";

/** The SCIM endpoints (RFC 7644 §3.2, §4) a service provider serves under its base URL. */
const ENDPOINTS = new Set(["Users", "Groups", "ServiceProviderConfig", "ResourceTypes", "Schemas"]);

/**
 * A response of a SCIM endpoint of the service provider: not of the authorization server,
 * and not of a path the document writes but SCIM does not define (`/Group`), which a
 * provider may leave to its web framework.
 */
function scim(ex: ObservedExchange, p: ScimProfile): boolean {
  const base = new URL(p.baseUrl.replace(/\/*$/, "/"));
  if (ex.url.origin !== base.origin || !ex.url.pathname.startsWith(base.pathname)) return false;
  return ENDPOINTS.has(ex.url.pathname.slice(base.pathname.length).split("/")[0] ?? "");
}

/**
 * The statuses RFC 7644 §3.12 lists for SCIM errors, less 401: an authentication failure
 * is often answered by a gateway in front of the SCIM application (RFC 6750 names its
 * form), and 429, which the document gives only a Retry-After.
 */
const SCIM_ERRORS = new Set([400, 403, 404, 409, 412, 413, 500, 501]);

/** What an error body must never show (specs/002 area C Errors: MUST NOT leak internal details). */
export const LEAKS: readonly [string, RegExp][] = [
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
    "a runtime error message",
    /\b(TypeError|ReferenceError|NullPointerException|KeyError|AttributeError|NoMethodError)\b|Cannot read propert(y|ies) of (undefined|null)|Object reference not set to an instance of an object|undefined method `\w+' for nil/,
  ],
  [
    "a framework banner",
    /\b(Express|Werkzeug|Django|Spring(Framework)?|Hibernate|Microsoft\.AspNetCore|Laravel|Rails|Tomcat|Jetty|Kestrel|Node\.js v\d)\b/,
  ],
];

/** The first leak in a body, as "kind: the matching text". */
export function leakIn(text: string): string | undefined {
  const leak = LEAKS.find(([, re]) => re.test(text));
  return leak ? `${leak[0]}: ${text.match(leak[1])?.[0]?.trim().slice(0, 160) ?? ""}` : undefined;
}

/**
 * Headers that name the server software (RFC 9110 §10.2.4: no needlessly fine-grained detail):
 * the framework banners, always; Server only with a version (a bare product name is common
 * and harmless).
 */
const BANNERS = ["x-powered-by", "x-aspnet-version", "x-aspnetmvc-version", "x-generator"];

/** The first banner header of a response, as "name: value". */
export function bannerIn(header: (name: string) => string | undefined): string | undefined {
  for (const name of BANNERS) {
    const v = header(name);
    if (v !== undefined) return `${name}: ${quote(v, 80)}`;
  }
  const server = header("server");
  return server !== undefined && /\/\s*v?\d/.test(server) ? `server: ${quote(server, 80)}` : undefined;
}

const what = (ex: ObservedExchange): string => `the ${ex.status} answer to ${ex.method} ${ex.url.pathname}`;

/**
 * specs/002 area C and the SCIM base rules that speak of every response: judged on every
 * exchange with the service provider any check makes, not on one probe each.
 */
export const scimObservers = [
  defineObserver<ScimProfile>({
    id: "scim.observe-error-format",
    title: `every SCIM error (${[...SCIM_ERRORS].join(", ")}) is in the SCIM Error format, status as a string equal to the HTTP status`,
    requirement: "SCIM-ERROR-SCHEMA",
    applies: (ex, p) => scim(ex, p) && SCIM_ERRORS.has(ex.status),
    judge: (ex) => {
      const e = ex.json as { schemas?: unknown; status?: unknown } | undefined;
      const schemas = Array.isArray(e?.schemas) ? (e.schemas as unknown[]) : [];
      if (schemas.includes(URN.error) && e?.status === String(ex.status)) return undefined;
      return {
        message: `${what(ex)} is not a SCIM error`,
        expected: `schemas [${URN.error}] and status "${ex.status}" (a string)`,
        actual:
          ex.jsonError !== undefined
            ? `not JSON: ${quote(ex.text, 120)}`
            : `schemas ${quote(e?.schemas ?? null)}, status ${quote(e?.status ?? null)}`,
      };
    },
  }),
  defineObserver<ScimProfile>({
    id: "scim.observe-no-leak",
    title:
      "no error response of the service provider holds a stack trace, SQL, a file path or a framework banner",
    requirement: "SCIM-ERROR-NO-LEAK",
    applies: (ex, p) => scim(ex, p) && ex.status >= 400,
    judge: (ex) => {
      const leak = leakIn(ex.text);
      return leak === undefined
        ? undefined
        : {
            message: `${what(ex)} leaks internal details`,
            expected: "no stack trace, SQL, file path or framework banner",
            actual: leak,
          };
    },
  }),
  defineObserver<ScimProfile>({
    id: "scim.observe-no-banner",
    title:
      "no error response of the service provider names its software in a header (X-Powered-By, Server with a version)",
    requirement: "SCIM-ERROR-NO-BANNER",
    applies: (ex, p) => scim(ex, p) && ex.status >= 400,
    judge: (ex) => {
      const banner = bannerIn((n) => ex.header(n));
      return banner === undefined
        ? undefined
        : {
            message: `${what(ex)} names the server software in a header`,
            expected:
              "no X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version or X-Generator; no Server with a version",
            actual: banner,
          };
    },
  }),
  defineObserver<ScimProfile>({
    id: "scim.observe-media-type",
    title: `every SCIM response with a body (success or SCIM error) is ${SCIM_JSON}`,
    requirement: "SCIM-MEDIA-TYPE",
    applies: (ex, p) =>
      scim(ex, p) &&
      ex.text.trim().length > 0 &&
      ((ex.status >= 200 && ex.status < 300) || SCIM_ERRORS.has(ex.status)),
    judge: (ex) => {
      const type = ex.header("content-type") ?? "";
      return new RegExp(`^${SCIM_JSON.replace("+", "\\+")}\\s*(;|$)`, "i").test(type)
        ? undefined
        : {
            message: `${what(ex)} is not labelled ${SCIM_JSON}`,
            expected: SCIM_JSON,
            actual: type || "(absent)",
          };
    },
  }),
];
