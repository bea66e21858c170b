import { randomUUID } from "node:crypto";
import type { JWK } from "jose";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { breakSignature, signAssertion } from "../../../mocks/identity-service/assertion.js";
import type { ScimProfile } from "../profile.js";
import { isOAuth, ScimClient } from "../scim-client.js";
import { startJkuHost, tokenAttacks, type TokenAttackId } from "../../../src/engine/token-attacks.js";

/**
 * Client assertion forgeries from the shared attack family and the requirement each decides
 * (RFC 7523 §3: signed by the client's registered key; aud and exp REQUIRED).
 */
const FORGED: readonly [TokenAttackId, string][] = [
  ["alg-none", "SCIM-AUTH-ASSERTION-SIG"],
  ["stranger-key", "SCIM-AUTH-ASSERTION-SIG"],
  ["embedded-jwk", "SCIM-AUTH-ASSERTION-SIG"],
  ["embedded-x5c", "SCIM-AUTH-ASSERTION-SIG"],
  ["jku", "SCIM-AUTH-ASSERTION-SIG"],
  ["hs256-public-key", "SCIM-AUTH-ASSERTION-SIG"],
  ["unknown-kid", "SCIM-AUTH-ASSERTION-SIG"],
  ["flipped-signature", "SCIM-AUTH-ASSERTION-SIG"],
  ["missing-aud", "SCIM-AUTH-ASSERTION-AUD"],
  ["wrong-aud", "SCIM-AUTH-ASSERTION-AUD"],
  ["missing-exp", "SCIM-AUTH-ASSERTION-EXP"],
  ["expired", "SCIM-AUTH-ASSERTION-EXP"],
  ["nbf-future", "SCIM-AUTH-ASSERTION-EXP"],
  ["wrong-iss", "SCIM-AUTH-ASSERTION-ISS"],
  ["missing-iss", "SCIM-AUTH-ASSERTION-ISS"],
  ["missing-sub", "SCIM-AUTH-ASSERTION-ISS"],
  // Without a jti no replay can be seen: "nonces SHALL be validated" (area C Authentication 6).
  ["missing-jti", "SCIM-AUTH-ASSERTION-REPLAY"],
];

const STATIC =
  "not exercised: the profile gives a static bearer token (suites.scim.auth.bearerToken), not OAuth with RFC 7523";

export function oauthOnly(c: CheckContext<ScimProfile>): void {
  if (!isOAuth(c.profile)) c.skip(STATIC, "not-declared");
}

/**
 * One request per endpoint family of Users and Groups, with the id of nothing; groups at the
 * endpoint /ResourceTypes gives (`ScimClient.groups`), plus the document's literal `POST
 * /Group`, marked `literal`: a provider that does not serve that path (404 or 405 to it) is
 * not judged there (SCIM-GROUP-PROFILE-PATHS says so). What they would create carries the
 * run's tag, so a target that wrongly accepts them is still swept clean.
 * A 429 to any of them says nothing of authentication: it is waited out and the request
 * sent again (`retry429`), as everywhere but in the rate-limit check.
 */
type Family = readonly [method: string, path: string, body?: unknown, literal?: boolean];

export const families = (name: string, groups: string): readonly Family[] => {
  const nil = "00000000-0000-4000-8000-000000000000";
  const patchOp = { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [] };
  const group = { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: name };
  return [
    ["GET", "/Users"],
    ["POST", "/Users", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: name }],
    ["GET", `/Users/${nil}`],
    ["PATCH", `/Users/${nil}`, patchOp],
    ["DELETE", `/Users/${nil}`],
    ["GET", groups],
    ["POST", groups, group],
    ["GET", `${groups}/${nil}`],
    ["PATCH", `${groups}/${nil}`, patchOp],
    ["DELETE", `${groups}/${nil}`],
    ...(groups === "/Group" ? [] : [["POST", "/Group", group, true] satisfies Family]),
  ];
};

