import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import { HarnessError, SetupError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import { authorizeInBrowser } from "../../../mocks/wallet/browser.js";
import { BrowserStepError, BrowserUnreachableError, WalletError } from "../../../mocks/wallet/errors.js";
import { pkce } from "../../../mocks/wallet/pkce.js";
import type { VciProfile } from "../profile.js";
import { body, credentialsKind, isError, refusalKind, said, Vci, type Ctx } from "../client.js";
import type { Details } from "../../../src/engine/check.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import type { HttpResponse } from "../../../src/http/client.js";

/** The result of one authorization in the browser: a code, or why there is none (and the answer that shows it). */
type Authorized =
  | { readonly code: string; readonly verifier: string; readonly redirectUri: string }
  | {
      readonly code: undefined;
      readonly expected: string;
      readonly actual: string;
      readonly res?: HttpResponse;
      /** The kind of the finding, where the failure says it (else read from the texts). */
      readonly kind?: FindingKind;
    };

/** `html` without its script and style elements (a linear scan: the page is the target's). */
function withoutBlocks(html: string): string {
  const lower = html.toLowerCase();
  let out = "";
  let at = 0;
  for (;;) {
    const open = [lower.indexOf("<script", at), lower.indexOf("<style", at)].filter((i) => i >= 0);
    if (open.length === 0) return out + html.slice(at);
    const start = Math.min(...open);
    const end = lower.indexOf(lower.startsWith("<script", start) ? "</script" : "</style", start);
    out += `${html.slice(at, start)} `;
    if (end < 0) return out;
    at = lower.indexOf(">", end) < 0 ? html.length : lower.indexOf(">", end) + 1;
  }
}

/** A page's title and the start of its text, for a finding (bounded; markup and scripts left out). */
function pageShown(res: HttpResponse): string {
  const html = res.text.slice(0, 64 * 1024);
  const title = /<title[^>]{0,200}>([^<]{0,300})/i.exec(html)?.[1]?.trim();
  const text = withoutBlocks(html)
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return [title ? `title ${quote(title, 100)}` : undefined, `text ${text ? quote(text, 200) : "(none)"}`]
    .filter((x) => x !== undefined)
    .join(", ");
}

/**
 * The Authorization Server's first answer to the client's valid Authorization Request, sent
 * without a browser (RFC 6749 §4.1.1; specs/000 Rules 4): a redirect to the redirect_uri with
 * `error`, or an error status, refuses a valid request, and is the issuer's failure, shown with
 * that answer. A login page (2xx) or a redirect elsewhere lets the browser go on. Read this
 * way, a refusal is not mistaken for steps that do not fit the pages, whose selector then
 * never appears. An AS that does not know the profile's client refuses rightly (§4.1.2.1):
 * the finding says so.
 */
async function refusedUpFront(c: Ctx, url: string, redirectUri: string): Promise<Authorized | undefined> {
  const res = await c.http.get(url, {
    headers: { accept: "text/html" },
    label: "the valid Authorization Request",
  });
  const expected = `a login or consent page (or a redirect to one) for the valid Authorization Request, not an error (if the Authorization Server does not know client_id ${quote(c.profile.clientId, 80)}, set suites.vci.clientId)`;
  const location = res.header("location");
  if (res.status >= 300 && res.status < 400 && pointsAt(location, url, redirectUri)) {
    const back = new URL(location!, url).searchParams;
    const error = back.get("error");
    if (error === null) return undefined;
    const description = back.get("error_description");
    return {
      code: undefined,
      expected,
      actual: `${res.status} to the redirect_uri with error ${quote(error, 100)}${description !== null ? `, error_description ${quote(description, 200)}` : ""}`,
      res,
      // A valid request refused: an error answer where a login page was due.
      kind: "wrong-status",
    };
  }
  if (res.status < 400) return undefined;
  return {
    code: undefined,
    expected,
    actual: `HTTP ${res.status}: ${pageShown(res)}`,
    res,
    kind: "wrong-status",
  };
}

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
  const requestUrl = async (o: { state: string; challenge: string }): Promise<URL> => {
    let issuerState: string | undefined;
    if (c.profile.offers.trigger?.kinds.authorizationCode !== undefined) {
      const offer = await v.offer("authorizationCode");
      issuerState = offer.shape.issuerState;
      if (issuerState === undefined)
        c.note("the authorizationCode offer carries no issuer_state; the flow starts without one");
    }
    const url = new URL(String(as.authorization_endpoint));
    if (issuerState !== undefined) url.searchParams.set("issuer_state", issuerState);
    for (const [k, val] of Object.entries(await requestParams(c, v, { redirectUri, method, ...o })))
      url.searchParams.set(k, val);
    return url;
  };
  // The first answer is read on a request of its own (its own offer: an issuer_state may be
  // single use), so the browser's request is still fresh.
  const refused = await refusedUpFront(
    c,
    (await requestUrl({ state: randomBytes(16).toString("base64url"), challenge: pkce().challenge })).href,
    redirectUri,
  );
  if (refused !== undefined) return refused;
  const url = await requestUrl({ state, challenge });
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
      throw new SetupError(
        "suites.vci.authorization.steps",
        `the browser steps could not be carried out: ${e.message}`,
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
    // Another state; the valid request refused with an error; or no code at all.
    kind: code !== null ? "wrong-value" : error !== null ? "wrong-status" : "missing",
  };
}

