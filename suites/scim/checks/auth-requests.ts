import type { JWK } from "jose";
import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { signAssertion } from "../../../mocks/identity-service/assertion.js";
import type { ScimProfile } from "../profile.js";
import { SCIM_JSON, ScimClient } from "../scim-client.js";
import { bearerChallenge, families, JWT_BEARER_TYPE, oauthOnly, refused, unserved } from "./auth.js";

/**
 * Token requests and bearer credentials that are not what the RFCs define, each of which must
 * be refused: the edges of specs/002 area C Authentication 1-4 that auth.ts does not probe.
 */
export const authRequestChecks = [
  defineCheck<ScimProfile>({
    id: "scim.auth-token-request",
    title:
      "the token endpoint refuses a token request with no or an unsupported grant_type, or a repeated parameter, even with a valid client assertion",
    requirements: ["SCIM-AUTH-TOKEN-REQUEST"],
    async run(c) {
      oauthOnly(c);
      const s = new ScimClient(c);
      const a = c.profile.auth;
      const endpoint = await s.tokenEndpoint();
      const jwk = JSON.parse(a.clientKey ?? "{}") as JWK;
      // A fresh assertion for each request (its own jti), so a refusal is never a replay's.
      const assertion = async (): Promise<string> => {
        const t = await signAssertion(jwk, { clientId: a.clientId ?? "", audience: endpoint });
        c.secret(t, "CLIENT_ASSERTION");
        return t;
      };
      const send = async (params: [string, string][], label: string): Promise<HttpResponse> => {
        const res = await c.http.send({
          method: "POST",
          url: endpoint,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(params).toString(),
          label,
        });
        const t = (res.json as { access_token?: unknown } | undefined)?.access_token;
        if (typeof t === "string") c.secret(t, "ACCESS_TOKEN");
        return res;
      };
      const auth = async (): Promise<[string, string][]> => [
        ["client_assertion_type", JWT_BEARER_TYPE],
        ["client_assertion", await assertion()],
        ["scope", "scim"],
      ];
      const cases: [string, [string, string][]][] = [
        // RFC 6749 §5.2 unsupported_grant_type: a grant type no server defines.
        [
          "an unsupported grant_type",
          [["grant_type", "urn:idconform:params:oauth:grant-type:unsupported"], ...(await auth())],
        ],
        // RFC 6749 §4.4.2: grant_type is REQUIRED.
        ["no grant_type", await auth()],
        // RFC 6749 §3.2: parameters MUST NOT be included more than once; §5.2 invalid_request.
        [
          "grant_type twice",
          [["grant_type", "client_credentials"], ["grant_type", "client_credentials"], ...(await auth())],
        ],
      ];
      for (const [what, params] of cases) {
        const res = await send(params, `token request with ${what}`);
        c.check("SCIM-AUTH-TOKEN-REQUEST", refused(res), {
          expected: `400 or 401 with an RFC 6749 §5.2 error and no access_token for a request with ${what}`,
          actual: `${res.status} ${res.text.slice(0, 200)}`,
          res,
        });
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-scope-unknown",
    title:
      "a token request for a scope the server does not know gets no broader token: scim at most, or invalid_scope",
    requirements: ["SCIM-AUTH-SCOPE-ONLY"],
    async run(c) {
      oauthOnly(c);
      const s = new ScimClient(c);
      const asked = "idc-unknown-scope";
      const res = await s.requestToken({ scope: asked, label: `token request for scope ${asked} only` });
      const b = res.json as { access_token?: unknown; scope?: unknown; error?: unknown } | undefined;
      if (typeof b?.access_token === "string") c.secret(b.access_token, "ACCESS_TOKEN");
      // RFC 6749 §5.1: without a scope member the token has the scope requested.
      const granted = typeof b?.scope === "string" ? b.scope : asked;
      const ok =
        res.status === 200
          ? typeof b?.access_token === "string" && granted.split(" ").every((t) => t === "" || t === "scim")
          : res.status === 400 && b?.error === "invalid_scope";
      c.check("SCIM-AUTH-SCOPE-ONLY", ok, {
        expected: 'a token with scope "scim" at most (RFC 6749 §3.3), or 400 invalid_scope (RFC 6749 §5.2)',
        actual:
          res.status === 200
            ? `granted ${quote(granted)}${typeof b?.scope === "string" ? "" : " (no scope member: as requested, RFC 6749 §5.1)"}`
            : `${res.status} ${res.text.slice(0, 200)}`,
        res,
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.auth-bearer-form",
    title:
      "every Users and Groups endpoint refuses a valid token sent under another scheme or with a character appended (401)",
    requirements: ["SCIM-AUTH-BAD-TOKEN"],
    async run(c) {
      const s = new ScimClient(c);
      const token = await s.token();
      // RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token. "XBearer" is another scheme, and
      // "!" is no b64token character: the token with it appended is not the token issued (nor,
      // for a JWT, one that base64url-decodes "with no other additional characters", RFC 7519 §7.2).
      const forms: [string, string][] = [
        ["under the scheme XBearer", `XBearer ${token}`],
        ['with "!" appended', `Bearer ${token}!`],
      ];
      for (const [what, authorization] of forms) {
        c.secret(authorization, "AUTHORIZATION");
        for (const [method, path, body, literal] of families(s.name("bearer-form"), await s.groups())) {
          const res = await c.http.send({
            method,
            url: `${s.base}${path}`,
            headers: {
              accept: SCIM_JSON,
              authorization,
              ...(body ? { "content-type": SCIM_JSON } : {}),
            },
            ...(body ? { body: JSON.stringify(body) } : {}),
            label: `${method} ${path} with the token ${what}`,
          });
          if (literal && unserved(c, res, method, path)) continue;
          c.check("SCIM-AUTH-BAD-TOKEN", res.status === 401 && bearerChallenge(res), {
            expected: `401 with a Bearer WWW-Authenticate challenge for ${method} ${path} with the token ${what}`,
            actual: `${res.status}, WWW-Authenticate ${quote(res.header("www-authenticate") ?? null)}`,
            res,
          });
        }
      }
    },
  }),
];
