import { randomBytes } from "node:crypto";
import { defineCheck } from "../../../src/engine/check.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { PRE_AUTHORIZED_GRANT } from "../../../src/protocols/vci.js";
import type { VciProfile } from "../profile.js";
import {
  body,
  isError,
  isObject,
  refusalKind,
  said,
  Vci,
  type Ctx,
  type Json,
  type ReceivedOffer,
} from "../client.js";
import { goodRequest } from "../session.js";

/** Decides `requirement`: a 400 token error with code `error` (its format is observed on every token error). */
function refused(c: Ctx, requirement: string, res: HttpResponse, error: string): void {
  c.check(requirement, isError(res, 400, error), {
    expected: `400 ${error}`,
    actual: said(res),
    kind: refusalKind(res),
  });
}

/**
 * The kind of a violated "200 with an access token" (and a token_type when `typed`): another
 * status, a body that is no JSON object, a member absent, a member of another JSON type, or an
 * empty token_type.
 */
function grantKind(res: HttpResponse, typed: boolean): FindingKind {
  if (res.status !== 200) return "wrong-status";
  if (!isObject(res.json)) return "malformed";
  const b: Json = res.json;
  if (b.access_token === undefined || (typed && b.token_type === undefined)) return "missing";
  if (typeof b.access_token !== "string" || (typed && typeof b.token_type !== "string")) return "malformed";
  return "wrong-value";
}

/** Another value of the same form as a tx_code: its last character changed. */
function wrongCode(code: string): string {
  const last = code.at(-1) ?? "0";
  const next = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === "a" ? "b" : "a";
  return `${code.slice(0, -1)}${next}`;
}

/**
 * Why the tx_code the End-User got for `o` does not fit the offer's tx_code object (specs/000
 * Grant parameters: input_mode `numeric`, the default, is digits only; length is the code's
 * length), or undefined when it fits or there is nothing to compare.
 */
function txCodeMisfit(o: ReceivedOffer): string | undefined {
  const code = o.txCode;
  const offer = isObject(o.offer) ? o.offer : {};
  const grants = isObject(offer.grants) ? offer.grants : {};
  const pre = grants[PRE_AUTHORIZED_GRANT];
  const tx = isObject(pre) ? pre.tx_code : undefined;
  if (code === undefined || !isObject(tx)) return undefined;
  const mode = tx.input_mode ?? "numeric";
  if (mode === "numeric" && !/^[0-9]+$/.test(code))
    return `tx_code ${quote(code, 60)} is not all digits, though input_mode is numeric`;
  if (Number.isInteger(tx.length) && [...code].length !== tx.length)
    return `tx_code of ${[...code].length} characters, though length is ${String(tx.length)}`;
  return undefined;
}

/**
 * Judges VCI-TOKEN-LIFETIME for a bearer token (Authentication 4: over 5 minutes only when
 * sender-constrained). Without expires_in the lifetime is not stated (RFC 6749 §5.1: expires_in
 * RECOMMENDED; "if omitted, the authorization server SHOULD provide the expiration time via
 * other means or document the default value"), so it cannot be observed: a skip, as in every
 * suite (README: token lifetime), never a failure the document does not state.
 */
function judgeLifetime(c: Ctx, expiresIn: unknown, typed: string, res: HttpResponse): void {
  if (expiresIn === undefined)
    c.skipOnly(
      "VCI-TOKEN-LIFETIME",
      `the token response gives no expires_in (RFC 6749 §5.1: RECOMMENDED), so the bearer token's lifetime cannot be observed (${typed})`,
      "other",
    );
  else
    c.check(
      "VCI-TOKEN-LIFETIME",
      typeof expiresIn === "number" && Number.isFinite(expiresIn) && expiresIn > 0 && expiresIn <= 300,
      {
        expected: "a bearer token with expires_in at most 300 seconds (a positive number)",
        actual: `${typed}, expires_in ${quote(expiresIn, 40)}`,
        res,
        // RFC 6749 §5.1: expires_in is a number of seconds; anything else is not one.
        kind: typeof expiresIn === "number" && Number.isFinite(expiresIn) ? "wrong-value" : "malformed",
      },
    );
}

/**
 * True when `token`, typed DPoP though the Wallet sent no DPoP proof, is accepted as a Bearer
 * token by the Credential Endpoint for a valid Credential Request (200, or 202 deferred).
 */
async function worksAsBearer(
  c: Ctx,
  v: Vci,
  o: ReceivedOffer,
  token: string,
  tokenRes: HttpResponse,
): Promise<boolean> {
  const [id] = await v.usableConfigurations(o);
  if (id === undefined)
    c.skip("the offer names no usable configuration: see VCI-OFFER-CONFIG-KNOWN", "dependency");
  const conf = await v.configuration(id);
  const request = await goodRequest(v, { id, conf, tokenRes }, await v.keyFor(conf));
  const r = await v.credential(token, request, { label: "the DPoP-typed token used as a Bearer token" });
  return r.res.status === 200 || r.res.status === 202;
}