/** The parameters of the client's valid Authorization Request for the profile's configuration. */
async function requestParams(
  c: Ctx,
  v: Vci,
  o: { redirectUri: string; state: string; challenge: string; method: string },
): Promise<Record<string, string>> {
  return {
    response_type: "code",
    client_id: c.profile.clientId,
    redirect_uri: o.redirectUri,
    state: o.state,
    code_challenge: o.challenge,
    code_challenge_method: o.method,
    authorization_details: await v.authorizationDetails(c.profile.authorization!.configuration),
  };
}

/** One Authorization Request the AS must refuse, and the error codes RFC 6749 / 7636 / 9396 allow for it. */
interface BadRequest {
  readonly label: string;
  readonly set: Record<string, string | undefined>;
  readonly errors: readonly string[];
}

/** Whether `location` points at `redirectUri` (same origin and path; query and fragment aside). */
function pointsAt(location: string | undefined, base: string, redirectUri: string): boolean {
  if (location === undefined) return false;
  try {
    const to = new URL(location, base);
    const ru = new URL(redirectUri);
    return to.origin === ru.origin && to.pathname === ru.pathname;
  } catch {
    return false;
  }
}

/**
 * Sends one Authorization Request over plain HTTP (no browser: an error answer needs none):
 * the valid request of the client with its redirect_uri, state and PKCE, with `set` applied
 * (undefined deletes a parameter). The harness's client never follows the redirect.
 */
