import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { HarnessError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import { authorizeInBrowser } from "../../../mocks/wallet/browser.js";
import { BrowserStepError, BrowserUnreachableError, WalletError } from "../../../mocks/wallet/errors.js";
import { pkce } from "../../../mocks/wallet/pkce.js";
import type { VciProfile } from "../profile.js";
import { body, isError, said, Vci, type Ctx } from "../client.js";
import type { HttpResponse } from "../../../src/http/client.js";

/** The result of one authorization in the browser: a code, or why there is none. */
type Authorized =
  | { readonly code: string; readonly verifier: string; readonly redirectUri: string }
  | { readonly code: undefined; readonly expected: string; readonly actual: string };

/**
 * One Authorization Request with PKCE, state and authorization_details, carried out in the
 * browser with the profile's steps (specs/000 Rules 3 and 4). A page that cannot be reached,
 * or steps that do not fit the pages, are harness errors: nothing is judged.
 */
async function authorize(c: Ctx, v: Vci): Promise<Authorized> {
  const a = c.profile.authorization!;
  const as = await v.authorizationServer();
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
    return {
      code: undefined,
      expected: `the browser steps end at ${redirectUri} with a code`,
      actual: e.message,
    };
  }
  const back = new URL(redirectedTo).searchParams;
  const code = back.get("code");
  const error = back.get("error");
  const description = back.get("error_description");
  c.note(`authorization response: ${[...back.keys()].join(", ")}`);
  if (code !== null && back.get("state") === state) {
    c.secret(code, "AUTHORIZATION_CODE");
    return { code, verifier, redirectUri };
  }
  // The page the Authorization Server redirected from (the trail ends at the redirect URI).
  const from = trail.at(-2) ?? "the authorization URL";
  return {
    code: undefined,
    expected: "redirect with code and the same state",
    actual:
      code !== null
        ? "a different state"
        : error !== null
          ? `redirect from ${from} with error ${quote(error, 100)}${description !== null ? `, error_description ${quote(description, 200)}` : ""}`
          : `redirect from ${from} with no code`,
  };
}

/** The flow needs a declared authorization and an https authorization_endpoint. */
async function needsFlow(c: Ctx, v: Vci): Promise<void> {
  if (!c.profile.authorization)
    c.skip("the profile declares no authorization code flow (authorization)", "not-declared");
  const as = await v.authorizationServer();
  if (as.authorization_endpoint === undefined)
    c.skip("the Authorization Server metadata has no authorization_endpoint", "not-offered");
  if (!v.usable(as.authorization_endpoint))
    c.skip("the Authorization Server's authorization_endpoint is not an https URL", "dependency");
}

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
      const v = new Vci(c);
      await needsFlow(c, v);
      const a = c.profile.authorization!;
      const conf = await v.configuration(a.configuration);
      const got = await authorize(c, v);
      if (got.code === undefined) {
        c.check("VCI-AUTHZ-FLOW", false, { expected: got.expected, actual: got.actual });
        return;
      }
      const { code, verifier, redirectUri } = got;
      const res = await v.token({
        grant_type: "authorization_code",
        code,
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
  defineCheck<VciProfile>({
    id: "vci.authorization-code-misuse",
    title:
      "an authorization code is single use, bound to its PKCE verifier and to its redirect_uri: a replayed code, a wrong code_verifier or another redirect_uri gives 400 invalid_grant",
    requirements: ["VCI-AUTHZ-CODE-REPLAY", "VCI-AUTHZ-PKCE", "VCI-AUTHZ-REDIRECT-URI"],
    // Three flows in the browser, each within the profile's budget.
    timeoutMs: 400_000,
    async run(c: Ctx) {
      const v = new Vci(c);
      await needsFlow(c, v);
      // Each misuse gets a code of its own: an AS may burn a code on the first failed exchange.
      const fresh = async (id: string): Promise<Exclude<Authorized, { code: undefined }> | undefined> => {
        const got = await authorize(c, v);
        if (got.code !== undefined) return got;
        c.skipOnly(
          id,
          `the authorization in the browser gave no code (${got.actual}): see VCI-AUTHZ-FLOW`,
          "dependency",
        );
        return undefined;
      };
      const exchange = (a: { code: string; verifier: string; redirectUri: string }, label: string) =>
        v.token(
          {
            grant_type: "authorization_code",
            code: a.code,
            code_verifier: a.verifier,
            redirect_uri: a.redirectUri,
            client_id: c.profile.clientId,
          },
          label,
        );
      const refused = (id: string, what: string, res: HttpResponse): void => {
        c.check(id, isError(res, 400, "invalid_grant"), {
          expected: `${what}: 400 invalid_grant`,
          actual: said(res),
          res,
        });
      };

      const once = await fresh("VCI-AUTHZ-CODE-REPLAY");
      if (once) {
        const first = await exchange(once, "the code, first exchange");
        if (first.status !== 200 || typeof body(first).access_token !== "string")
          c.skipOnly(
            "VCI-AUTHZ-CODE-REPLAY",
            `the first exchange of a fresh code answered ${said(first)}: see VCI-AUTHZ-FLOW`,
            "dependency",
          );
        else
          refused(
            "VCI-AUTHZ-CODE-REPLAY",
            "the same code again",
            await exchange(once, "the same code again"),
          );
      }
      const pkceCode = await fresh("VCI-AUTHZ-PKCE");
      if (pkceCode)
        refused(
          "VCI-AUTHZ-PKCE",
          "the code with another code_verifier",
          await exchange({ ...pkceCode, verifier: pkce().verifier }, "the code with another code_verifier"),
        );
      const redirected = await fresh("VCI-AUTHZ-REDIRECT-URI");
      if (redirected) {
        const other = new URL(redirected.redirectUri);
        other.pathname = `${other.pathname.replace(/\/$/, "")}/other`;
        refused(
          "VCI-AUTHZ-REDIRECT-URI",
          `the code with redirect_uri ${other.href}`,
          await exchange({ ...redirected, redirectUri: other.href }, "the code with another redirect_uri"),
        );
      }
    },
  }),
];
