import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { HarnessError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import { authorizeInBrowser } from "../../../mocks/wallet/browser.js";
import { BrowserStepError, BrowserUnreachableError, WalletError } from "../../../mocks/wallet/errors.js";
import { pkce } from "../../../mocks/wallet/pkce.js";
import type { VciProfile } from "../profile.js";
import { body, said, Vci, type Ctx } from "../client.js";

/** specs/000 Rules 3 and 4: the Authorization Code Flow with authorization_details. */
export const authorizationChecks = [
  defineCheck<VciProfile>({
    id: "vci.authorization-code",
    title:
      "login and consent in a browser give a code whose Token Response carries authorization_details with credential_identifiers, and a credential_identifier obtains a credential",
    requirements: ["VCI-AUTHZ-FLOW"],
    // The profile's browser budget (at most 120 s) and the requests around it.
    timeoutMs: 150_000,
    async run(c: Ctx) {
      const a = c.profile.authorization;
      if (!a) c.skip("the profile declares no authorization code flow (authorization)", "not-declared");
      const v = new Vci(c);
      const as = await v.authorizationServer();
      if (as.authorization_endpoint === undefined)
        c.skip("the Authorization Server metadata has no authorization_endpoint", "not-offered");
      if (!v.usable(as.authorization_endpoint))
        c.skip("the Authorization Server's authorization_endpoint is not an https URL", "dependency");
      const conf = await v.configuration(a.configuration);
      const redirectUri = String(c.provided.redirectUri);
      const { verifier, challenge, method } = pkce();
      const state = randomBytes(16).toString("base64url");
      // Issuer-initiated when the profile can give an authorization_code offer: its issuer_state
      // binds the Authorization Request to the offer (Rules 4; Grant parameters).
      let issuerState: string | undefined;
      if (c.profile.offers.trigger?.kinds.authorizationCode !== undefined) {
        const o = await v.offer("authorizationCode");
        issuerState = o.shape.issuerState;
        if (issuerState === undefined)
          c.note("the authorizationCode offer carries no issuer_state; the flow starts without one");
      }
      const url = new URL(String(as.authorization_endpoint));
      if (issuerState !== undefined) url.searchParams.set("issuer_state", issuerState);
      for (const [k, val] of Object.entries({
        response_type: "code",
        client_id: c.profile.clientId,
        redirect_uri: redirectUri,
        state,
        code_challenge: challenge,
        code_challenge_method: method,
        authorization_details: await v.authorizationDetails(a.configuration),
      }))
        url.searchParams.set(k, val);
      const secrets = a.steps.flatMap((s) => ("fill" in s && s.fill.value.length >= 4 ? [s.fill.value] : []));
      for (const s of secrets) c.secret(s, "BROWSER_INPUT");
      let redirectedTo: string;
      let trail: string[];
      try {
        ({ redirectedTo, trail } = await authorizeInBrowser({
          authorizationUrl: url.href,
          steps: a.steps,
          redirectUri,
          timeoutMs: a.timeoutMs,
          trustedSpki: Array.isArray(c.provided.browserPins) ? (c.provided.browserPins as string[]) : [],
          secrets,
        }));
      } catch (e) {
        // A page that could not be loaded: the issuer was not reached, nothing was observed.
        if (e instanceof BrowserUnreachableError)
          throw new HarnessError(
            /CERT|SSL/.test(e.errorText)
              ? "IDC_HTTP_TLS"
              : e.errorText === "timeout"
                ? "IDC_HTTP_TIMEOUT"
                : "IDC_HTTP_UNREACHABLE",
            `the authorization code flow in the browser: ${e.message}`,
          );
        // The harness's browser, or the profile's steps, do not fit the pages: nothing judged.
        if (e instanceof BrowserStepError)
          throw new HarnessError(
            "IDC_SETUP",
            `the browser steps (suites.vci.authorization.steps) could not be carried out: ${e.message}`,
          );
        if (!(e instanceof WalletError)) throw e;
        c.check("VCI-AUTHZ-FLOW", false, {
          expected: `the browser steps end at ${redirectUri} with a code`,
          actual: e.message,
        });
        return;
      }
      const back = new URL(redirectedTo).searchParams;
      const code = back.get("code");
      const error = back.get("error");
      const description = back.get("error_description");
      c.note(`authorization response: ${[...back.keys()].join(", ")}`);
      // The page the Authorization Server redirected from (the trail ends at the redirect URI).
      const from = trail.at(-2) ?? "the authorization URL";
      c.require("VCI-AUTHZ-FLOW", code !== null && back.get("state") === state, {
        expected: "redirect with code and the same state",
        actual:
          code !== null
            ? "a different state"
            : error !== null
              ? `redirect from ${from} with error ${quote(error, 100)}${description !== null ? `, error_description ${quote(description, 200)}` : ""}`
              : `redirect from ${from} with no code`,
      });
      c.secret(code!, "AUTHORIZATION_CODE");
      const res = await v.token({
        grant_type: "authorization_code",
        code: code!,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: c.profile.clientId,
      });
      const b = body(res);
      const ids = v.identifiers(res, a.configuration);
      c.require(
        "VCI-AUTHZ-FLOW",
        res.status === 200 &&
          typeof b.access_token === "string" &&
          ids.length > 0 &&
          typeof ids[0] === "string",
        {
          expected: `200 with an access token and authorization_details for ${a.configuration} with credential_identifiers`,
          actual:
            res.status === 200
              ? `authorization_details ${quote(b.authorization_details ?? null)}`
              : said(res),
          res,
        },
      );
      const key = await v.keyFor(conf);
      const reply = await v.credential(b.access_token as string, {
        credential_identifier: ids[0],
        proofs: { jwt: [await v.proof(key)] },
      });
      const creds = reply.body.credentials;
      c.check("VCI-AUTHZ-FLOW", reply.res.status === 200 && Array.isArray(creds) && creds.length > 0, {
        expected: "200 with credentials for the credential_identifier",
        actual: reply.decryptError ?? said(reply.res),
        res: reply.res,
      });
    },
  }),
];