async function sendAuthorize(
  c: Ctx,
  endpoint: string,
  base: Record<string, string>,
  set: Record<string, string | undefined>,
  label: string,
): Promise<HttpResponse> {
  const url = new URL(endpoint);
  for (const [k, val] of Object.entries({ ...base, ...set }))
    if (val !== undefined) url.searchParams.set(k, val);
  return c.http.get(url.href, { headers: { accept: "text/html" }, label });
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
        c.check("VCI-AUTHZ-FLOW", false, {
          expected: got.expected,
          actual: got.actual,
          ...(got.res ? { res: got.res } : {}),
          ...(got.kind ? { kind: got.kind } : {}),
        });
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
          kind:
            res.status !== 200
              ? "wrong-status"
              : b.access_token !== undefined && typeof b.access_token !== "string"
                ? "malformed"
                : "missing",
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
        kind: credentialsKind(reply),
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
          kind: refusalKind(res),
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
  defineCheck<VciProfile>({
    id: "vci.authorization-request-errors",
    title:
      "bad Authorization Requests are refused: without client_id or with a redirect_uri the client may not use, never by redirect to it; other errors by redirect to the redirect_uri with the error (invalid_authorization_details for bad authorization_details) and the same state",
    requirements: [
      "VCI-AUTHZ-REQ-NO-REDIRECT",
      "VCI-AUTHZ-REQ-ERROR-REDIRECT",
      "VCI-AUTHZ-REQ-DETAILS-INVALID",
    ],
    async run(c: Ctx) {
      const v = new Vci(c);
      await needsFlow(c, v);
      const a = c.profile.authorization!;
      const as = await v.authorizationServer();
      const endpoint = String(as.authorization_endpoint);
      const redirectUri = String(c.provided.redirectUri);
      const state = randomBytes(16).toString("base64url");
      const { challenge, method } = pkce();
      const meta = await v.metadata();
      const locations = Array.isArray(meta.authorization_servers) ? { locations: [v.issuer] } : {};
      const base = await requestParams(c, v, { redirectUri, state, challenge, method });

      // A response_type the AS does not support: token unless its metadata lists it (RFC 8414).
      const types = as.response_types_supported;
      const unsupported = Array.isArray(types) && !types.includes("token") ? "token" : "idconform_unknown";
      // RFC 6749 §4.1.2.1: no trustworthy client or redirect_uri, no redirect to it. Each also
      // asks an unsupported response_type, so an AS that goes on has an error it would redirect.
      const ru = new URL(redirectUri);
      // The same URI in the other scheme, naming the real one in its query (a prefix test misses it).
      const otherScheme = `${ru.protocol === "https:" ? "http:" : "https:"}${redirectUri.slice(ru.protocol.length).replace(/#.*$/, "")}${ru.search ? "&" : "?"}next=${redirectUri}`;
      const untrusted: { label: string; set: Record<string, string | undefined>; to: string }[] = [
        { label: "without client_id", set: { client_id: undefined }, to: redirectUri },
        { label: "with an empty client_id", set: { client_id: "" }, to: redirectUri },
        {
          label: "with the redirect_uri in another scheme",
          set: { redirect_uri: otherScheme },
          to: otherScheme,
        },
        {
          label: "with a fragment in the redirect_uri",
          set: { redirect_uri: `${redirectUri}#idconform` },
          to: redirectUri,
        },
        {
          label: "with a redirect_uri of an unregistered host",
          set: { redirect_uri: "https://redirect.idconform.invalid/callback" },
          to: "https://redirect.idconform.invalid/callback",
        },
        // Not probed: the registered URI with more query. RFC 6749 §3.1.2.2 lets an AS that
        // registered no full URI allow the query to vary, so refusing it is not required.
      ];
      await c.each("VCI-AUTHZ-REQ-NO-REDIRECT", untrusted, "Authorization Request", async (p) => {
        const res = await sendAuthorize(
          c,
          endpoint,
          base,
          { response_type: unsupported, ...p.set },
          `authorization request ${p.label}`,
        );
        const location = res.header("location");
        if (res.status >= 300 && res.status < 400 && pointsAt(location, endpoint, p.to))
          return {
            expected: `an Authorization Request ${p.label}: an error page, no redirect to that redirect_uri`,
            actual: `${res.status} to ${quote(location, 200)}`,
            res,
            // The untrusted redirect_uri was used: an open redirector (RFC 6749 §4.1.2.1, §10.15).
            kind: "accepted",
          };
        return undefined;
      });

      // RFC 6749 §4.1.2.1: the client is known and its redirect_uri fine, so the error goes there.
      const redirected = async (p: BadRequest): Promise<Details | undefined> => {
        const res = await sendAuthorize(c, endpoint, base, p.set, `authorization request ${p.label}`);
        const expected = `an Authorization Request ${p.label}: a redirect to ${redirectUri} with error ${p.errors.join(" or ")}, state and no code`;
        const location = res.header("location");
        // Not refused by redirect to the redirect_uri: another answer (an error page, a page or
        // a redirect elsewhere, which this request cannot tell from the flow going on).
        if (!(res.status >= 300 && res.status < 400) || !pointsAt(location, endpoint, redirectUri))
          return {
            expected,
            actual: `${said(res)}${location ? ` to ${quote(location, 200)}` : ""}`,
            res,
            kind: "wrong-status",
          };
        const back = new URL(location!, endpoint).searchParams;
        const error = back.get("error");
        if (error === null || !p.errors.includes(error) || back.get("state") !== state || back.has("code"))
          return {
            expected,
            actual: `${res.status} with error ${quote(error)}, state ${back.get("state") === state ? "the same" : quote(back.get("state"))}${back.has("code") ? " and a code" : ""}`,
            res,
            // A code for a request it must refuse; then no error, another error, no or another state.
            kind: back.has("code")
              ? "accepted"
              : error === null
                ? "missing"
                : !p.errors.includes(error)
                  ? "wrong-code"
                  : back.get("state") === null
                    ? "missing"
                    : "wrong-value",
          };
        return undefined;
      };
      const methods = as.code_challenge_methods_supported;
      const bad: BadRequest[] = [
        {
          label: `with response_type=${unsupported}`,
          set: { response_type: unsupported },
          errors: ["unsupported_response_type", "unauthorized_client", "invalid_request"],
        },
        {
          label: "without response_type",
          set: { response_type: undefined },
          errors: ["invalid_request", "unsupported_response_type"],
        },
        {
          label: "with code_challenge_method=S257 (no such transformation)",
          set: { code_challenge_method: "S257" },
          errors: ["invalid_request"],
        },
        // Only when the metadata says which methods the AS supports, and plain is not one.
        ...(Array.isArray(methods) && !methods.includes("plain")
          ? [
              {
                label: "with code_challenge_method=plain (not in code_challenge_methods_supported)",
                set: { code_challenge_method: "plain" },
                errors: ["invalid_request"],
              },
            ]
          : []),
        {
          label: "with authorization_details that are not JSON",
          set: { authorization_details: "[{" },
          errors: ["invalid_authorization_details", "invalid_request"],
        },
        {
          label: "with authorization_details that are an object, not an array",
          set: {
            authorization_details: JSON.stringify({
              type: v.ids.authorizationDetailsType,
              credential_configuration_id: a.configuration,
              ...locations,
            }),
          },
          errors: ["invalid_authorization_details", "invalid_request"],
        },
      ];
      await c.each("VCI-AUTHZ-REQ-ERROR-REDIRECT", bad, "bad Authorization Request", (p) => redirected(p));
      // Errors the AS may also ignore (RFC 6749 §3.3: a default scope; an unknown issuer_state is
      // not named as an error): judged only when answered by redirect, which then goes to the
      // redirect_uri with the state, and never refuses the configuration's advertised scope.
      const scope = (await v.configuration(a.configuration)).scope;
      const optional: BadRequest[] = [
        {
          label: "with neither authorization_details nor scope",
          set: { authorization_details: undefined },
          errors: ["invalid_scope", "invalid_request"],
        },
        {
          label: "with an issuer_state the issuer never gave",
          set: { issuer_state: `idconform-unknown-${randomBytes(12).toString("base64url")}` },
          errors: ["invalid_request", "access_denied", "invalid_scope", "invalid_authorization_details"],
        },
        ...(typeof scope === "string" && scope !== ""
          ? [
              {
                label: `with scope ${scope} (the configuration's) and an issuer_state the issuer never gave`,
                set: {
                  authorization_details: undefined,
                  scope,
                  issuer_state: `idconform-unknown-${randomBytes(12).toString("base64url")}`,
                },
                errors: ["invalid_request", "access_denied"],
              },
            ]
          : []),
      ];
      for (const p of optional) {
        const got = await redirected(p);
        if (
          got?.res !== undefined &&
          got.res.status >= 300 &&
          got.res.status < 400 &&
          pointsAt(got.res.header("location"), endpoint, redirectUri)
        )
          c.check("VCI-AUTHZ-REQ-ERROR-REDIRECT", false, got);
        else if (got !== undefined)
          c.note(`an Authorization Request ${p.label} was not refused by redirect: ${got.actual ?? ""}`);
      }

      // RFC 9396 §5: an unknown type, a missing or an unknown required field.
      const detail = (d: Record<string, unknown>): string => JSON.stringify([{ ...d, ...locations }]);
      const details: BadRequest[] = [
        {
          label: "with authorization_details of an unknown type",
          set: {
            authorization_details: detail({
              type: "idconform_unknown_type",
              credential_configuration_id: a.configuration,
            }),
          },
          errors: ["invalid_authorization_details"],
        },
        {
          label: "with authorization_details naming an unknown credential_configuration_id",
          set: {
            authorization_details: detail({
              type: v.ids.authorizationDetailsType,
              credential_configuration_id: `idconform-unknown-${randomBytes(6).toString("hex")}`,
            }),
          },
          errors: ["invalid_authorization_details"],
        },
        {
          label: "with authorization_details without credential_configuration_id",
          set: { authorization_details: detail({ type: v.ids.authorizationDetailsType }) },
          errors: ["invalid_authorization_details"],
        },
        {
          label: "with authorization_details whose second entry names an unknown credential_configuration_id",
          set: {
            authorization_details: JSON.stringify([
              {
                type: v.ids.authorizationDetailsType,
                credential_configuration_id: a.configuration,
                ...locations,
              },
              {
                type: v.ids.authorizationDetailsType,
                credential_configuration_id: `idconform-unknown-${randomBytes(6).toString("hex")}`,
                ...locations,
              },
            ]),
          },
          errors: ["invalid_authorization_details"],
        },
      ];
      await c.each("VCI-AUTHZ-REQ-DETAILS-INVALID", details, "bad authorization_details", (p) =>
        redirected(p),
      );
    },
  }),
];
