import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { FederationProfile } from "../profile.js";
import { Fed, STATEMENT_TYPE, typeIs, wellKnownUrl } from "../client.js";
import {
  decodeStatement,
  endpointUrlProblem,
  isObject,
  keysOf,
  timeProblems,
  trustMarkProblems,
} from "../statements.js";

const URL_RULES = [
  ["FED-EC-XLIST-URL", "federation_extended_list_endpoint"],
  ["FED-EC-COLL-URL", "federation_collection_endpoint"],
  ["FED-EC-EVENTS-URL", "federation_subordinate_events_endpoint"],
] as const;

/** public-spec-facts §2 (Entity statements, Entity Configuration) and specs/001 Rules 1. */
export const entityConfigurationChecks = [
  defineCheck<FederationProfile>({
    id: "federation.entity-configuration",
    title:
      "the Entity Configuration at /.well-known/openid-federation is an entity-statement+jwt self-signed with its own jwks, names the target as iss and sub, and publishes its federation endpoints as https URLs without fragments",
    requirements: [
      "FED-EC-WELL-KNOWN",
      "FED-EC-TYP",
      "FED-EC-KID",
      "FED-EC-ALG",
      "FED-EC-JWKS",
      "FED-EC-SELF-SIGNED",
      "FED-EC-ISS-SUB",
      "FED-EC-IAT-EXP",
      "FED-EC-FEDERATION-ENTITY",
      "FED-EC-ANCHOR-NO-HINTS",
      "FED-EC-INTERMEDIATE-HINTS",
      "FED-EC-TRUST-MARKS",
      ...URL_RULES.map(([id]) => id),
    ],
    async run(c) {
      const f = new Fed(c);
      const ec = await f.entityConfiguration();
      const { res } = ec;
      const decoded = decodeStatement(res.text);
      c.require("FED-EC-WELL-KNOWN", res.status === 200 && typeIs(res, STATEMENT_TYPE) && decoded.ok, {
        expected: `200 ${STATEMENT_TYPE} with a JWT at ${wellKnownUrl(f.entityId)}`,
        actual: `${res.status} ${res.header("content-type") ?? "(no Content-Type)"}${decoded.ok ? "" : `: ${decoded.why}`}`,
        kind:
          res.status !== 200 ? "wrong-status" : !typeIs(res, STATEMENT_TYPE) ? "wrong-value" : "malformed",
      });
      const { header, payload } = ec;
      c.check("FED-EC-TYP", header.typ === "entity-statement+jwt", {
        expected: "typ entity-statement+jwt",
        actual: `typ ${quote(header.typ ?? null)}`,
        kind: header.typ === undefined ? "missing" : "wrong-value",
      });
      c.check("FED-EC-ALG", typeof header.alg === "string" && header.alg !== "" && header.alg !== "none", {
        expected: "an alg other than none",
        actual: `alg ${quote(header.alg ?? null)}`,
        kind: header.alg === undefined ? "missing" : "wrong-value",
      });
      const jwks = keysOf(payload.jwks);
      c.check("FED-EC-JWKS", jwks.problems.length === 0, {
        expected: "jwks: a JWK Set of public keys, each with a kid of its own",
        actual: jwks.problems.join("; ") || "as expected",
        kind: payload.jwks === undefined ? "missing" : "wrong-value",
      });
      const named = jwks.keys.some((k) => k.kid === header.kid);
      c.check("FED-EC-KID", typeof header.kid === "string" && named, {
        expected: "a kid naming a key of its own jwks",
        actual: `kid ${quote(header.kid ?? null)}; jwks kids ${quote(jwks.keys.map((k) => k.kid ?? null))}`,
        kind: header.kid === undefined ? "missing" : "wrong-value",
      });
      c.check("FED-EC-SELF-SIGNED", ec.unverified === undefined, {
        expected: "a signature that verifies with the key of its own jwks its kid names",
        actual: ec.unverified ?? "verified",
      });
      c.check("FED-EC-ISS-SUB", payload.iss === f.entityId && payload.sub === f.entityId, {
        expected: `iss and sub ${f.entityId}`,
        actual: `iss ${quote(payload.iss ?? null)}, sub ${quote(payload.sub ?? null)}`,
      });
      const times = timeProblems(payload);
      c.check("FED-EC-IAT-EXP", times.length === 0, {
        expected: "numeric iat (not in the future) and exp (not past), exp after iat",
        actual: times.join("; ") || "as expected",
      });
      const role = await f.role();
      const md = isObject(payload.metadata) ? payload.metadata : {};
      const fe = isObject(md.federation_entity) ? md.federation_entity : undefined;
      const missing = ["federation_fetch_endpoint", "federation_list_endpoint"].filter(
        (n) => typeof fe?.[n] !== "string",
      );
      c.check("FED-EC-FEDERATION-ENTITY", missing.length === 0, {
        expected: `a ${role === "anchor" ? "Trust Anchor" : "Intermediate"}: metadata.federation_entity with federation_fetch_endpoint and federation_list_endpoint`,
        actual: fe === undefined ? "no metadata.federation_entity" : `no ${missing.join(", ")}`,
        kind: "missing",
      });
      const hints = payload.authority_hints;
      if (role === "anchor") {
        c.check("FED-EC-ANCHOR-NO-HINTS", hints === undefined, {
          expected: "a Trust Anchor: no authority_hints",
          actual: `authority_hints ${quote(hints, 200)}`,
        });
        c.skipOnly("FED-EC-INTERMEDIATE-HINTS", "not offered: the target is a Trust Anchor", "not-offered");
      } else {
        c.check(
          "FED-EC-INTERMEDIATE-HINTS",
          Array.isArray(hints) &&
            hints.length > 0 &&
            hints.every((h) => typeof h === "string" && /^https:\/\//.test(h)),
          {
            expected: "an Intermediate: authority_hints, a non-empty array of Entity Identifiers",
            actual: `authority_hints ${quote(hints ?? null, 200)}`,
            kind: hints === undefined ? "missing" : "wrong-value",
          },
        );
        c.skipOnly("FED-EC-ANCHOR-NO-HINTS", "not offered: the target is an Intermediate", "not-offered");
      }
      // Its own trust marks; those of its subordinates are judged where the walk reads them.
      const marks = payload.trust_marks;
      if (marks === undefined)
        c.skipOnly("FED-EC-TRUST-MARKS", "the Entity Configuration carries no trust_marks", "other");
      else {
        const bad = trustMarkProblems(marks);
        c.check("FED-EC-TRUST-MARKS", bad === undefined, {
          expected: "trust_marks: an array of {trust_mark_type, trust_mark (a JWT)}",
          actual: bad ?? "",
          kind: "malformed",
        });
      }
      for (const [id, name] of URL_RULES) {
        if (fe?.[name] === undefined) {
          c.skipOnly(id, `not offered: the Entity Configuration publishes no ${name}`, "not-offered");
          continue;
        }
        const problem = endpointUrlProblem(fe[name], false);
        if (
          problem !== undefined &&
          c.http.allowsPlainHttp &&
          endpointUrlProblem(fe[name], true) === undefined
        )
          c.partly(
            id,
            `not exercised: plain http allowed by options.allowInsecureHttp (${name} ${quote(fe[name])})`,
          );
        else
          c.check(id, problem === undefined, {
            expected: `${name}: an https URL without a fragment`,
            actual: problem ?? "as expected",
          });
      }
    },
  }),
];