/** specs/000 Endpoints: Token Endpoint; Token Request and Response; Errors; public §6. */
export const tokenChecks = [
  defineCheck<VciProfile>({
    id: "vci.token.pre-authorized",
    title:
      "a pre-authorized code gives 200 JSON with access_token and token_type, Cache-Control: no-store, and a bearer token lives at most 5 minutes",
    requirements: ["VCI-TOKEN-PRE-AUTH", "VCI-TOKEN-LIFETIME"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("preAuthorized");
      const res = await v.token(v.preAuthorizedForm(o));
      const b = body(res);
      c.require(
        "VCI-TOKEN-PRE-AUTH",
        res.status === 200 &&
          typeof b.access_token === "string" &&
          typeof b.token_type === "string" &&
          b.token_type !== "",
        {
          expected: "200 with access_token and a token_type (RFC 6749 §5.1: a type name, not empty)",
          actual: said(res),
          kind: grantKind(res, true),
        },
      );
      const type = String(b.token_type).toLowerCase();
      let typed = `token_type ${quote(b.token_type, 40)}`;
      if (type === "dpop") {
        // The Wallet sent no DPoP proof, so no key can be bound to the token (RFC 9449 §5): what
        // the token does decides whether it is sender-constrained, not what it is called.
        if (!(await worksAsBearer(c, v, o, b.access_token as string, res)))
          c.skipOnly(
            "VCI-TOKEN-LIFETIME",
            "the token is typed DPoP and refused as a Bearer token: it is not a bearer token, so any lifetime is allowed",
            "not-offered",
          );
        else {
          typed =
            "token_type DPoP, though the Wallet sent no DPoP proof and the token works as a Bearer token at the Credential Endpoint";
          judgeLifetime(c, b.expires_in, typed, res);
        }
      } else judgeLifetime(c, b.expires_in, typed, res);
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.unknown-parameter",
    title: "an unknown form parameter in a pre-authorized Token Request is ignored",
    requirements: ["VCI-TOKEN-UNKNOWN-PARAM"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("preAuthorized");
      const res = await v.token(v.preAuthorizedForm(o, { idconform_unknown_parameter: "ignore-me" }));
      c.check("VCI-TOKEN-UNKNOWN-PARAM", res.status === 200 && typeof body(res).access_token === "string", {
        expected: "200 with an access token (the parameter ignored)",
        actual: said(res),
        kind: grantKind(res, false),
      });
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.replay",
    title:
      "a pre-authorized code is single use: a second exchange, or a code never issued, gives 400 invalid_grant in the token error format",
    requirements: ["VCI-TOKEN-CODE-REPLAY", "VCI-TOKEN-CODE-UNKNOWN"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("preAuthorized");
      await v.accessToken(o);
      const again = await v.token(v.preAuthorizedForm(o), "the same code again");
      refused(c, "VCI-TOKEN-CODE-REPLAY", again, "invalid_grant");
      const made = await v.token(
        v.preAuthorizedForm(o, { "pre-authorized_code": `idc-never-issued-${c.runId.slice(-6)}` }),
        "a code never issued",
      );
      refused(c, "VCI-TOKEN-CODE-UNKNOWN", made, "invalid_grant");
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.tx-code",
    title:
      "the tx_code of an offer is enforced: missing gives invalid_request, wrong (of either length) gives invalid_grant, right gives a token; every tx_code fits its offer's input_mode and length",
    requirements: ["VCI-TOKEN-TX-MISSING", "VCI-TOKEN-TX-WRONG", "VCI-OFFER-TX-CODE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const baseline = await v.offer("txCode");
      if (!baseline.shape.txCodeRequired) c.skip("the txCode offer requires no tx_code", "needs-hook");
      if (baseline.txCode === undefined)
        c.skip("the offer hook gave no tx_code for the txCode offer", "needs-hook");
      await v.accessToken(baseline);
      const forMissing = await v.offer("txCode");
      if (!forMissing.shape.txCodeRequired) c.skip("a later txCode offer requires no tx_code", "needs-hook");
      const { tx_code: _dropped, ...withoutTx } = v.preAuthorizedForm(forMissing);
      const missing = await v.token(withoutTx, "without the tx_code");
      refused(c, "VCI-TOKEN-TX-MISSING", missing, "invalid_request");
      const forWrong = await v.offer("txCode");
      if (!forWrong.shape.txCodeRequired) c.skip("a later txCode offer requires no tx_code", "needs-hook");
      const right = forWrong.txCode;
      if (right === undefined) c.skip("the offer hook gave no tx_code", "needs-hook");
      const wrong = await v.token(
        v.preAuthorizedForm(forWrong, { tx_code: wrongCode(right) }),
        "a wrong tx_code",
      );
      refused(c, "VCI-TOKEN-TX-WRONG", wrong, "invalid_grant");
      // A code one character longer is as wrong (public §6.3: a wrong tx_code is invalid_grant,
      // whatever its length; length in the offer only helps the Wallet render its input).
      refused(
        c,
        "VCI-TOKEN-TX-WRONG",
        await v.token(v.preAuthorizedForm(forWrong, { tx_code: `${right}0` }), "a tx_code one digit longer"),
        "invalid_grant",
      );
      // The tx_code of another live offer is as wrong for this one as a made-up one.
      const mine = await v.offer("txCode");
      const theirs = await v.offer("txCode");
      if (mine.txCode === undefined || theirs.txCode === undefined || mine.txCode === theirs.txCode)
        c.note(
          "two txCode offers did not carry two different tx_codes; another offer's tx_code was not sent",
        );
      else
        refused(
          c,
          "VCI-TOKEN-TX-WRONG",
          await v.token(
            v.preAuthorizedForm(mine, { tx_code: theirs.txCode }),
            "the tx_code of another offer",
          ),
          "invalid_grant",
        );
      // What the End-User is told to type fits what the offer says of it (Grant parameters).
      const misfits = [baseline, forMissing, forWrong, mine, theirs].flatMap((o) => txCodeMisfit(o) ?? []);
      c.check("VCI-OFFER-TX-CODE", misfits.length === 0, {
        expected:
          "every tx_code fits its offer's tx_code object (numeric: digits only; length: that many characters)",
        actual: misfits.length === 0 ? "every tx_code fits" : misfits.join("; "),
      });
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.tx-code-unexpected",
    title: "a tx_code sent for an offer that has none gives 400 invalid_request",
    requirements: ["VCI-TOKEN-TX-UNEXPECTED"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("preAuthorized");
      if (o.shape.txCodeRequired) c.skip("the preAuthorized offer requires a tx_code", "needs-hook");
      const res = await v.token(v.preAuthorizedForm(o, { tx_code: "493817" }), "a tx_code nobody asked for");
      refused(c, "VCI-TOKEN-TX-UNEXPECTED", res, "invalid_request");
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.anonymous",
    title: "an AS that supports anonymous pre-authorized access gives a token to a request without client_id",
    requirements: ["VCI-AS-ANONYMOUS"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const as = await v.authorizationServer();
      if (as["pre-authorized_grant_anonymous_access_supported"] !== true)
        c.skip("the Authorization Server does not offer anonymous pre-authorized access", "not-offered");
      const o = await v.offer("preAuthorized");
      const { client_id: _dropped, ...anonymous } = v.preAuthorizedForm(o);
      const res = await v.token(anonymous, "without client_id");
      c.check("VCI-AS-ANONYMOUS", res.status === 200 && typeof body(res).access_token === "string", {
        expected: "200 with an access token",
        actual: said(res),
        kind: grantKind(res, false),
      });
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.malformed",
    title:
      "a Token Request without grant_type, without (or with an empty) pre-authorized_code, or an authorization_code one without (or with an empty) code, gives 400 invalid_request; an unsupported grant_type gives 400 unsupported_grant_type",
    requirements: ["VCI-TOKEN-MALFORMED"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const unsupported = await v.token(
        { grant_type: "urn:idconform:unknown-grant-type", client_id: c.profile.clientId },
        "a grant_type the AS does not support",
      );
      refused(c, "VCI-TOKEN-MALFORMED", unsupported, "unsupported_grant_type");
      const o = await v.offer("preAuthorized");
      const { grant_type: _type, ...noGrantType } = v.preAuthorizedForm(o);
      refused(c, "VCI-TOKEN-MALFORMED", await v.token(noGrantType, "without grant_type"), "invalid_request");
      const { "pre-authorized_code": _code, ...noCode } = v.preAuthorizedForm(o);
      refused(
        c,
        "VCI-TOKEN-MALFORMED",
        await v.token(noCode, "a pre-authorized Token Request without pre-authorized_code"),
        "invalid_request",
      );
      refused(
        c,
        "VCI-TOKEN-MALFORMED",
        await v.token({ ...noCode, "pre-authorized_code": "" }, "an empty pre-authorized_code"),
        "invalid_request",
      );
      // An authorization_code request without its code (RFC 6749 §4.1.3: code REQUIRED), when
      // the AS says it supports that grant: no code to judge, so only invalid_request fits.
      const as = await v.authorizationServer();
      const grants = as.grant_types_supported;
      if (!Array.isArray(grants) || !grants.includes("authorization_code")) {
        c.note(
          "grant_types_supported does not list authorization_code; no code exchange was sent without its code",
        );
        return;
      }
      const redirect = c.provided.redirectUri;
      const exchange = {
        grant_type: "authorization_code",
        code_verifier: randomBytes(32).toString("base64url"),
        redirect_uri: typeof redirect === "string" ? redirect : "https://127.0.0.1/idconform-callback",
        client_id: c.profile.clientId,
      };
      refused(
        c,
        "VCI-TOKEN-MALFORMED",
        await v.token(exchange, "an authorization_code Token Request without code"),
        "invalid_request",
      );
      refused(
        c,
        "VCI-TOKEN-MALFORMED",
        await v.token({ ...exchange, code: "" }, "an authorization_code Token Request with an empty code"),
        "invalid_request",
      );
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.authorization-details",
    title:
      "a pre-authorized Token Request with authorization_details gets authorization_details of the std_credential type with non-empty credential_identifiers",
    requirements: ["VCI-TOKEN-AUTH-DETAILS"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("preAuthorized");
      const [id] = await v.usableConfigurations(o);
      const res = await v.token(
        v.preAuthorizedForm(o, { authorization_details: await v.authorizationDetails(id!) }),
      );
      if (res.status !== 200)
        c.skip(`the token request answered ${said(res)}: see VCI-TOKEN-PRE-AUTH`, "dependency");
      const ad = body(res).authorization_details;
      const entry = Array.isArray(ad)
        ? ad.find((d) => isObject(d) && d.credential_configuration_id === id)
        : undefined;
      const ids = isObject(entry) ? entry.credential_identifiers : undefined;
      c.check(
        "VCI-TOKEN-AUTH-DETAILS",
        isObject(entry) &&
          entry.type === v.ids.authorizationDetailsType &&
          Array.isArray(ids) &&
          ids.length > 0 &&
          ids.every((x) => typeof x === "string"),
        {
          expected: `authorization_details with {type: ${v.ids.authorizationDetailsType}, credential_configuration_id: ${id}, credential_identifiers: [...]}`,
          actual: quote(ad ?? null, 300),
          kind:
            ad !== undefined && !Array.isArray(ad)
              ? "malformed"
              : !isObject(entry) || ids === undefined
                ? "missing"
                : Array.isArray(ids) && ids.every((x) => typeof x === "string")
                  ? "wrong-value"
                  : "malformed",
        },
      );
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.token.details-not-offered",
    title:
      "a pre-authorized Token Request whose authorization_details name a configuration the offer did not contain does not get it granted",
    requirements: ["VCI-TOKEN-DETAILS-OFFERED"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const all = (await v.metadata()).credential_configurations_supported;
      const known = isObject(all) ? Object.keys(all) : [];
      // The first pre-authorized offer kind the profile gives that leaves a configuration out.
      let found: { o: ReceivedOffer; other: string } | undefined;
      const kinds = (["preAuthorized", "byValue", "txCode", "deferred"] as const).filter(
        (k) => c.profile.offers.trigger?.kinds[k] !== undefined,
      );
      for (const kind of kinds) {
        const o = await v.offer(kind);
        const other = known.find((id) => !o.shape.configurationIds.includes(id));
        if (other !== undefined && o.shape.preAuthorizedCode) {
          found = { o, other };
          break;
        }
      }
      if (found === undefined)
        c.skip(
          "no pre-authorized offer the profile gives leaves out a configuration of the metadata",
          "other",
        );
      const { o, other } = found;
      // Next to one the offer does contain, when there is one: the unoffered one stays unoffered.
      const offered = o.shape.configurationIds.find((id) => known.includes(id));
      const asked = [...(offered === undefined ? [] : [offered]), other];
      const entries = await Promise.all(
        asked.map(async (id) => JSON.parse(await v.authorizationDetails(id)) as unknown[]),
      );
      const res = await v.token(
        v.preAuthorizedForm(o, { authorization_details: JSON.stringify(entries.flat()) }),
        `authorization_details for ${asked.join(" and ")}; the offer does not contain ${other}`,
      );
      const ad = body(res).authorization_details;
      const granted =
        res.status === 200 &&
        Array.isArray(ad) &&
        ad.some((d) => isObject(d) && d.credential_configuration_id === other);
      c.check("VCI-TOKEN-DETAILS-OFFERED", !granted, {
        expected: `${other} not granted (an error, or authorization_details without it)`,
        actual: res.status === 200 ? `200 with authorization_details ${quote(ad ?? null, 300)}` : said(res),
        // Violated only when granted: a configuration the offer did not contain was handed out.
        kind: "accepted",
      });
    },
  }),
];