/** A literal path of the document that the provider does not serve: not judged for authentication. */
export function unserved(
  c: CheckContext<ScimProfile>,
  res: HttpResponse,
  method: string,
  path: string,
): boolean {
  if (res.status !== 404 && res.status !== 405) return false;
  c.note(
    `${method} ${path} answered ${res.status}: the provider does not serve the document's literal path (see SCIM-GROUP-PROFILE-PATHS), so authentication is not judged there`,
  );
  return true;
}

export const JWT_BEARER_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** RFC 6749 §5.2: the error codes a token endpoint answers a refused request with. */
const OAUTH_ERRORS = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
];

/** A token request refused as RFC 6749 §5.2 says: 400 or 401, an error code, no token. */
export const refused = (res: HttpResponse): boolean => {
  const j = res.json as { access_token?: unknown; error?: unknown } | undefined;
  return (
    (res.status === 400 || res.status === 401) &&
    j?.access_token === undefined &&
    OAUTH_ERRORS.includes(String(j?.error))
  );
};

/** RFC 6750 §3, RFC 9110 §15.5.2: a 401 carries a WWW-Authenticate challenge, here Bearer. */
export const bearerChallenge = (res: HttpResponse): boolean =>
  /^\s*Bearer(\s|,|$)/i.test(res.header("www-authenticate") ?? "");

export const authChecks = [
  defineCheck<ScimProfile>({
    id: "scim.auth-required",
    title:
      "every Users and Groups endpoint refuses a request without a token, and one with a bad token (401)",
    requirements: ["SCIM-AUTH-NO-TOKEN", "SCIM-AUTH-BAD-TOKEN"],
    async run(c) {
      const s = new ScimClient(c);
      const bogus = `idc-not-a-token-${randomUUID()}`;
      for (const [method, path, body, literal] of families(s.name("never-created"), await s.groups())) {
        const none = await s.call(method, path, {
          token: null,
          ...(body ? { body } : {}),
          label: `${method} ${path} without token`,
          retry429: true,
        });
        if (literal && unserved(c, none, method, path)) continue;
        c.check("SCIM-AUTH-NO-TOKEN", none.status === 401 && bearerChallenge(none), {
          expected: `401 with a Bearer WWW-Authenticate challenge for ${method} ${path}`,
          actual: `${none.status}, WWW-Authenticate ${quote(none.header("www-authenticate") ?? null)}`,
          res: none,
        });
        const bad = await s.call(method, path, {
          token: bogus,
          ...(body ? { body } : {}),
          label: `${method} ${path} with a bad token`,
          retry429: true,
        });
        c.check("SCIM-AUTH-BAD-TOKEN", bad.status === 401 && bearerChallenge(bad), {
          expected: `401 with a Bearer WWW-Authenticate challenge for ${method} ${path}`,
          actual: `${bad.status}, WWW-Authenticate ${quote(bad.header("www-authenticate") ?? null)}`,
          res: bad,
        });
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-scope",
    title:
      "a token without the scim scope is refused (401 or 403, with a Bearer challenge) by every Users and Groups endpoint",
    requirements: ["SCIM-AUTH-SCOPE"],
    async run(c) {
      const s = new ScimClient(c);
      let token: string;
      if (isOAuth(c.profile)) {
        const other = c.profile.auth.otherScope;
        const res = await s.requestToken({ scope: other, label: `token request for scope ${other}` });
        const body = res.json as { access_token?: unknown; scope?: unknown } | undefined;
        if (res.status !== 200 || typeof body?.access_token !== "string") {
          return c.skip(
            `the authorization server gave no token for scope "${other}" (${res.status}); set suites.scim.auth.otherScope to a scope it grants`,
            "dependency",
          );
        }
        if (typeof body.scope === "string" && body.scope.split(" ").includes("scim")) {
          return c.skip(
            `the token issued for scope "${other}" carries scim anyway (scope "${body.scope}"): nothing to observe`,
            "not-exercised",
          );
        }
        token = body.access_token;
        c.secret(token, "OTHER_SCOPE_TOKEN");
      } else {
        if (!c.profile.auth.noScopeToken)
          return c.skip(
            "needs suites.scim.auth.noScopeToken: a static token without the scim scope",
            "not-declared",
          );
        token = c.profile.auth.noScopeToken;
      }
      // Every endpoint family, reads and writes: a scope enforced on some routes only is not enforced.
      for (const [method, path, body, literal] of families(s.name("no-scope"), await s.groups())) {
        const res = await s.call(method, path, {
          token,
          ...(body ? { body } : {}),
          label: `${method} ${path} without scim scope`,
          retry429: true,
        });
        if (literal && unserved(c, res, method, path)) continue;
        // RFC 6750 §3: a token that does not enable access is answered with a WWW-Authenticate challenge.
        c.check("SCIM-AUTH-SCOPE", (res.status === 401 || res.status === 403) && bearerChallenge(res), {
          expected: `401 or 403 with a Bearer WWW-Authenticate challenge for ${method} ${path}`,
          actual: `${res.status}, WWW-Authenticate ${quote(res.header("www-authenticate") ?? null)}`,
          res,
        });
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-jwt-client",
    title: "an RFC 7523 client assertion gets a token with the scim scope only, finite lifetime, that works",
    requirements: ["SCIM-AUTH-JWT-CLIENT", "SCIM-AUTH-TOKEN-EXPIRES", "SCIM-AUTH-SCOPE-ONLY"],
    async run(c) {
      oauthOnly(c);
      const s = new ScimClient(c);
      const res = await s.requestToken({ label: "token request (scope scim)" });
      const body = res.json as
        { access_token?: unknown; token_type?: unknown; expires_in?: unknown } | undefined;
      c.require(
        "SCIM-AUTH-JWT-CLIENT",
        res.status === 200 &&
          typeof body?.access_token === "string" &&
          /^bearer$/i.test(String(body.token_type)),
        {
          expected: "200 with access_token and token_type Bearer",
          actual: `${res.status} ${res.text.slice(0, 300)}`,
          // A 200 without the token or its type lacks what the answer must carry.
          ...(res.status === 200
            ? {
                kind:
                  typeof body?.access_token !== "string" || body.token_type === undefined
                    ? ("missing" as const)
                    : ("wrong-value" as const),
              }
            : {}),
        },
      );
      const token = String(body?.access_token);
      c.secret(token, "ACCESS_TOKEN");
      // RFC 6749 §5.1: a response carrying a token MUST NOT be cached.
      const cache = res.header("cache-control") ?? "";
      c.check("SCIM-AUTH-JWT-CLIENT", /(^|,)\s*no-store\s*(,|$)/i.test(cache), {
        expected: "Cache-Control: no-store on the token response (RFC 6749 §5.1)",
        actual: cache || "(absent)",
      });
      // Without expires_in the lifetime is not stated (RFC 6749 §5.1: RECOMMENDED; "if omitted,
      // the authorization server SHOULD provide the expiration time via other means or document
      // the default value"): not observable, so a skip, as in every suite (README: token lifetime).
      if (body?.expires_in === undefined)
        c.skipOnly(
          "SCIM-AUTH-TOKEN-EXPIRES",
          "the token response gives no expires_in (RFC 6749 §5.1: RECOMMENDED), so the token's lifetime cannot be observed",
          "other",
        );
      else
        c.check(
          "SCIM-AUTH-TOKEN-EXPIRES",
          typeof body.expires_in === "number" && body.expires_in > 0 && Number.isFinite(body.expires_in),
          {
            expected: "expires_in, a positive number of seconds",
            actual: quote(body.expires_in),
          },
        );
      // RFC 7521 §4.2: a client_id parameter naming the client itself is allowed beside the assertion.
      const withId = await s.c.http.post(await s.tokenEndpoint(), {
        form: {
          grant_type: "client_credentials",
          client_id: c.profile.auth.clientId ?? "",
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: await (async () => {
            const jwk = JSON.parse(c.profile.auth.clientKey ?? "{}") as JWK;
            const t = await signAssertion(jwk, {
              clientId: c.profile.auth.clientId ?? "",
              audience: await s.tokenEndpoint(),
            });
            c.secret(t, "CLIENT_ASSERTION");
            return t;
          })(),
          scope: "scim",
        },
        label: "token request with the client's own client_id",
      });
      const idToken = (withId.json as { access_token?: unknown } | undefined)?.access_token;
      if (typeof idToken === "string") c.secret(idToken, "ACCESS_TOKEN");
      c.check("SCIM-AUTH-JWT-CLIENT", withId.status === 200 && typeof idToken === "string", {
        expected: "200 with an access_token when client_id names the client (RFC 7521 §4.2)",
        actual: `${withId.status} ${withId.text.slice(0, 200)}`,
        res: withId,
      });
      const use = await s.call("GET", "/Users?count=1", { token, label: "use the token" });
      c.check("SCIM-AUTH-JWT-CLIENT", use.status === 200, {
        expected: "200 on GET /Users with the token",
        actual: String(use.status),
        res: use,
      });
      const broad = await s.requestToken({
        scope: "scim admin",
        label: "token request asking for more than scim",
      });
      const b = broad.json as { access_token?: unknown; scope?: unknown; error?: unknown } | undefined;
      if (typeof b?.access_token === "string") c.secret(b.access_token, "ACCESS_TOKEN");
      const granted =
        broad.status === 200
          ? typeof b?.scope === "string"
            ? b.scope
            : "scim admin (no scope member: as requested, RFC 6749 §5.1)"
          : undefined;
      c.check(
        "SCIM-AUTH-SCOPE-ONLY",
        broad.status === 200 ? granted === "scim" : broad.status === 400 && b?.error === "invalid_scope",
        {
          expected: 'scope "scim" only, or 400 invalid_scope',
          actual: broad.status === 200 ? `granted ${granted}` : `${broad.status} ${quote(b?.error ?? null)}`,
          res: broad,
        },
      );
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-as-metadata",
    title: "the authorization server publishes RFC 8414 metadata naming its token endpoint",
    requirements: ["SCIM-AUTH-AS-METADATA"],
    async run(c) {
      oauthOnly(c);
      const a = c.profile.auth;
      if (!a.issuer)
        return c.skip(
          "the profile gives tokenEndpoint and no issuer: no metadata to look up (suites.scim.auth.issuer)",
          "not-declared",
        );
      const issuer = new URL(a.issuer);
      const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
      const md = await c.http.get(`${issuer.origin}/.well-known/oauth-authorization-server${path}`, {
        label: "AS metadata",
      });
      const doc = md.json as { token_endpoint?: unknown; issuer?: unknown } | undefined;
      const issuerOk = doc?.issuer === a.issuer || doc?.issuer === a.issuer.replace(/\/$/, "");
      c.check(
        "SCIM-AUTH-AS-METADATA",
        md.status === 200 && typeof doc?.token_endpoint === "string" && issuerOk,
        {
          expected: "200 with token_endpoint, and issuer equal to the profile's issuer (RFC 8414 §3.3)",
          actual: `${md.status} ${md.jsonError ?? `issuer: ${quote(doc?.issuer)}, token_endpoint: ${quote(doc?.token_endpoint)}`}`,
        },
      );
      // RFC 8414 §2: what a client needs to use the profile's grant, read with the defaults the
      // RFC gives an omitted member (grant types: authorization_code and implicit; methods:
      // client_secret_basic); lists it says are optional are judged only when present.
      const m = (md.json ?? {}) as Record<string, unknown>;
      const list = (k: string, dflt?: string[]): unknown[] | undefined =>
        Array.isArray(m[k]) ? (m[k] as unknown[]) : dflt;
      const alg = (JSON.parse(a.clientKey ?? "{}") as JWK).alg ?? "ES256";
      const wrong = [
        ...(list("grant_types_supported", ["authorization_code", "implicit"])?.includes("client_credentials")
          ? []
          : [`grant_types_supported ${quote(m.grant_types_supported ?? null)} without client_credentials`]),
        ...(list("token_endpoint_auth_methods_supported", ["client_secret_basic"])?.includes(
          "private_key_jwt",
        )
          ? []
          : [
              `token_endpoint_auth_methods_supported ${quote(m.token_endpoint_auth_methods_supported ?? null)} without private_key_jwt`,
            ]),
        ...((list("token_endpoint_auth_signing_alg_values_supported")?.includes(alg) ?? true)
          ? []
          : [`token_endpoint_auth_signing_alg_values_supported without ${alg}`]),
        ...((list("scopes_supported")?.includes("scim") ?? true) ? [] : ["scopes_supported without scim"]),
      ];
      c.check("SCIM-AUTH-AS-METADATA", md.status === 200 && wrong.length === 0, {
        expected:
          "client_credentials, private_key_jwt, the client key's alg and scim among what the metadata lists (RFC 8414 §2)",
        actual: wrong.join("; "),
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-assertion-rules",
    title:
      "the token endpoint refuses an assertion with a wrong or no aud, a bad signature (flipped, a stranger key, a key it carries in jwk, x5c or jku, HS256 keyed with the public key, alg none), an expired, not yet valid or exp-less one, another or no iss or sub, a replayed or missing jti, and a token request without an assertion",
    requirements: [
      "SCIM-AUTH-ASSERTION-AUD",
      "SCIM-AUTH-ASSERTION-SIG",
      "SCIM-AUTH-ASSERTION-EXP",
      "SCIM-AUTH-ASSERTION-REPLAY",
      "SCIM-AUTH-ASSERTION-ISS",
      "SCIM-AUTH-ASSERTION-REQUIRED",
    ],
    async run(c) {
      oauthOnly(c);
      const s = new ScimClient(c);
      const a = c.profile.auth;
      const endpoint = await s.tokenEndpoint();
      const jwk = JSON.parse(a.clientKey ?? "{}") as JWK;
      const sign = (claims: Record<string, unknown>, jti?: string): Promise<string> =>
        signAssertion(jwk, {
          clientId: a.clientId ?? "",
          audience: endpoint,
          claims,
          ...(jti ? { jti } : {}),
        });
      const detail = (res: HttpResponse) => ({
        expected: "400 or 401 with an RFC 6749 §5.2 error (invalid_client) and no access_token",
        actual: `${res.status} ${res.text.slice(0, 200)}`,
        res,
      });

      const aud = await s.requestToken({
        assertion: await sign({ aud: "https://not-the-token-endpoint.invalid/token" }),
        label: "assertion with a wrong aud",
      });
      c.check("SCIM-AUTH-ASSERTION-AUD", refused(aud), detail(aud));
      const sig = await s.requestToken({
        assertion: breakSignature(await sign({})),
        label: "assertion with a bad signature",
      });
      c.check("SCIM-AUTH-ASSERTION-SIG", refused(sig), detail(sig));
      const now = Math.floor(Date.now() / 1000);
      const exp = await s.requestToken({
        assertion: await sign({ iat: now - 900, exp: now - 600 }),
        label: "expired assertion",
      });
      c.check("SCIM-AUTH-ASSERTION-EXP", refused(exp), detail(exp));
      // Each forgery from a fresh assertion (its own jti), so a refusal is never a replay's.
      const jku = await startJkuHost();
      try {
        for (const [attack, id] of FORGED) {
          const [forged] = await tokenAttacks({
            token: await sign({}),
            signingKey: jwk,
            jku,
            requiredClaims: ["aud", "exp", "iss", "sub", "jti"],
            only: [attack],
          });
          if (forged === undefined) continue; // no x5c for an EdDSA key
          const res = await s.requestToken({ assertion: forged.token, label: `assertion ${forged.title}` });
          c.check(id, refused(res), detail(res));
        }
      } finally {
        await jku.close();
      }

      // RFC 7523 §3: sub is the client's id; a client_id parameter must name the same client.
      const sub = await s.requestToken({
        assertion: await sign({ sub: `${a.clientId ?? ""}-other` }),
        label: "assertion with the sub of another client",
      });
      c.check("SCIM-AUTH-ASSERTION-ISS", refused(sub), detail(sub));
      const form = (f: Record<string, string>, label: string): Promise<HttpResponse> =>
        c.http.post(endpoint, { form: { grant_type: "client_credentials", scope: "scim", ...f }, label });
      const otherId = await sign({});
      c.secret(otherId, "CLIENT_ASSERTION");
      const other = await form(
        {
          client_id: `${a.clientId ?? ""}-other`,
          client_assertion_type: JWT_BEARER_TYPE,
          client_assertion: otherId,
        },
        "assertion with a client_id parameter of another client",
      );
      c.check("SCIM-AUTH-ASSERTION-ISS", refused(other), detail(other));
      // Area C Authentication 1: clients authenticate with a JWT assertion, never without one.
      const none = await form({ client_id: a.clientId ?? "" }, "token request without a client assertion");
      c.check("SCIM-AUTH-ASSERTION-REQUIRED", refused(none), detail(none));
      const typed = await sign({});
      c.secret(typed, "CLIENT_ASSERTION");
      const wrongType = await form(
        {
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:saml2-bearer",
          client_assertion: typed,
        },
        "assertion under another client_assertion_type",
      );
      c.check("SCIM-AUTH-ASSERTION-REQUIRED", refused(wrongType), detail(wrongType));

      const once = await sign({}, `idc-replay-${randomUUID()}`);
      const first = await s.requestToken({ assertion: once, label: "assertion, first use" });
      if (first.status !== 200)
        return c.skip(
          `a valid assertion was refused (${first.status}): see SCIM-AUTH-JWT-CLIENT`,
          "dependency",
        );
      const t = (first.json as { access_token?: unknown } | undefined)?.access_token;
      if (typeof t === "string") c.secret(t, "ACCESS_TOKEN");
      const again = await s.requestToken({ assertion: once, label: "the same assertion again" });
      c.check("SCIM-AUTH-ASSERTION-REPLAY", refused(again), detail(again));
      // A short-lived assertion too: its jti must be remembered for as long as it is accepted.
      const brief = await signAssertion(jwk, {
        clientId: a.clientId ?? "",
        audience: endpoint,
        lifetimeSeconds: 15,
        jti: `idc-replay-${randomUUID()}`,
      });
      c.secret(brief, "CLIENT_ASSERTION");
      const firstBrief = await s.requestToken({
        assertion: brief,
        label: "short-lived assertion, first use",
      });
      const tb = (firstBrief.json as { access_token?: unknown } | undefined)?.access_token;
      if (typeof tb === "string") c.secret(tb, "ACCESS_TOKEN");
      const againBrief = await s.requestToken({ assertion: brief, label: "the short-lived assertion again" });
      c.check("SCIM-AUTH-ASSERTION-REPLAY", firstBrief.status === 200 && refused(againBrief), {
        expected: "the first use served (200), the second refused (400 or 401, no access_token)",
        actual: `${firstBrief.status}, then ${againBrief.status} ${againBrief.text.slice(0, 200)}`,
        res: againBrief,
      });
    },
  }),
];
